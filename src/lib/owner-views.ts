/**
 * What the owner and claim pages render (src/components/owner, src/pages/owner), as plain
 * data: the server works it out (netlify/lib/owners/*, through netlify/lib/page-data/owner.ts)
 * and the components only draw it. Types only.
 */

/** Field name (or path: "hours.monday", "closedDates.0.date") -> its message. */
export type FieldMessages = Readonly<Record<string, string>>;

/** Who is looking at an owner section, and what the page says above its heading. */
export type OwnerShell =
  | {
      kind: "signed-in";
      /** `isSample`: a demo business (src/lib/sample.ts), marked "Sample listing". */
      business: { name: string; slug: string; isSample?: boolean };
      /** A success line ("Saved. Your public page shows it now."). */
      notice?: string;
      /** What went wrong with the last post. */
      problem?: string;
      /** "#field-id": the problem line leads to the field it is about. */
      problemHref?: string;
    }
  | { kind: "signed-out"; signIn?: SignInRequestView }
  | { kind: "gone" }
  | { kind: "unavailable"; problem: string };

/**
 * The returning owner's sign-in form (/owner, signed out): the address as sent and its message
 * after a refused post, or, after a request, what happens next. The same whether or not the
 * address is on file.
 */
export interface SignInRequestView {
  action: string;
  value: string;
  error?: string;
  problem?: string;
  requested?: {
    kind: "email" | "phone";
    /** The address as entered, masked. */
    to: string;
    /** Whether a provider can deliver by that channel here (else Treeline's team has the request). */
    ready: boolean;
    /** Whether the other channel (a text for an e-mail, an e-mail for a phone) can deliver here. */
    otherReady: boolean;
  };
}

/** An option of a select; with a label, a group of them (<optgroup>). */
export interface Option {
  value: string;
  label: string;
}
export interface OptionGroup {
  /** Without a label the options are not grouped. */
  label?: string;
  options: readonly (Option & { selected: boolean })[];
}
export interface Choice {
  value: string;
  label: string;
  checked: boolean;
}

/** One lead on the overview. */
export interface LeadRow {
  id: string;
  /** When it was offered, on the business's clock. */
  sent: string;
  reference: string;
  type: string;
  urgency: string;
  what: string;
  place?: string;
  state: string;
  stateLabel: string;
  answerHref: string;
}

/** Links between the pages of a list. */
export interface PagerView {
  label: string;
  /** "Page 2 of 5". */
  position?: string;
  newer?: { href: string; text: string };
  older?: { href: string; text: string };
}

export interface OverviewView {
  /** What the listing still lacks ("Finish your listing"); empty when nothing. */
  finish: readonly { text: string; href: string }[];
  publicHref: string;
  /** "Austin, TX · rating 4.8 from 12 reviews". */
  glance: string;
  responseFigure: string;
  /** The business's private calendar feed (jobs it accepted) and where "New calendar link" posts. */
  calendar: { url: string; action: string };
  leads: { total: number; rows: readonly LeadRow[]; pager?: PagerView };
}

export interface ProfileFormView {
  action: string;
  description: string;
  services: readonly Choice[];
  serviceAreas: string;
  website: string;
  phone: string;
  days: readonly {
    day: string;
    label: string;
    mode: string;
    open: string;
    close: string;
    /** A stored day with a break: how the form shows it. */
    splitNote?: string;
  }[];
  dayModes: readonly Option[];
  /** Works by appointment ("By appointment" on its page; with no hours, instead of them). */
  byAppointment: boolean;
  holidays: readonly Choice[];
  /** Set when holidays cannot close this listing (24/7, or emergencies around the clock). */
  holidaysIgnored?: string;
  closedDates: readonly { date: string; note: string }[];
  errors: FieldMessages;
}

export interface PhotosView {
  action: string;
  images: readonly string[];
  max: number;
  /** "4 MB" (MAX_UPLOAD_LABEL, src/lib/photos.ts). */
  maxSize: string;
  /** The photo types taken (the file input's accept). */
  accept: string;
  /** Why there is no upload form: the listing is full. */
  full?: string;
}

