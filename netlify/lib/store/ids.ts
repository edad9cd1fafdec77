/**
 * Ids that sort by creation time: a fixed-width base-36 millisecond clock plus randomness,
 * so lexicographic order in a sorted set is age order and a cursor is just the last id.
 *
 * Monotonic within a process (as ULIDs are): two ids made in the same millisecond (a lead
 * and its retry, a burst of reviews) would otherwise order by their random parts, and the
 * inbox would list the later one first or second by chance. So an id made in the same or
 * an earlier millisecond than the last one (a clock step back) reuses that clock and adds
 * one to its random part.
 */
import { randomBytes } from "node:crypto";

const RANDOM_WIDTH = 10;
const RANDOM_SPACE = 36n ** BigInt(RANDOM_WIDTH);
// Fresh random parts start in the lower half, so same-millisecond increments never overflow
// the width (about 2^50 of room; a process makes far fewer ids than that in a millisecond).
const RANDOM_START = RANDOM_SPACE / 2n;

let lastClock = -1;
let lastRandom = 0n;

export function timeId(kind: string, now = Date.now()): string {
  let random: bigint;
  if (now <= lastClock) {
    now = lastClock;
    random = lastRandom + 1n;
  } else {
    random = BigInt(`0x${randomBytes(8).toString("hex")}`) % RANDOM_START;
  }
  lastClock = now;
  lastRandom = random;
  return `${kind}_${now.toString(36).padStart(9, "0")}${random.toString(36).padStart(RANDOM_WIDTH, "0")}`;
}

export const isTimeId = (kind: string, value: string) => new RegExp(`^${kind}_[0-9a-z]{19}$`).test(value);
