/**
 * The owner's form at /owner/credentials: what it accepts, and how a save meets the
 * operator's earlier checks.
 */
import { z } from "../zod.ts";
import { cleanString } from "../schemas/text.ts";
import type { Credentials, Insurance, Licence } from "../schemas/credentials.ts";
import { parseCoverUsd } from "./format.ts";
import { CREDENTIAL_MESSAGES } from "./messages.ts";
import { checkLicenceNumber, licenceType } from "./state-rules.ts";
import { US_STATES } from "./states.ts";

const field = (max: number) => cleanString().trim().max(max, CREDENTIAL_MESSAGES.tooLong).default("");

/**
 * The owner's form at /owner/credentials, as posted (every field text; blank = not stated).
 * A license is all three license fields or none; insurance all three insurance fields or
 * none. `today` is the business's date, so an expiry already past is refused.
 */
export function credentialsInput(today: string) {
  return z
    .object({
      /** Issuing state, two letters (blank with type and number blank = no license). */
      licenceState: field(2),
      /** A type key of that state (LICENSING_STATES), or OTHER_LICENCE elsewhere. */
      licenceType: field(40),
      /** The number as the owner typed it; stored normalized. */
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
 * The credentials after the owner's form: an unchanged license (or insurance) keeps the
 * operator's check; any change to it drops the check. Undefined when nothing is stated.
 */
export function mergeCredentials(current: Credentials | undefined, input: CredentialsInput): Credentials | undefined {
  const licence = input.licence && (sameLicence(current?.licence, input.licence) ? current!.licence : input.licence);
  const insurance =
    input.insurance && (sameInsurance(current?.insurance, input.insurance) ? current!.insurance : input.insurance);
  if (!licence && !insurance) return undefined;
  return { ...(licence ? { licence } : {}), ...(insurance ? { insurance } : {}) };
}
