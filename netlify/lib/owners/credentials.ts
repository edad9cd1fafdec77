/**
 * GET/POST /owner/credentials: the owner states their licence and insurance. A plain HTML form
 * (no JavaScript needed): one state list, one licence-type list grouped by state, and each
 * licensing state's rules in a closed <details> beside it, so the owner finds what their state
 * asks for without a second page. Saving goes through applyListingChange (history, purge); a
 * structured licence or insurance replaces the operator's old free text of that kind; a changed
 * licence or insurance loses the operator's check and the business joins the operator's
 * queue (keys.credentialsPending) until it is checked.
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
import { escapeHtml } from "../../../src/lib/forms/markup.ts";
import { VALIDATION_ERROR, fieldErrors, type FieldErrors } from "../../../src/lib/schemas/forms.ts";
import type { Business } from "../../../src/lib/schemas/business.ts";
import { netlifyPurge, type Purge } from "../directory.ts";
import { KB, storeCall, type Endpoint, type EndpointDeps } from "../http.ts";
import { applyListingChange } from "./changes.ts";
import { ownerEndpoint, ownerHtml, ownerPage, seeOwnerPage } from "./page.ts";

export const CREDENTIALS_PATH = "/owner/credentials";
/** The change history's line for an owner's save. */
export const CREDENTIALS_SUMMARY = "Licence and insurance";

/** The notices a save may come back with (only these are shown from ?saved=). */
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
function status(business: Business, today: string, timeZone?: string): string {
  const { licence, insurance } = business.credentials ?? {};
  const old = statedText(business);
  const row = (label: string, what: string, note: { state: string; text: string } | null) =>
    `<li><strong>${escapeHtml(label)}:</strong> ${escapeHtml(what)}` +
    (note ? `<br><span data-status="${note.state}">${escapeHtml(note.text)}</span>` : "") +
    `</li>`;
  const oldRow = (label: string, text: string, kind: string) =>
    row(label, `${OLD_TEXT_LEAD} ${text}`, { state: "old", text: oldTextNote(kind) });
  return (
    `<h2>What you have stated</h2><ul class="credential-status">` +
    (licence
      ? row(
          STATED_LABELS.licence,
          `${licenceLine(licence)}, ${licenceName(licence)}`,
          credentialStatus(licence, today, timeZone),
        )
      : old.licence
        ? oldRow(STATED_LABELS.licence, old.licence, "licence")
        : row(STATED_LABELS.licence, "none stated", null)) +
    (insurance
      ? row(
          STATED_LABELS.insurance,
          `${formatUsd(insurance.coverUsd)} general liability with ${insurance.carrier}, until ${formatCredentialDate(insurance.expiresOn)}`,
          credentialStatus(insurance, today, timeZone),
        )
      : old.insurance
        ? oldRow(STATED_LABELS.insurance, old.insurance, "insurance")
        : row(STATED_LABELS.insurance, "none stated", null)) +
    `</ul><p class="hint">A badge shows on your public page only once Treeline has checked it; insurance badges go by themselves after the last day of cover. Any change sends it back for a check.</p>`
  );
}

