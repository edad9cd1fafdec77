/**
 * Licences and insurance (issue 27): the states that license or register tree work, their
 * number formats, the owner's form schema, and what the public page may say. The one source
 * of truth for the owner's form (/owner/credentials), the operator's queue, the business page's
 * badges and its JSON-LD. Client-safe: imports nothing node-only.
 *
 * A badge is shown only for what the operator has checked, and an insurance badge goes by
 * itself the day after its expiry (no write needed): see `badgesOf`.
 */
import { z } from "./zod.ts";
import { cleanString } from "./schemas/text.ts";
import { DEFAULT_TIME_ZONE, localTime } from "./hours.ts";
import type { Credentials, Insurance, Licence } from "./schemas/credentials.ts";
import { formatDollars } from "./estimate.ts";

/** One licence (or registration) a state issues for tree work, and how its number is written. */
export interface LicenceType {
  /** Stored in Licence.type and shown in the badge, e.g. "LTE". */
  key: string;
  /** e.g. "Licensed Tree Expert (LTE)". */
  label: string;
  /** The type in a few characters, e.g. "LTE": the form's option reads "MD · LTE" and fits a phone's select. */
  short: string;
  /** The normalised number must match this. */
  pattern: RegExp;
  /** Turns what the owner typed ("lte #01234") into the number as stored ("1234"). */
  normalise(raw: string): string;
  /** A valid number, shown as the field's hint. */
  example: string;
  /** The field message when the number does not match. */
  message: string;
}

/** A state that licenses or registers tree work. */
export interface LicensingState {
  code: string;
  name: string;
  /** Who issues the licence (the JSON-LD's recognizedBy). */
  authority: string;
  /** Who needs it, in one sentence. */
  requires: string;
  /** What the state requires in advertising. */
  advertising: string;
  /** The public register where the operator checks a number. */
  lookupUrl: string;
  types: readonly LicenceType[];
}

