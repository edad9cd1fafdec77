/**
 * What the state tables (states.ts) say about one license: the types a state offers, whether
 * a number is written the state's way, and how the license is named on the pages.
 */
import type { Licence } from "../schemas/credentials.ts";
import { CREDENTIAL_MESSAGES } from "./messages.ts";
import {
  LICENSING_STATES,
  OTHER_LICENCE,
  OTHER_LICENCE_TYPE,
  US_STATES,
  type LicenceType,
  type LicensingState,
} from "./states.ts";

export const licensingState = (code: string): LicensingState | undefined =>
  LICENSING_STATES.find((s) => s.code === code);

/** The license types an owner may choose for `state`: the state's own, or a free-form one. */
export function licenceTypesFor(state: string): readonly LicenceType[] {
  return licensingState(state)?.types ?? [OTHER_LICENCE_TYPE];
}

export function licenceType(state: string, key: string): LicenceType | undefined {
  return licenceTypesFor(state).find((t) => t.key === key);
}

/** What the form says for a state without a license for tree work. */
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
  const number = type.normalize(raw);
  return type.pattern.test(number) ? { ok: true, number } : { ok: false, message: type.message };
}

/** "MD LTE #1234" ("TX #ABC-1" for a license from a state without one for tree work). */
export const licenceLine = (l: Pick<Licence, "state" | "type" | "number">) =>
  `${l.state}${l.type === OTHER_LICENCE ? "" : ` ${l.type}`} #${l.number}`;

/** The license type as the form's option shows it: "CA · C-49" (the full names are in the state rules). */
export const licenceOptionLabel = (state: string, type: Pick<LicenceType, "short">) => `${state} · ${type.short}`;

/** The full name of a license, e.g. "Maryland Licensed Tree Expert (LTE)". */
export function licenceName(l: Pick<Licence, "state" | "type">): string {
  const state = licensingState(l.state);
  const type = licenceType(l.state, l.type);
  return `${state?.name ?? US_STATES[l.state] ?? l.state} ${type?.label ?? l.type}`;
}

/** The register the operator checks a license in (the state's lookup page), if the state has one. */
export const lookupUrlOf = (state: string) => licensingState(state)?.lookupUrl;
