/**
 * /owner/credentials: the owner states their license and insurance. A plain HTML form (no
 * JavaScript needed; the page is src/pages/owner/credentials.astro): one state list, one
 * license-type list grouped by state, and each licensing state's rules in a closed <details>
 * beside it, so the owner finds what their state asks for without a second page. Saving goes
 * through applyListingChange (history, purge); a structured license or insurance replaces the
 * operator's old free text of that kind; a changed license or insurance loses the operator's
 * check and the business joins the operator's queue (keys.credentialsPending) until it is
 * checked. A refused post goes back to the page with its values and messages (422).
 */
import { credentialsInput, mergeCredentials } from "../../../src/lib/credentials/form.ts";
import { formatCredentialDate, formatUsd, todayIn } from "../../../src/lib/credentials/format.ts";
import {
  OLD_TEXT_LEAD,
  STATED_LABELS,
  removeOldTextLabel,
  statedText,
  oldTextNote,
} from "../../../src/lib/credentials/old-text.ts";
import { needsCheck } from "../../../src/lib/credentials/queue.ts";
import { licenceLine, licenceName, licenceOptionLabel } from "../../../src/lib/credentials/state-rules.ts";
import { LICENSING_STATES, OTHER_LICENCE, US_STATES } from "../../../src/lib/credentials/states.ts";
import { credentialStatus } from "../../../src/lib/credentials/status.ts";
import type { CredentialsView } from "../../../src/lib/owner-views.ts";
import { VALIDATION_ERROR, fieldErrors, type FieldErrors } from "../../../src/lib/schemas/forms.ts";
import type { Business } from "../../../src/lib/schemas/business.ts";
import { netlifyPurge, type Purge } from "../directory.ts";
import { KB, storeCall, type Endpoint, type EndpointDeps } from "../http.ts";
import { applyListingChange } from "./changes.ts";
import { INVALID_STATUS, backToPage, ownerEndpoint, postedValues, seeOwnerPage, type FlashValues } from "./page.ts";

export const CREDENTIALS_PATH = "/owner/credentials";
/** The change history's line for an owner's save. */
export const CREDENTIALS_SUMMARY = "License and insurance";

/** The notices a save comes back with. */
export const CREDENTIALS_NOTICES = {
  waiting: "Saved. Treeline will check it against the state's register before a badge shows on your page.",
  saved: "Saved. Your page shows it now.",
  unchanged: "Nothing changed.",
} as const;

type Values = Partial<
  Record<
    | "licenceState"
    | "licenceType"
    | "licenceNumber"
    | "insuranceCarrier"
    | "insuranceCover"
    | "insuranceExpiresOn"
    | "removeOldLicence"
    | "removeOldInsurance",
    string
  >
>;

/** The form's values for what the business states now. */
function valuesOf(business: Business): Values {
  const { licence, insurance } = business.credentials ?? {};
  return {
    licenceState: licence?.state ?? "",
    licenceType: licence?.type ?? "",
    licenceNumber: licence?.number ?? "",
    insuranceCarrier: insurance?.carrier ?? "",
    insuranceCover: insurance ? formatUsd(insurance.coverUsd) : "",
    insuranceExpiresOn: insurance?.expiresOn ?? "",
  };
}

/**
 * What the business states now and whether each is on the public page. The operator's old
 * free text shows for a kind the owner has not stated yet, as the page shows it (statedText),
 * so the owner sees what saving the form replaces.
 */
function status(business: Business, today: string, timeZone?: string): CredentialsView["status"] {
  const { licence, insurance } = business.credentials ?? {};
  const old = statedText(business);
  const oldRow = (label: string, text: string, kind: string) => ({
    label,
    what: `${OLD_TEXT_LEAD} ${text}`,
    note: { state: "old", text: oldTextNote(kind) },
  });
  return [
    licence
      ? {
          label: STATED_LABELS.licence,
          what: `${licenceLine(licence)}, ${licenceName(licence)}`,
          note: credentialStatus(licence, today, timeZone),
        }
      : old.licence
        ? oldRow(STATED_LABELS.licence, old.licence, "license")
        : { label: STATED_LABELS.licence, what: "none stated" },
    insurance
      ? {
          label: STATED_LABELS.insurance,
          what: `${formatUsd(insurance.coverUsd)} general liability with ${insurance.carrier}, until ${formatCredentialDate(insurance.expiresOn)}`,
          note: credentialStatus(insurance, today, timeZone),
        }
      : old.insurance
        ? oldRow(STATED_LABELS.insurance, old.insurance, "insurance")
        : { label: STATED_LABELS.insurance, what: "none stated" },
  ];
}

const option = (value: string, label: string, selected: boolean) => ({ value, label, selected });