/** Upper case, without spaces, "#", "No." and the type's own prefix: "LTE # 01234" -> "01234". */
const bare = (raw: string, ...prefixes: string[]) => {
  let s = raw
    .toUpperCase()
    .replace(/\s+/g, "")
    .replace(/^NO\.?/, "");
  for (const p of prefixes) if (s.startsWith(p)) s = s.slice(p.length);
  return s.replace(/^[#:.-]+/, "");
};
/** Digits without leading zeros ("0123" -> "123"); anything else is left for the pattern to refuse. */
const digits = (s: string) => (/^\d+$/.test(s) ? s.replace(/^0+(?=\d)/, "") : s);

/**
 * The states whose rules the form knows. Formats are what the registers print; where a
 * register's format could not be confirmed the pattern is deliberately loose (noted below).
 */
export const LICENSING_STATES: readonly LicensingState[] = [
  {
    // https://dnr.maryland.gov/forests/Pages/programapps/newtreeexpert.aspx (Md. Code, Nat. Res. 5-417)
    code: "MD",
    name: "Maryland",
    authority: "Maryland DNR Forest Service",
    requires: "Anyone who treats, cares for or removes trees for pay needs a Licensed Tree Expert license.",
    advertising: "No one may advertise tree work without the license; show the LTE number in every advertisement.",
    lookupUrl: "https://dnr.maryland.gov/forests/Pages/programapps/newtreeexpert.aspx",
    types: [
      {
        key: "LTE",
        short: "LTE",
        label: "Licensed Tree Expert (LTE)",
        // The DNR's cards carried a three-digit number; today's numbers run to four digits.
        pattern: /^[1-9]\d{0,4}$/,
        normalise: (raw) => digits(bare(raw, "MD", "LTE")),
        example: "1234",
        message: "Maryland LTE numbers are 1 to 5 digits, e.g. 1234",
      },
    ],
  },
  {
    // https://www.njtreeexperts.org/index.php/business-operators/ (N.J.S.A. 45:15C-11; N.J.A.C. 7:3A)
    code: "NJ",
    name: "New Jersey",
    authority: "New Jersey Board of Tree Experts",
    requires:
      "Every tree care business registers with the Board and employs a Licensed Tree Expert or Licensed Tree Care Operator.",
    advertising:
      'Advertisements carry the business\'s NJTC registration number; a licensee who advertises the title shows "LTE #" or "LTCO #" with the number.',
    lookupUrl: "https://www.njtreeexperts.org/",
    types: [
      {
        key: "NJTC",
        short: "NJTC",
        label: "Tree care business registration (NJTC)",
        // Printed as "NJTC" and digits; the count of digits is not published, so 3 to 7.
        pattern: /^[1-9]\d{2,6}$/,
        normalise: (raw) => digits(bare(raw, "NJ", "TC", "NJTC")),
        example: "849512",
        message: "New Jersey registration numbers are NJTC followed by 3 to 7 digits, e.g. NJTC 849512",
      },
      {
        key: "LTE",
        short: "LTE",
        label: "Licensed Tree Expert (LTE)",
        pattern: /^[1-9]\d{0,4}$/,
        normalise: (raw) => digits(bare(raw, "NJ", "LTE")),
        example: "100",
        message: "New Jersey LTE numbers are 1 to 5 digits, e.g. 100",
      },
      {
        key: "LTCO",
        short: "LTCO",
        label: "Licensed Tree Care Operator (LTCO)",
        pattern: /^[1-9]\d{0,4}$/,
        normalise: (raw) => digits(bare(raw, "NJ", "LTCO")),
        example: "1001",
        message: "New Jersey LTCO numbers are 1 to 5 digits, e.g. 1001",
      },
    ],
  },
  {
    // https://www.ldaf.la.gov/ (Louisiana Horticulture Commission, La. R.S. 3:3801 et seq.)
    code: "LA",
    name: "Louisiana",
    authority: "Louisiana Horticulture Commission",
    requires:
      "Tree work for pay (trimming, removal, surgery) needs an arborist license from the Horticulture Commission.",
    advertising: "Only a licensed arborist may advertise arborist services; show the license number.",
    lookupUrl: "https://www.ldaf.la.gov/plants/horticulture-commission",
    types: [
      {
        key: "ARB",
        short: "Arborist",
        label: "Arborist license",
        // Format not published: the Commission's numbers are plain digits; 1 to 6 accepted.
        pattern: /^[1-9]\d{0,5}$/,
        normalise: (raw) => digits(bare(raw, "LA", "ARB")),
        example: "2345",
        message: "Louisiana arborist license numbers are 1 to 6 digits, e.g. 2345",
      },
    ],
  },
  {
    // https://portal.ct.gov/deep/pesticides/arborist/commercial-arborist-license (Conn. Gen. Stat. 23-61b)
    code: "CT",
    name: "Connecticut",
    authority: "Connecticut DEEP Pesticide Management Program",
    requires:
      "No one may advertise, solicit or contract to do arboriculture without an arborist license (category 3D).",
    advertising: "Advertising tree work itself requires the license; show the arborist license number.",
    lookupUrl: "https://www.elicense.ct.gov/Lookup/LicenseLookup.aspx",
    types: [
      {
        key: "ARB",
        short: "Arborist",
        label: "Arborist license",
        // Supervisory certificates print as "S-" and digits; a bare number gets the "S-".
        pattern: /^S-[1-9]\d{0,5}$/,
        normalise: (raw) => {
          const s = bare(raw, "CT", "ARB");
          const n = /^S-?(\d+)$/.exec(s)?.[1] ?? (/^\d+$/.test(s) ? s : null);
          return n === null ? s : `S-${digits(n)}`;
        },
        example: "S-4478",
        message: "Connecticut arborist license numbers are S- followed by 1 to 6 digits, e.g. S-4478",
      },
    ],
  },
  {
    // https://www.cslb.ca.gov/About_Us/Library/Licensing_Classifications/C-49_-_Tree_Service.aspx
    code: "CA",
    name: "California",
    authority: "California Contractors State License Board (CSLB)",
    requires:
      "Tree jobs of $1,000 or more (labor and materials) need a CSLB license, classification C-49 Tree and Palm (formerly D-49).",
    advertising: "Advertisements for work over the minor-work limit show the CSLB license number.",
    lookupUrl: "https://www.cslb.ca.gov/OnlineServices/CheckLicenseII/CheckLicense.aspx",
    types: [
      {
        key: "C-49",
        short: "C-49",
        label: "C-49 Tree and Palm contractor",
        // CSLB numbers are all digits: six for older licences, seven for recent ones.
        pattern: /^[1-9]\d{5,6}$/,
        normalise: (raw) => digits(bare(raw, "CA", "CSLB", "C-49", "C49")),
        example: "1012345",
        message: "California CSLB license numbers are 6 or 7 digits, e.g. 1012345",
      },
    ],
  },
];

/** The type key for a licence from a state that is not in LICENSING_STATES. */
export const OTHER_LICENCE = "OTHER";
const OTHER_TYPE: LicenceType = {
  key: OTHER_LICENCE,
  short: "State or local",
  label: "State or local license",
  pattern: /^[A-Z0-9](?:[A-Z0-9 ./-]{0,38}[A-Z0-9])?$/,
  normalise: (raw) => raw.trim().toUpperCase().replace(/\s+/g, " ").replace(/^#\s*/, ""),
  example: "TX-12345",
  message: "Please enter the license number as printed: letters, digits, spaces, dots, slashes and dashes",
};

/** Every US state (and DC) by code, for the form's state list. */
export const US_STATES: Readonly<Record<string, string>> = {
  AL: "Alabama", AK: "Alaska", AZ: "Arizona", AR: "Arkansas", CA: "California", CO: "Colorado", CT: "Connecticut",
  DE: "Delaware", DC: "District of Columbia", FL: "Florida", GA: "Georgia", HI: "Hawaii", ID: "Idaho",
  IL: "Illinois", IN: "Indiana", IA: "Iowa", KS: "Kansas", KY: "Kentucky", LA: "Louisiana", ME: "Maine",
  MD: "Maryland", MA: "Massachusetts", MI: "Michigan", MN: "Minnesota", MS: "Mississippi", MO: "Missouri",
  MT: "Montana", NE: "Nebraska", NV: "Nevada", NH: "New Hampshire", NJ: "New Jersey", NM: "New Mexico",
  NY: "New York", NC: "North Carolina", ND: "North Dakota", OH: "Ohio", OK: "Oklahoma", OR: "Oregon",
  PA: "Pennsylvania", RI: "Rhode Island", SC: "South Carolina", SD: "South Dakota", TN: "Tennessee", TX: "Texas",
  UT: "Utah", VT: "Vermont", VA: "Virginia", WA: "Washington", WV: "West Virginia", WI: "Wisconsin", WY: "Wyoming",
}; // prettier-ignore

export const licensingState = (code: string): LicensingState | undefined =>
  LICENSING_STATES.find((s) => s.code === code);

/** The licence types an owner may choose for `state`: the state's own, or a free-form one. */
export function licenceTypesFor(state: string): readonly LicenceType[] {
  return licensingState(state)?.types ?? [OTHER_TYPE];
}

export function licenceType(state: string, key: string): LicenceType | undefined {
  return licenceTypesFor(state).find((t) => t.key === key);
}

/** What the form says for a state without a licence for tree work. */
export const noStateLicence = (state: string) =>
  `No state license for tree work in ${US_STATES[state] ?? state}; add a certification instead, or a local license number.`;

/** Checks a number for a state and type: the stored form, or the field message. */
export function checkLicenceNumber(
  state: string,
  typeKey: string,
  raw: string,
): { ok: true; number: string } | { ok: false; message: string } {
  const type = licenceType(state, typeKey);
  if (!type) return { ok: false, message: CREDENTIAL_MESSAGES.type };
  const number = type.normalise(raw);
  return type.pattern.test(number) ? { ok: true, number } : { ok: false, message: type.message };
}

// ---------------------------------------------------------------------------------------
// Dates and money

/** "YYYY-MM-DD" at `now` in the business's time zone. */
export const todayIn = (now: number, timeZone: string = DEFAULT_TIME_ZONE) => localTime(now, timeZone).date;

/** "Nov 28, 2026" for an ISO date or date-time, read in `timeZone`. */
export function formatCredentialDate(iso: string, timeZone: string = DEFAULT_TIME_ZONE): string {
  // A bare date is a calendar day: read it at noon UTC so no zone moves it to another day.
  const date = /^\d{4}-\d{2}-\d{2}$/.test(iso) ? new Date(`${iso}T12:00:00Z`) : new Date(iso);
  return date.toLocaleDateString("en-US", {
    year: "numeric",
    month: "short",
    day: "numeric",
    timeZone: /^\d{4}-\d{2}-\d{2}$/.test(iso) ? "UTC" : timeZone,
  });
}

/** 1000000 -> "$1,000,000". */
/** Cover in whole dollars, "$1,000,000": the site's one dollar format. */
export const formatUsd = formatDollars;

/** "$1,000,000", "1000000", "$2M", "1.5 million" -> whole dollars; null when it is not an amount. */
export function parseCoverUsd(raw: string): number | null {
  const s = raw
    .trim()
    .toLowerCase()
    .replace(/[$,\s]/g, "")
    .replace(/usd$/, "");
  const m = /^(\d+(?:\.\d+)?)(m|million|k)?$/.exec(s);
  if (!m) return null;
  const n = Number(m[1]) * (m[2] === "k" ? 1_000 : m[2] ? 1_000_000 : 1);
  return Number.isFinite(n) && Number.isInteger(n) ? n : null;
}

// ---------------------------------------------------------------------------------------
// The owner's form

export const CREDENTIAL_MESSAGES = {
  state: "Please choose the state that issued the license",
  type: "Please choose a license type for that state",
  number: "Please enter the license number",
  carrier: "Please enter the insurance company's name",
  cover: "Please enter the cover in dollars, e.g. $1,000,000",
  coverRange: "Cover must be between $1 and $1,000,000,000",
  expiresOn: "Please enter the last day of cover",
  expired: "That date has passed: enter the expiry of your current policy",
  tooLong: "This is too long",
} as const;

const field = (max: number) => cleanString().trim().max(max, CREDENTIAL_MESSAGES.tooLong).default("");

/**
 * The owner's form at /owner/credentials, as posted (every field text; blank = not stated).
 * A licence is all three licence fields or none; insurance all three insurance fields or
 * none. `today` is the business's date, so an expiry already past is refused.
 */
export function credentialsInput(today: string) {
  return z
    .object({
      /** Issuing state, two letters (blank with type and number blank = no licence). */
      licenceState: field(2),
      /** A type key of that state (LICENSING_STATES), or OTHER_LICENCE elsewhere. */
      licenceType: field(40),
      /** The number as the owner typed it; stored normalised. */
      licenceNumber: field(60),
      /** Insurer's name (blank with cover and expiry blank = no insurance). */
      insuranceCarrier: field(120),
      /** General liability cover per occurrence, e.g. "$1,000,000", "1000000" or "$2M". */
      insuranceCover: field(40),
      /** Last day of cover, "YYYY-MM-DD"; not already past. */
      insuranceExpiresOn: field(10),
    })
    .transform((v, ctx) => {
      const issue = (path: string, message: string) => ctx.addIssue({ code: "custom", path: [path], message });
      let licence: Pick<Licence, "state" | "type" | "number"> | null = null;
      if (v.licenceState || v.licenceType || v.licenceNumber) {
        const state = v.licenceState.toUpperCase();
        if (!US_STATES[state]) issue("licenceState", CREDENTIAL_MESSAGES.state);
        else if (!licenceType(state, v.licenceType)) issue("licenceType", CREDENTIAL_MESSAGES.type);
        else if (!v.licenceNumber) issue("licenceNumber", CREDENTIAL_MESSAGES.number);
        else {
          const checked = checkLicenceNumber(state, v.licenceType, v.licenceNumber);
          if (checked.ok) licence = { state, type: v.licenceType, number: checked.number };
          else issue("licenceNumber", checked.message);
        }
      }
      let insurance: Pick<Insurance, "carrier" | "coverUsd" | "expiresOn"> | null = null;
      if (v.insuranceCarrier || v.insuranceCover || v.insuranceExpiresOn) {
        const cover = parseCoverUsd(v.insuranceCover);
        const date = z.iso.date().safeParse(v.insuranceExpiresOn);
        const before = ctx.issues.length;
        if (!v.insuranceCarrier) issue("insuranceCarrier", CREDENTIAL_MESSAGES.carrier);
        if (cover === null) issue("insuranceCover", CREDENTIAL_MESSAGES.cover);
        else if (cover < 1 || cover > 1_000_000_000) issue("insuranceCover", CREDENTIAL_MESSAGES.coverRange);
        if (!date.success) issue("insuranceExpiresOn", CREDENTIAL_MESSAGES.expiresOn);
        else if (date.data < today) issue("insuranceExpiresOn", CREDENTIAL_MESSAGES.expired);
        const ok = ctx.issues.length === before;
        if (ok && cover !== null)
          insurance = { carrier: v.insuranceCarrier, coverUsd: cover, expiresOn: v.insuranceExpiresOn };
      }
      return { licence, insurance };
    });
}
export type CredentialsInput = z.output<ReturnType<typeof credentialsInput>>;

const sameLicence = (a: Licence | undefined, b: CredentialsInput["licence"]) =>
  !!a && !!b && a.state === b.state && a.type === b.type && a.number === b.number;
const sameInsurance = (a: Insurance | undefined, b: CredentialsInput["insurance"]) =>
  !!a && !!b && a.carrier === b.carrier && a.coverUsd === b.coverUsd && a.expiresOn === b.expiresOn;

/**
 * The credentials after the owner's form: an unchanged licence (or insurance) keeps the
 * operator's check; any change to it drops the check. Undefined when nothing is stated.
 */
export function mergeCredentials(current: Credentials | undefined, input: CredentialsInput): Credentials | undefined {
  const licence = input.licence && (sameLicence(current?.licence, input.licence) ? current!.licence : input.licence);
  const insurance =
    input.insurance && (sameInsurance(current?.insurance, input.insurance) ? current!.insurance : input.insurance);
  if (!licence && !insurance) return undefined;
  return { ...(licence ? { licence } : {}), ...(insurance ? { insurance } : {}) };
}

/** Something stated and not checked yet: the business belongs in the operator's queue. */
export const needsCheck = (c: Credentials | undefined) =>
  (!!c?.licence && !c.licence.check) || (!!c?.insurance && !c.insurance.check);

// ---------------------------------------------------------------------------------------
// What the public sees

export interface CredentialBadges {
  /** e.g. "License MD LTE #1234, checked by Treeline on Nov 28, 2026". */
  licence?: string;
  /** e.g. "Insured: $1,000,000 general liability (Acme Mutual), checked by Treeline on Nov 28, 2026". */
  insurance?: string;
}

/** "MD LTE #1234" ("TX #ABC-1" for a licence from a state without one for tree work). */
export const licenceLine = (l: Pick<Licence, "state" | "type" | "number">) =>
  `${l.state}${l.type === OTHER_LICENCE ? "" : ` ${l.type}`} #${l.number}`;

/** An insurance policy still covers `today` (its last day included). */
const insuranceCurrent = (i: Pick<Insurance, "expiresOn">, today: string) => i.expiresOn >= today;

/**
 * The public badges: a licence only once the operator has checked it; insurance only once
 * checked and while `today` (the business's date, `todayIn`) is not past its expiry.
 */
export function badgesOf(
  credentials: Credentials | undefined,
  today: string,
  timeZone: string = DEFAULT_TIME_ZONE,
): CredentialBadges {
  const out: CredentialBadges = {};
  const l = credentials?.licence;
  if (l?.check)
    out.licence = `License ${licenceLine(l)}, checked by Treeline on ${formatCredentialDate(l.check.checkedAt, timeZone)}`;
  const i = credentials?.insurance;
  if (i?.check && insuranceCurrent(i, today)) {
    out.insurance = `Insured: ${formatUsd(i.coverUsd)} general liability (${i.carrier}), checked by Treeline on ${formatCredentialDate(i.check.checkedAt, timeZone)}`;
  }
  return out;
}

/**
 * What a public API answer carries: only checked credentials, without the operator's note
 * (an unchecked statement is no public claim). The business page draws its badges from the
 * full record with `badgesOf`; the JSON answers go through this.
 */
export function withPublicCredentials<T extends { credentials?: Credentials }>(business: T): T {
  if (!business.credentials) return business;
  const { credentials, ...rest } = business;
  const { licence, insurance } = credentials;
  const shown: Credentials = {
    ...(licence?.check ? { licence: { ...licence, check: { checkedAt: licence.check.checkedAt } } } : {}),
    ...(insurance?.check ? { insurance: { ...insurance, check: { checkedAt: insurance.check.checkedAt } } } : {}),
  };
  return (shown.licence || shown.insurance ? { ...rest, credentials: shown } : rest) as T;
}

/**
 * When the operator checked a credential, for /admin: the date the public badge and the owner's
 * page show (the business's own day) with the time and the zone, e.g. "Nov 27, 2026, 10:24 PM
 * PST", so it does not silently contradict the admin's other times, which are the operator's.
 */
export function formatCheckedAt(iso: string, timeZone: string = DEFAULT_TIME_ZONE): string {
  return new Date(iso).toLocaleString("en-US", {
    year: "numeric",
    month: "short",
    day: "numeric",
    hour: "numeric",
    minute: "2-digit",
    timeZone,
    timeZoneName: "short",
  });
}

/**
 * One credential's status. The owner's words say whether it is on their public page; the
 * operator's give the check's time and zone (`formatCheckedAt`). Every date is the business's.
 */
export function credentialStatus(
  c: Licence | Insurance,
  today: string,
  timeZone: string = DEFAULT_TIME_ZONE,
  audience: "owner" | "operator" = "owner",
): { state: "waiting" | "checked" | "expired"; text: string } {
  const owner = audience === "owner";
  if ("expiresOn" in c && !insuranceCurrent(c, today)) {
    const text = `Expired on ${formatCredentialDate(c.expiresOn)}`;
    return { state: "expired", text: owner ? `${text}: not on your page` : text };
  }
  if (!c.check)
    return {
      state: "waiting",
      text: owner ? "Not on your page until Treeline checks it" : "Waiting for Treeline's check",
    };
  return {
    state: "checked",
    text: owner
      ? `On your page: checked on ${formatCredentialDate(c.check.checkedAt, timeZone)}`
      : `Checked on ${formatCheckedAt(c.check.checkedAt, timeZone)} (the business's time)`,
  };
}

/** The licence type as the form's option shows it: "CA · C-49" (the full names are in the state rules). */
export const licenceOptionLabel = (state: string, type: Pick<LicenceType, "short">) => `${state} · ${type.short}`;

/**
 * The operator's older free text (`licenseNumber`, `insuranceDetails`): the business's own
 * words, checked by nobody. A kind the business now states in the structured form (checked or
 * not) never shows its old text: the owner replaced it, and the two must not sit side by side.
 */
export function statedText(b: { licenseNumber?: string; insuranceDetails?: string; credentials?: Credentials }): {
  licence?: string;
  insurance?: string;
} {
  return {
    ...(b.licenseNumber && !b.credentials?.licence ? { licence: b.licenseNumber } : {}),
    ...(b.insuranceDetails && !b.credentials?.insurance ? { insurance: b.insuranceDetails } : {}),
  };
}

/** The labels of the old free text, on the public page and the owner's. */
export const STATED_LABELS = {
  heading: "As stated by the business",
  licence: "License",
  insurance: "Insurance",
} as const;

/** A credential's part in a sentence ("license checked", "Check insurance"); the data keeps its key. */
export const CREDENTIAL_PART_WORDS = { licence: "license", insurance: "insurance" } as const;

/** How /owner/credentials introduces the operator's old free text. */
export const OLD_TEXT_LEAD = "As stated on your page:";
/** Why the old text is there and how it goes. */
export const oldTextNote = (kind: string) =>
  `Not checked by Treeline. Saving your ${kind} below replaces this text on your page.`;
/** The checkbox that takes the old text off the page without stating anything in its place. */
export const removeOldTextLabel = (kind: string) => `Take the old ${kind} text off my page`;

/** The full name of a licence, e.g. "Maryland Licensed Tree Expert (LTE)". */
export function licenceName(l: Pick<Licence, "state" | "type">): string {
  const state = licensingState(l.state);
  const type = licenceType(l.state, l.type);
  return `${state?.name ?? US_STATES[l.state] ?? l.state} ${type?.label ?? l.type}`;
}

// ---------------------------------------------------------------------------------------
// The operator's queue (/api/admin/credentials, the Credentials tab in /admin)

/** What the operator decides about one credential. */
export const CredentialDecision = z.enum(["checked", "rejected"]);
export type CredentialDecision = z.infer<typeof CredentialDecision>;

/** PATCH /api/admin/credentials/:businessId. */
export const CredentialsPatch = z
  .object({
    /** "checked": the number is on the state's register; "rejected": it is not (the licence is removed). */
    licence: CredentialDecision.optional(),
    /** "checked": the certificate matches; "rejected": it does not (the insurance is removed). */
    insurance: CredentialDecision.optional(),
    /** What was looked at, or why it was rejected (kept with the check and in the change history). */
    note: cleanString().trim().max(200, CREDENTIAL_MESSAGES.tooLong).optional(),
    /**
     * The credentials as the operator saw them (`credentialFingerprint`): a decision about a
     * licence the owner has changed since is refused (409), never applied to the new number.
     */
    seen: z
      .object({
        /** The licence's fingerprint when the operator looked. */
        licence: z.string().max(300).optional(),
        /** The insurance's fingerprint when the operator looked. */
        insurance: z.string().max(300).optional(),
      })
      .optional(),
  })
  .refine((p) => p.licence !== undefined || p.insurance !== undefined, {
    message: "Say what to do with the license or the insurance",
    path: ["licence"],
  });
export type CredentialsPatch = z.output<typeof CredentialsPatch>;

/** What a decision was made about: the credential's stated fields, in one string. */
export function credentialFingerprint(c: Licence | Insurance): string {
  return "expiresOn" in c ? `${c.carrier}|${c.coverUsd}|${c.expiresOn}` : `${c.state}|${c.type}|${c.number}`;
}

/** The 409 when the owner changed a credential while the operator was looking at it. */
export const CREDENTIAL_CHANGED = "The owner changed this since you loaded it. Refresh and look again.";

/** One business in the operator's credentials list. */
export interface AdminCredentialItem {
  businessId: string;
  name: string;
  slug: string;
  /** The business's own state. */
  state: string;
  timeZone?: string;
  credentials: Credentials;
  /** When it joined the queue (ms); null when nothing waits for a check. */
  waitingSince: number | null;
}

export interface AdminCredentialsReply {
  data: AdminCredentialItem[];
  /** Businesses waiting for a check. */
  pending: number;
}

/** The register the operator checks a licence in (the state's lookup page), if the state has one. */
export const lookupUrlOf = (state: string) => licensingState(state)?.lookupUrl;