function form(
  values: Values,
  errors: FieldErrors,
  today: string,
  old: { licence?: string; insurance?: string },
): string {
  const v = (name: keyof Values) => escapeHtml(values[name] ?? "");
  const invalid = (name: keyof Values) => (errors[name] ? ` aria-invalid="true" aria-describedby="${name}-error"` : "");
  const error = (name: keyof Values) =>
    errors[name] ? `<p class="field-error" id="${name}-error">${escapeHtml(errors[name])}</p>` : "";
  // The operator's old free text can go without anything stated in its place.
  const removeOld = (name: "removeOldLicence" | "removeOldInsurance", kind: string, text: string | undefined) =>
    text
      ? `<label class="check"><input type="checkbox" name="${name}" value="1"${values[name] ? " checked" : ""}> ${escapeHtml(removeOldTextLabel(kind))}</label>`
      : "";
  const option = (value: string, label: string, selected: boolean) =>
    `<option value="${escapeHtml(value)}"${selected ? " selected" : ""}>${escapeHtml(label)}</option>`;

  const state = (values.licenceState ?? "").toUpperCase();
  const licensing = new Set(LICENSING_STATES.map((s) => s.code));
  const states =
    option("", "No licence", !state) +
    `<optgroup label="States that license tree work">${LICENSING_STATES.map((s) => option(s.code, s.name, s.code === state)).join("")}</optgroup>` +
    `<optgroup label="Other states">${Object.entries(US_STATES)
      .filter(([code]) => !licensing.has(code))
      .map(([code, name]) => option(code, name, code === state))
      .join("")}</optgroup>`;
  // One list for every state's types: the state chosen above decides which are valid.
  const type = values.licenceType ?? "";
  const types =
    option("", "Choose the licence type", !type) +
    LICENSING_STATES.map(
      (s) =>
        `<optgroup label="${escapeHtml(s.name)}">${s.types.map((t) => option(t.key, licenceOptionLabel(s.code, t), t.key === type && s.code === state)).join("")}</optgroup>`,
    ).join("") +
    `<optgroup label="Other states">${option(OTHER_LICENCE, "State or local licence", type === OTHER_LICENCE)}</optgroup>`;
  const rules =
    `<dl class="state-rules">` +
    LICENSING_STATES.map(
      (s) =>
        `<dt>${escapeHtml(s.name)} (${escapeHtml(s.authority)})</dt><dd>${escapeHtml(s.requires)} ${escapeHtml(s.advertising)} ` +
        s.types.map((t) => `${escapeHtml(t.label)}: e.g. ${escapeHtml(t.example)}.`).join(" ") +
        `</dd>`,
    ).join("") +
    `<dt>Other states</dt><dd>No state licence for tree work: add a certification instead (ISA, for example, in your description), or a local licence number as "State or local licence".</dd></dl>`;

  return (
    `<form class="owner-form" method="post" action="${CREDENTIALS_PATH}" novalidate>` +
    `<fieldset><legend>Licence</legend>` +
    `<label>Issuing state<select name="licenceState"${invalid("licenceState")}>${states}</select></label>${error("licenceState")}` +
    `<label>Licence type<select name="licenceType"${invalid("licenceType")}>${types}</select></label>${error("licenceType")}` +
    `<label>Licence number<input type="text" name="licenceNumber" maxlength="60" autocomplete="off" value="${v("licenceNumber")}"${invalid("licenceNumber")}><span class="hint">As the state prints it, e.g. 1234 for a Maryland LTE.</span></label>${error("licenceNumber")}` +
    // Closed: open, the rules put a phone screen of text between the licence and insurance fields.
    `<details><summary>What each state requires</summary>${rules}</details>` +
    `<p class="hint">Leave the three licence fields empty to remove your licence.</p>` +
    removeOld("removeOldLicence", "licence", old.licence) +
    `</fieldset>` +
    `<fieldset><legend>General liability insurance</legend>` +
    `<label>Insurance company<input type="text" name="insuranceCarrier" maxlength="120" value="${v("insuranceCarrier")}"${invalid("insuranceCarrier")}></label>${error("insuranceCarrier")}` +
    `<label>Cover per occurrence<input type="text" name="insuranceCover" maxlength="40" inputmode="decimal" value="${v("insuranceCover")}"${invalid("insuranceCover")}><span class="hint">In dollars, e.g. $1,000,000</span></label>${error("insuranceCover")}` +
    `<label>Last day of cover<input type="date" name="insuranceExpiresOn" min="${today}" value="${v("insuranceExpiresOn")}"${invalid("insuranceExpiresOn")}></label>${error("insuranceExpiresOn")}` +
    `<p class="hint">Leave the three insurance fields empty to remove it. Treeline may ask for your certificate of insurance.</p>` +
    removeOld("removeOldInsurance", "insurance", old.insurance) +
    `</fieldset>` +
    `<div><button type="submit" class="btn-primary">Save licence and insurance</button></div>` +
    `</form>`
  );
}

export interface OwnerCredentialsDeps extends EndpointDeps {
  purge?: Purge;
}

export function ownerCredentialsHandler(deps: OwnerCredentialsDeps = {}): Endpoint {
  const purge = deps.purge ?? netlifyPurge;
  return ownerEndpoint(
    {
      log: "[owner] credentials",
      methods: ["GET", "HEAD", "POST"],
      body: { urlencoded: 8 * KB },
      rateLimit: { name: "owner-credentials", perMinute: () => 30 },
    },
    deps,
    async (call, { business, session }) => {
      const { req, store, now, body } = call;
      const today = todayIn(now(), business.timeZone);
      const page = (values: Values, o: { errors?: FieldErrors; notice?: string; problem?: string } = {}) =>
        ownerPage({
          title: "Licence & insurance",
          business,
          active: CREDENTIALS_PATH,
          body: status(business, today, business.timeZone) + form(values, o.errors ?? {}, today, statedText(business)),
          notice: o.notice,
          problem: o.problem,
        });

      if (!body) {
        const saved = new URL(req.url).searchParams.get("saved");
        const notice = Object.values(CREDENTIALS_NOTICES).find((n) => n === saved);
        return ownerHtml(page(valuesOf(business), { notice }));
      }

      const values: Values = Object.fromEntries(
        [...body.value].filter((e): e is [string, string] => typeof e[1] === "string"),
      );
      const parsed = credentialsInput(today).safeParse(values);
      if (!parsed.success) {
        return ownerHtml(page(values, { errors: fieldErrors(parsed.error), problem: VALIDATION_ERROR }), 400);
      }
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
              // A structured licence (or insurance) replaces the operator's old free text for it.
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
      return seeOwnerPage(CREDENTIALS_PATH, notice);
    },
  );
}
