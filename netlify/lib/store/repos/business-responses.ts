/**
 * A business's response time (docs/directory.md, "Response time"): lead delivery records how
 * long the business took to answer each offer; the business hash keeps the median of the
 * latest samples and the answer count in one field, `rt`, so every read that loads a profile
 * gets the figure in the same HMGET.
 */
import type { Redis } from "@upstash/redis";
import { MIN_RESPONSE_SAMPLES, RESPONSE_SAMPLE_LIMIT } from "../../../../src/lib/response-time.ts";
import type { Business } from "../../../../src/lib/schemas/business.ts";
import { asNumber, asString } from "../decode.ts";
import type { Keys } from "../keys.ts";
import { RECORD_RESPONSE } from "../lua.ts";

/** A sample longer than this (a year of minutes) is stored as this: keeps Lua's numbers whole and short. */
export const MAX_RESPONSE_MINUTES = 525_600;

export type ResponseFigure = Pick<Business, "responseMinutes" | "responseCount">;

/** The Business fields for an `rt` value ("median count"); none before the first answer. */
export function responseFields(rt: unknown): ResponseFigure {
  const [median, count] = (asString(rt) ?? "").split(" ");
  const n = asNumber(count);
  if (n <= 0) return {};
  return n >= MIN_RESPONSE_SAMPLES ? { responseMinutes: asNumber(median), responseCount: n } : { responseCount: n };
}

/**
 * Records one answer: `minutes` of daytime between the offer and the answer (rounded to whole
 * minutes), answered at `at`. Null for an unknown business.
 */
export function responseRecorder(redis: Redis, keys: Keys) {
  const script = redis.createScript<unknown[]>(RECORD_RESPONSE);
  return async (
    businessId: string,
    minutes: number,
    at: Date = new Date(),
  ): Promise<{ responseMinutes?: number; responseCount: number } | null> => {
    if (!Number.isFinite(minutes) || minutes < 0) throw new RangeError(`response minutes must be >= 0, got ${minutes}`);
    if (!Number.isFinite(at.getTime())) throw new RangeError("the answer's time is not a valid date");
    const whole = Math.min(MAX_RESPONSE_MINUTES, Math.round(minutes));
    const reply = await script.exec(
      [keys.business(businessId), keys.responses(businessId)],
      [`${whole}:${at.getTime()}`, String(RESPONSE_SAMPLE_LIMIT)],
    );
    if (asString(reply[0]) === "missing") return null;
    const { responseMinutes, responseCount = 0 } = responseFields(`${asString(reply[1])} ${asString(reply[2])}`);
    return responseMinutes === undefined ? { responseCount } : { responseMinutes, responseCount };
  };
}