/** The form: its lists (one state list, one license-type list grouped by state), rules and values. */
function form(
  values: Values,
  errors: FieldErrors,
  today: string,
  old: { licence?: string; insurance?: string },
): CredentialsView["form"] {
  const state = (values.licenceState ?? "").toUpperCase();
  const licensing = new Set(LICENSING_STATES.map((s) => s.code));
  // One list for every state's types: the state chosen above decides which are valid.
  const type = values.licenceType ?? "";
  return {
    action: CREDENTIALS_PATH,
    values,
    errors,
    today,
    states: [
      { options: [option("", "No license", !state)] },
      {
        label: "States that license tree work",
        options: LICENSING_STATES.map((s) => option(s.code, s.name, s.code === state)),
      },
      {
        label: "Other states",
        options: Object.entries(US_STATES)
          .filter(([code]) => !licensing.has(code))
          .map(([code, name]) => option(code, name, code === state)),
      },
    ],
    types: [
      { options: [option("", "Choose the license type", !type)] },
      ...LICENSING_STATES.map((s) => ({
        label: s.name,
        options: s.types.map((t) => option(t.key, licenceOptionLabel(s.code, t), t.key === type && s.code === state)),
      })),
      { label: "Other states", options: [option(OTHER_LICENCE, "State or local license", type === OTHER_LICENCE)] },
    ],
    rules: [
      ...LICENSING_STATES.map((s) => ({
        term: `${s.name} (${s.authority})`,
        text: [s.requires, s.advertising, ...s.types.map((t) => `${t.label}: e.g. ${t.example}.`)].join(" "),
      })),
      {
        term: "Other states",
        text: 'No state license for tree work: add a certification instead (ISA, for example, in your description), or a local license number as "State or local license".',
      },
    ],
    // The operator's old free text can go without anything stated in its place.
    removeOld: [
      ...(old.licence
        ? [{ name: "removeOldLicence", label: removeOldTextLabel("license"), checked: !!values.removeOldLicence }]
        : []),
      ...(old.insurance
        ? [{ name: "removeOldInsurance", label: removeOldTextLabel("insurance"), checked: !!values.removeOldInsurance }]
        : []),
    ],
  };
}

/** The page: what is stated, and the form as stored or as last posted (with its messages, from a flash). */
export function credentialsView(
  business: Business,
  now: number,
  flash: { values: FlashValues; errors: FieldErrors } | null,
): CredentialsView {
  const today = todayIn(now, business.timeZone);
  const values = flash ? textValues(flash.values) : valuesOf(business);
  return {
    status: status(business, today, business.timeZone),
    form: form(values, flash?.errors ?? {}, today, statedText(business)),
  };
}

/** The text fields of a form's values (a repeated name counts once, its first value). */
function textValues(values: FlashValues): Values {
  return Object.fromEntries(Object.entries(values).map(([k, v]) => [k, typeof v === "string" ? v : (v[0] ?? "")]));
}

export interface OwnerCredentialsDeps extends EndpointDeps {
  purge?: Purge;
}

export function ownerCredentialsHandler(deps: OwnerCredentialsDeps = {}): Endpoint {
  const purge = deps.purge ?? netlifyPurge;
  return ownerEndpoint(
    {
      log: "[owner] credentials",
      body: { urlencoded: 8 * KB },
      rateLimit: { name: "owner-credentials", perMinute: () => 30 },
    },
    deps,
    async (call, { business, session }) => {
      const { store, now } = call;
      const today = todayIn(now(), business.timeZone);
      const posted = postedValues(call.body!.value);
      const values = textValues(posted);
      const parsed = credentialsInput(today).safeParse(values);
      if (!parsed.success)
        return backToPage(store, {
          path: CREDENTIALS_PATH,
          status: INVALID_STATUS,
          values: posted,
          errors: fieldErrors(parsed.error),
          problem: VALIDATION_ERROR,
        });
      const next = mergeCredentials(business.credentials, parsed.data);
      const { business: saved, change } = await storeCall(
        () =>
          applyListingChange(
            store,
            {
              businessId: business.id,
              current: business,
              actor: { kind: "owner", email: session.email },
              summary: CREDENTIALS_SUMMARY,
              // A structured license (or insurance) replaces the operator's old free text for it.
              patch: {
                credentials: next ?? null,
                ...(parsed.data.licence || values.removeOldLicence ? { licenseNumber: null } : {}),
                ...(parsed.data.insurance || values.removeOldInsurance ? { insuranceDetails: null } : {}),
              },
            },
            now(),
            purge,
          ),
        { step: "save" },
      );
      console.info(`[owner] credentials of ${business.id}: ${change ? "changed" : "unchanged"}`);
      const notice = !change
        ? CREDENTIALS_NOTICES.unchanged
        : needsCheck(saved.credentials)
          ? CREDENTIALS_NOTICES.waiting
          : CREDENTIALS_NOTICES.saved;
      return seeOwnerPage(store, CREDENTIALS_PATH, notice);
    },
  );
}