export interface CredentialsView {
  /** "What you have stated": each credential and whether it is on the public page. */
  status: readonly { label: string; what: string; note?: { state: string; text: string } }[];
  form: {
    action: string;
    values: Readonly<Record<string, string | undefined>>;
    errors: FieldMessages;
    /** The earliest last day of cover (today on the business's clock). */
    today: string;
    states: readonly OptionGroup[];
    types: readonly OptionGroup[];
    /** What each licensing state requires. */
    rules: readonly { term: string; text: string }[];
    /** The boxes that take the old free text off the page (only while there is some). */
    removeOld: readonly { name: string; label: string; checked: boolean }[];
  };
}

type When = { iso: string; text: string };
export interface ReviewItemView {
  id: string;
  date: When;
  /** The public placeholder's line ("Hidden: not about this business"), for a hidden review. */
  hiddenLine?: string;
  rating: number;
  name: string;
  verified: boolean;
  title?: string;
  text?: string;
  reply?: { posted: When; edited?: When };
  /** The reply form: where it posts and its text (the one sent, after a refused post). */
  form: { action: string; value: string; error?: string };
}
export interface ReviewsView {
  /** "Reviews of Maple Trees, newest first". */
  label: string;
  items: readonly ReviewItemView[];
  /** What the list says when it is empty. */
  empty: string;
  pager?: PagerView;
}

export interface ClaimFormView {
  action: string;
  values: Readonly<Record<string, string>>;
  errors: FieldMessages;
  /** The ways to prove it that can deliver here, with the masked contact on file. */
  proofs: readonly Choice[];
  roles: readonly Option[];
  /** No e-mail or text can prove it here: the claim goes to Treeline for a check by hand. */
  manualOnly?: boolean;
}

export interface AddBusinessFormView {
  action: string;
  values: Readonly<Record<string, string>>;
  errors: FieldMessages;
  services: readonly Choice[];
  /** Set hours or by appointment. */
  schedules: readonly Choice[];
  /** Monday..Sunday as the form shows them (as posted after a refusal; closed at first). */
  days: readonly { day: string; label: string; mode: string; open: string; close: string }[];
  dayModes: readonly Option[];
  holidays: readonly Choice[];
  roles: readonly Option[];
}

/** One attempt in a webhook delivery's log. */
export interface WebhookAttemptView {
  when: { iso: string; text: string };
  /** "200", "500", or "No answer" (then `error` says why). */
  status: string;
  error?: string;
  manual: boolean;
}

/** One row of an endpoint's delivery log, with its "Send again" form. */
export interface WebhookDeliveryView {
  id: string;
  eventId: string;
  /** The event's label ("Offer made"). */
  type: string;
  when: { iso: string; text: string };
  /** "Delivered", "Waiting to retry at ...", "Failed". */
  state: string;
  attempts: readonly WebhookAttemptView[];
}

/** One endpoint of the business, with its actions and log. */
export interface WebhookEndpointView {
  id: string;
  url: string;
  /** The events it takes, as labels. */
  events: readonly string[];
  /** "Set up on this page" or "Zapier or Make subscription". */
  source: string;
  /** When its secret was made. */
  secretAt: { iso: string; text: string };
  /** Absent while it is active. */
  disabled?: { text: string };
  /** What became of our last e-mail about it, said as it happened. */
  notice?: string;
  deliveries: readonly WebhookDeliveryView[];
}

export interface WebhooksView {
  action: string;
  endpoints: readonly WebhookEndpointView[];
  /** The add form, empty or as last posted with its messages. */
  form: {
    url: string;
    events: readonly { value: string; label: string; checked: boolean }[];
    errors: FieldMessages;
  };
  /** Whether another endpoint may be added. */
  canAdd: boolean;
  keys: readonly { id: string; hint: string; created: { iso: string; text: string } }[];
  canAddKey: boolean;
  /** The REST hook addresses, absolute. */
  api: { subscribe: string; unsubscribe: string; sample: string };
}
