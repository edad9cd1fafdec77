/**
 * Where a routed request stands when it is stored (OfferSummary, src/lib/received.ts), read
 * two ways: from a lead POST's JSON reply in the browser (checked, since the islands render
 * it), and from the stored lead itself for the pages and e-mails that say the same thing
 * later (the no-JS confirmation, the receipt e-mail). Client-safe.
 */
import type { Lead } from "./schemas/lead.ts";
import type { OfferSummary, ReceivedMatch } from "./received.ts";
import { jobTimeZone } from "./zone-time.ts";

const TO_OPERATOR = new Set(["no-place", "no-pros"]);

const record = (v: unknown): Record<string, unknown> =>
  v && typeof v === "object" && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
const isCount = (v: unknown): v is number => typeof v === "number" && Number.isInteger(v) && v >= 0;
const isIso = (v: unknown): v is string => typeof v === "string" && !Number.isNaN(Date.parse(v));

/** A zone the browser can format in, or undefined (a reply is not trusted to name one). */
function knownZone(v: unknown): string | undefined {
  if (typeof v !== "string" || v.length > 64) return undefined;
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: v });
    return v;
  } catch {
    return undefined;
  }
}

/** The reply's `offers`, checked; undefined when absent or not the shape (an older server). */
export function readOffers(reply: unknown): OfferSummary | undefined {
  const o = record(record(reply).offers);
  const timeZone = knownZone(o.timeZone);
  if (!isCount(o.offered) || typeof o.aroundTheClock !== "boolean" || !timeZone) return undefined;
  return {
    offered: o.offered,
    near: typeof o.near === "string" && o.near.trim() ? o.near.trim().slice(0, 60) : null,
    aroundTheClock: o.aroundTheClock,
    timeZone,
    ...(isCount(o.answerMinutes) && o.answerMinutes > 0 ? { answerMinutes: o.answerMinutes } : {}),
    ...(isIso(o.answerBy) ? { answerBy: o.answerBy } : {}),
    ...(typeof o.toOperator === "string" && TO_OPERATOR.has(o.toOperator)
      ? { toOperator: o.toOperator as NonNullable<OfferSummary["toOperator"]> }
      : {}),
  };
}

/** The reply's `matches` (a quote's or find-pros'), each checked; a bad entry is left out. */
export function readMatches(reply: unknown): ReceivedMatch[] {
  const list = record(reply).matches;
  if (!Array.isArray(list)) return [];
  return list.flatMap((item): ReceivedMatch[] => {
    const m = record(item);
    if (typeof m.name !== "string" || typeof m.slug !== "string" || !m.slug) return [];
    return [
      {
        name: m.name,
        slug: m.slug,
        phone: typeof m.phone === "string" && m.phone ? m.phone : null,
        rating: typeof m.rating === "number" || typeof m.rating === "string" ? String(m.rating) : "0",
        reviewCount: isCount(m.reviewCount) ? m.reviewCount : 0,
        distanceMiles: typeof m.distanceMiles === "number" && m.distanceMiles >= 0 ? m.distanceMiles : 0,
      },
    ];
  });
}

const ZIP = /\b(\d{5})(?:-\d{4})?\b/g;
const CITY_STATE = /([A-Za-z][A-Za-z .'-]*?),\s*([A-Z]{2})\b/;

/** "33131", "Miami, FL": the place a request names (a ZIP first, else a "City, ST"), or null. */
export function placeOf(text: string): string | null {
  const zips = [...text.matchAll(ZIP)];
  if (zips.length > 0) return zips.at(-1)![1]!;
  const city = CITY_STATE.exec(text);
  if (city) return `${city[1]!.trim()}, ${city[2]}`;
  return null;
}

/** The place a stored lead's job is at, as its own form gave it. */
function leadPlace(lead: Lead): string | null {
  const data = record(lead.data);
  const text = (key: string) => (typeof data[key] === "string" ? (data[key] as string) : "");
  if (lead.type === "find-pros") return text("location").trim().slice(0, 60) || null;
  if (lead.type === "quote") return placeOf(text("address"));
  if (lead.type === "booking") return placeOf(text("propertyAddress"));
  return null;
}

/**
 * A stored lead's summary as its reply gave it: the first round of offers (made together
 * when the lead was stored), or why it went to the operator at once. Undefined for a lead
 * that was never routed (a growth request, or one stored before routing).
 */
export function offerSummaryOf(lead: Lead): OfferSummary | undefined {
  const routing = lead.routing;
  if (!routing) return undefined;
  const base = {
    near: leadPlace(lead),
    aroundTheClock: lead.urgency === "emergency",
    timeZone: jobTimeZone(lead),
  };
  const first = routing.deliveries[0];
  if (!first) {
    const reason = routing.events.find((e) => e.kind === "escalated")?.reason;
    return {
      ...base,
      offered: 0,
      ...(reason && TO_OPERATOR.has(reason) ? { toOperator: reason as NonNullable<OfferSummary["toOperator"]> } : {}),
    };
  }
  const round = routing.deliveries.filter((d) => d.offeredAt === first.offeredAt);
  const answerBy = round.map((d) => d.deadlineAt).sort((a, b) => Date.parse(a) - Date.parse(b))[0]!;
  return {
    ...base,
    offered: round.length,
    answerBy,
    ...(base.aroundTheClock
      ? { answerMinutes: Math.round((Date.parse(answerBy) - Date.parse(first.offeredAt)) / 60_000) }
      : {}),
  };
}
