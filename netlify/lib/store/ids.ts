/**
 * Ids that sort by creation time: a fixed-width base-36 millisecond clock plus randomness,
 * so lexicographic order in a sorted set is age order and a cursor is just the last id.
 */
import { randomBytes } from "node:crypto";

export function timeId(kind: string, now = Date.now()): string {
  const clock = now.toString(36).padStart(9, "0");
  const random = BigInt(`0x${randomBytes(8).toString("hex")}`).toString(36).padStart(13, "0").slice(0, 10);
  return `${kind}_${clock}${random}`;
}

export const isTimeId = (kind: string, value: string) => new RegExp(`^${kind}_[0-9a-z]{19}$`).test(value);
