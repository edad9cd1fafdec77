/**
 * The visitor's reference for a request, "TL-7KQ2-9F": six Crockford base-32 characters (no
 * I, L, O or U, so it reads back over the phone), about a billion of them. Not a secret:
 * the status link carries its own signature. The leads repository claims each one once.
 */
import { randomInt } from "node:crypto";

const ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";

export function newReference(): string {
  let chars = "";
  for (let i = 0; i < 6; i++) chars += ALPHABET[randomInt(ALPHABET.length)];
  return `TL-${chars.slice(0, 4)}-${chars.slice(4)}`;
}
