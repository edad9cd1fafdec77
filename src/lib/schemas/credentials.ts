/**
 * A business's credentials as the store keeps them: the license the owner states and the
 * insurance they carry, each with the operator's check. Nothing here is a public claim until
 * the operator has checked it (src/lib/credentials/badges.ts turns these into badges). Shared by the
 * browser and the functions: imports nothing node-only.
 */
import { z } from "../zod.ts";
import { cleanString } from "./text.ts";

const isoDate = z.iso.date();
const isoDateTime = z.iso.datetime({ offset: true });

/** The operator's check of one credential: who looked and when (absent = not checked yet). */
export const CredentialCheck = z.object({
  /** When the operator checked it (ISO). */
  checkedAt: isoDateTime,
  /** A short note of what was checked, e.g. "MD DNR LTE register" (operator only). */
  note: cleanString().trim().max(200).optional(),
});
export type CredentialCheck = z.infer<typeof CredentialCheck>;

/** A license to do (or advertise) tree work, as the owner states it. */
export const Licence = z.object({
  /** Issuing state, two letters. */
  state: z.string().regex(/^[A-Z]{2}$/),
  /** The state's license type key (src/lib/credentials/states.ts), e.g. "LTE" in Maryland. */
  type: z.string().min(1).max(40),
  /** The number as the state prints it, normalized by the state's format. */
  number: cleanString().trim().min(1).max(60),
  /** Set by the operator only; cleared whenever the owner changes the license. */
  check: CredentialCheck.optional(),
});
export type Licence = z.infer<typeof Licence>;

/** General liability insurance, as the owner states it. */
export const Insurance = z.object({
  /** Insurer's name. */
  carrier: cleanString().trim().min(1).max(120),
  /** Cover per occurrence in whole US dollars. */
  coverUsd: z.number().int().min(1).max(1_000_000_000),
  /** Last day of cover, "YYYY-MM-DD"; the badge goes by itself after it. */
  expiresOn: isoDate,
  /** Set by the operator only; cleared whenever the owner changes the insurance. */
  check: CredentialCheck.optional(),
});
export type Insurance = z.infer<typeof Insurance>;

export const Credentials = z.object({
  /** The license, when the owner has stated one. */
  licence: Licence.optional(),
  /** The insurance, when the owner has stated it. */
  insurance: Insurance.optional(),
});
export type Credentials = z.infer<typeof Credentials>;
