/**
 * The operator's queue of credentials to check (/api/admin/credentials, the Credentials tab
 * in /admin): who is in it, what the operator decides, and what the list answer carries.
 */
import { z } from "../zod.ts";
import { cleanString } from "../schemas/text.ts";
import type { Credentials, Insurance, Licence } from "../schemas/credentials.ts";
import { CREDENTIAL_MESSAGES } from "./messages.ts";

/** Something stated and not checked yet: the business belongs in the operator's queue. */
export const needsCheck = (c: Credentials | undefined) =>
  (!!c?.licence && !c.licence.check) || (!!c?.insurance && !c.insurance.check);

/** A credential's part in a sentence ("license checked", "Check insurance"); the data keeps its key. */
export const CREDENTIAL_PART_WORDS = { licence: "license", insurance: "insurance" } as const;

/** What the operator decides about one credential. */
export const CredentialDecision = z.enum(["checked", "rejected"]);
export type CredentialDecision = z.infer<typeof CredentialDecision>;

/** PATCH /api/admin/credentials/:businessId. */
export const CredentialsPatch = z
  .object({
    /** "checked": the number is on the state's register; "rejected": it is not (the license is removed). */
    licence: CredentialDecision.optional(),
    /** "checked": the certificate matches; "rejected": it does not (the insurance is removed). */
    insurance: CredentialDecision.optional(),
    /** What was looked at, or why it was rejected (kept with the check and in the change history). */
    note: cleanString().trim().max(200, CREDENTIAL_MESSAGES.tooLong).optional(),
    /**
     * The credentials as the operator saw them (`credentialFingerprint`): a decision about a
     * license the owner has changed since is refused (409), never applied to the new number.
     */
    seen: z
      .object({
        /** The license's fingerprint when the operator looked. */
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
