/**
 * A business's response figures (docs/directory.md, "Response figures"): lead delivery records
 * how each offer ended for the business (answered, in time or late, with the daytime minutes it
 * took; or missed, the deadline passed), once per lead. The latest RESPONSE_WINDOW outcomes
 * are kept in a list; the business hash keeps what the figures need in one field, `rt`, so every
 * read that loads a profile gets them in the same HMGET.
 */
import type { Redis } from "@upstash/redis";
import { RESPONSE_WINDOW, figuresOf, type OfferOutcome } from "../../../../src/lib/response-time.ts";
import { asNumber, asString } from "../decode.ts";
import type { Keys } from "../keys.ts";
import { EXCLUDE_OUTCOME, RECORD_OUTCOME } from "../lua.ts";
import type { RecordedOutcome, ResponseFigure } from "./businesses.types.ts";

/** A sample longer than this (a year of minutes) is stored as this: keeps Lua's numbers whole and short. */
export const MAX_RESPONSE_MINUTES = 525_600;

/** A lead id as the outcomes list can hold it (its entries are "lead|outcome|minutes|at"). */
const LEAD_ID = /^[\w-]{1,64}$/;

/**
 * The Business fields for an `rt` value ("median count in-time offers answers"); none before the
 * first outcome. A value from before outcomes were kept ("median count") gives the count alone.
 */
export function responseFields(rt: unknown): ResponseFigure {
  const [median, count, inTime, offers, answers] = (asString(rt) ?? "").split(" ");
  const n = asNumber(count);
  return {
    ...figuresOf({
      offers: asNumber(offers),
      inTime: asNumber(inTime),
      answers: asNumber(answers),
      median: median === undefined || median === "-" ? undefined : asNumber(median, Number.NaN),
    }),
    ...(n > 0 ? { responseCount: n } : {}),
  };
}

/** The outcome's code in the list: answered in time, answered late, missed. */
const code = (o: OfferOutcome) => (o.answered ? (o.inTime ? "a" : "l") : "m");

/**
 * Records how the business's offer of lead `leadId` ended, at `at`: once per lead and business
 * (a repeat returns `recorded: false`). Null for an unknown business.
 */
export function outcomeRecorder(redis: Redis, keys: Keys) {
  const script = redis.createScript<unknown[]>(RECORD_OUTCOME);
  return async (
    businessId: string,
    leadId: string,
    outcome: OfferOutcome,
    at: Date = new Date(),
  ): Promise<RecordedOutcome | null> => {
    if (!LEAD_ID.test(leadId)) throw new RangeError(`not a lead id: ${JSON.stringify(leadId)}`);
    if (outcome.answered && (!Number.isFinite(outcome.minutes) || outcome.minutes < 0))
      throw new RangeError(`response minutes must be >= 0, got ${outcome.minutes}`);
    if (!Number.isFinite(at.getTime())) throw new RangeError("the outcome's time is not a valid date");
    const whole = outcome.answered ? Math.min(MAX_RESPONSE_MINUTES, Math.round(outcome.minutes)) : 0;
    const reply = await script.exec(
      [keys.business(businessId), keys.responses(businessId), keys.reportedLeads(businessId)],
      [leadId, code(outcome), String(whole), String(at.getTime()), String(RESPONSE_WINDOW)],
    );
    const status = asString(reply[0]);
    if (status === "missing") return null;
    return {
      recorded: status === "ok",
      before: responseFields(reply[1]),
      after: responseFields(reply[2]),
    };
  };
}

/**
 * Takes lead `leadId` out of the business's figures for good (the business reported it as a
 * bad lead): its kept outcome, if any, is dropped and no later one counts. Once per lead (a
 * repeat returns `recorded: false`). Null for an unknown business.
 */
export function outcomeExcluder(redis: Redis, keys: Keys) {
  const script = redis.createScript<unknown[]>(EXCLUDE_OUTCOME);
  return async (businessId: string, leadId: string): Promise<RecordedOutcome | null> => {
    if (!LEAD_ID.test(leadId)) throw new RangeError(`not a lead id: ${JSON.stringify(leadId)}`);
    const reply = await script.exec(
      [keys.business(businessId), keys.responses(businessId), keys.reportedLeads(businessId)],
      [leadId],
    );
    const status = asString(reply[0]);
    if (status === "missing") return null;
    return { recorded: status === "ok", before: responseFields(reply[1]), after: responseFields(reply[2]) };
  };
}
