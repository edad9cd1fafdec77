/**
 * A lead POST's JSON reply as the islands read it: where the request stands (`offers`,
 * OfferSummary in src/lib/received.ts) and the businesses it went to (`matches`), each
 * checked, since the browser renders them. The server builds both from the lead itself
 * (offerSummary in netlify/lib/delivery/routing.ts), so the pages and e-mails say the same.
 */
import type { StormNotice } from "./storm.ts";
import { NO_MATCH_REASONS } from "./lead-routing.ts";
import type { OfferSummary, ReceivedMatch } from "./received.ts";

const TO_OPERATOR = new Set<string>(NO_MATCH_REASONS);

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
    ...(o.kept === true ? { kept: true } : {}),
    ...(o.held === true ? { held: true } : {}),
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
        ...(m.isSample === true ? { isSample: true as const } : {}),
        ...(m.takingStormJobs === true ? { takingStormJobs: true as const } : {}),
      },
    ];
  });
}

/** A quote reply's storm line (`storm.text`, src/lib/storm.ts stormPricing), or undefined outside a declared storm. */
export function readStormLine(reply: unknown): string | undefined {
  const text = record(record(reply).storm).text;
  return typeof text === "string" && text ? text.slice(0, 1000) : undefined;
}

/**
 * A storm notice (src/lib/storm.ts StormNotice) as a reply or a stored lead carries it, or
 * undefined when there is none or it is not whole. Read field by field: this module stays light.
 */
export function readStormNotice(value: unknown): StormNotice | undefined {
  const n = record(value);
  const rule = record(n.rule);
  const text = (v: unknown) => typeof v === "string" && v.length > 0 && v.length <= 2000;
  if (!text(n.id) || !text(n.name) || !text(n.declaration)) return undefined;
  if (typeof rule.state !== "string" || !text(rule.citation) || !text(rule.rule)) return undefined;
  const max = rule.maxIncreasePercent;
  return {
    id: n.id as string,
    name: n.name as string,
    declaration: n.declaration as string,
    ...(typeof n.declarationUrl === "string" && /^https?:\/\//.test(n.declarationUrl)
      ? { declarationUrl: n.declarationUrl }
      : {}),
    rule: {
      state: rule.state,
      citation: rule.citation as string,
      rule: rule.rule as string,
      maxIncreasePercent: typeof max === "number" ? max : null,
    },
  };
}
