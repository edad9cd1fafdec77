/**
 * Storm mode, the shared truth (browser-safe: no dataset, no store): what a storm event is,
 * which places it covers, the states' price-gouging rules and what a visitor in the area reads.
 * The operator declares events in /admin (netlify/lib/store/repos/storms.ts keeps them); pages,
 * functions, the estimate and the assistant all read the rules and texts from here.
 */
import { formatDollars, type Estimate } from "./estimate.ts";
import { distanceMiles } from "./geo/distance.ts";
import {
  GENERAL_PRICE_RULE,
  PRICE_RULES,
  STORM_NOTICE,
  priceRuleFor,
  priceRuleLine,
  type PriceRule,
  type StormNotice,
} from "./storm-notice.ts";
import { z } from "./zod.ts";

export { GENERAL_PRICE_RULE, PRICE_RULES, STORM_NOTICE, priceRuleFor, priceRuleLine };
export type { PriceRule, StormNotice };

/** Two-letter US state code, upper case. */
const StateCode = z.string().regex(/^[A-Z]{2}$/, "Use two-letter state codes, e.g. FL");
/** A 5-digit US ZIP. */
const Zip = z.string().regex(/^\d{5}$/, "Use 5-digit ZIP codes, e.g. 33101");

/** The most a radius may reach (a hurricane's wind field is a few hundred miles across). */
export const MAX_STORM_RADIUS_MILES = 300;
/** ZIPs one event may list. */
export const MAX_STORM_ZIPS = 500;

/** The area an event covers: whole states, a list of ZIPs, or a circle around a place. */
export const StormArea = z.discriminatedUnion("kind", [
  z.object({
    kind: z.literal("states"),
    /** The states covered, e.g. ["FL"]. */
    states: z.array(StateCode).min(1, "Name at least one state").max(60),
  }),
  z.object({
    kind: z.literal("zips"),
    /** The ZIPs covered, e.g. ["33101", "33125"]. */
    zips: z.array(Zip).min(1, "Name at least one ZIP").max(MAX_STORM_ZIPS),
  }),
  z.object({
    kind: z.literal("radius"),
    /** How the center reads back, e.g. "Miami, FL 33101". */
    label: z.string().trim().min(1).max(120),
    /** The center's latitude (resolved from the place or ZIP when declared). */
    lat: z.number().min(-85).max(85),
    /** The center's longitude. */
    lng: z.number().min(-180).max(180),
    /** The center's state, the price rule's state for a place that names none. */
    state: StateCode.optional(),
    /** The radius in miles. */
    miles: z.number().positive("Give a radius above 0 miles").max(MAX_STORM_RADIUS_MILES),
  }),
]);
export type StormArea = z.infer<typeof StormArea>;

/** Who declared the emergency the event rests on. */
export const DECLARATION_LEVELS = [
  { value: "governor", label: "Governor (state of emergency)" },
  { value: "county", label: "County (local emergency)" },
  { value: "federal", label: "Federal (FEMA / presidential declaration)" },
] as const;
export const DeclarationLevel = z.enum(["governor", "county", "federal"]);
export type DeclarationLevel = z.infer<typeof DeclarationLevel>;

/** The declaration an event rests on. */
export const StormDeclaration = z.object({
  /** Governor, county or federal. */
  level: DeclarationLevel,
  /** Its reference, e.g. "Executive Order 24-208" or "FEMA-4834-DR". */
  reference: z.string().trim().min(2, "Give the declaration's reference").max(200),
  /** Where it is published, when known. */
  url: z
    .url({ protocol: /^https?$/ })
    .max(500)
    .optional(),
});
export type StormDeclaration = z.infer<typeof StormDeclaration>;

/** A storm the operator declared: while active, visitors in its area see the storm notice. */
export const StormEvent = z.object({
  /** "storm_" time id. */
  id: z.string().regex(/^storm_[0-9a-z]{19}$/),
  /** What people call it, e.g. "Hurricane Milton". */
  name: z.string().trim().min(2, "Name the storm").max(120),
  /** The area it covers. */
  area: StormArea,
  /** When it takes effect (ISO); usually the declaration's date. */
  startsAt: z.iso.datetime({ offset: true }),
  /** When it ends (ISO); absent while open-ended. */
  endsAt: z.iso.datetime({ offset: true }).optional(),
  /** The emergency declaration it rests on. */
  declaration: StormDeclaration,
  /** The NWS alert it was declared from, when the operator took a suggestion. */
  alertId: z.string().max(300).optional(),
  /** ISO, when the operator declared it. */
  createdAt: z.iso.datetime({ offset: true }),
  /** ISO, the last edit (ending it included). */
  updatedAt: z.iso.datetime({ offset: true }),
});
export type StormEvent = z.infer<typeof StormEvent>;

/** True while `now` (ms) is within the event's start and end. */
export function stormActive(event: StormEvent, now: number): boolean {
  if (Date.parse(event.startsAt) > now) return false;
  return event.endsAt === undefined || Date.parse(event.endsAt) > now;
}

/** A place to test: whatever is known of it (server code fills the state and point from the ZIP). */
export interface StormPlace {
  zip?: string;
  state?: string;
  lat?: number;
  lng?: number;
}

/** True when the area covers the place (a radius needs the place's point; ZIPs its ZIP). */
export function areaCovers(area: StormArea, place: StormPlace): boolean {
  switch (area.kind) {
    case "states":
      return !!place.state && area.states.includes(place.state.toUpperCase());
    case "zips": {
      const zip = place.zip?.trim().slice(0, 5);
      return !!zip && area.zips.includes(zip);
    }
    case "radius":
      if (typeof place.lat !== "number" || typeof place.lng !== "number") return false;
      return distanceMiles({ lat: area.lat, lng: area.lng }, { lat: place.lat, lng: place.lng }) <= area.miles;
  }
}

/**
 * The active storm covering `place` at `now` (ms), or null. With several, the one that started
 * last (the newest declaration is the one people are living through).
 */
export function stormAt(place: StormPlace, events: readonly StormEvent[], now: number): StormEvent | null {
  let found: StormEvent | null = null;
  for (const event of events) {
    if (!stormActive(event, now) || !areaCovers(event.area, place)) continue;
    if (!found || Date.parse(event.startsAt) > Date.parse(found.startsAt)) found = event;
  }
  return found;
}

/** The state whose rule applies to a place in an event: the place's own, else the area's. */
export function ruleStateOf(event: StormEvent, place: StormPlace): string | undefined {
  if (place.state) return place.state.toUpperCase();
  if (event.area.kind === "states" && event.area.states.length === 1) return event.area.states[0];
  if (event.area.kind === "radius") return event.area.state;
  return undefined;
}

/** How the declaration reads in the notice, e.g. "Declared by the governor: Executive Order 24-208". */
export function declarationLine(declaration: StormDeclaration): string {
  const by = { governor: "the governor", county: "the county", federal: "the federal government" }[declaration.level];
  return `Emergency declared by ${by}: ${declaration.reference}.`;
}

/** How the area reads in /admin and the notice, e.g. "12 ZIPs" or "50 miles around Miami, FL 33101". */
export function areaLine(area: StormArea): string {
  switch (area.kind) {
    case "states":
      return area.states.join(", ");
    case "zips":
      return area.zips.length <= 6 ? `ZIPs ${area.zips.join(", ")}` : `${area.zips.length} ZIPs`;
    case "radius":
      return `${area.miles} miles around ${area.label}`;
  }
}

/** What happened to a suggestion: waiting for the operator, declared as an event, or dismissed. */
export const SuggestionStatus = z.enum(["new", "declared", "dismissed"]);
export type SuggestionStatus = z.infer<typeof SuggestionStatus>;

/**
 * An NWS alert the scheduled check (netlify/functions/storm-alerts.mts) suggests to the
 * operator. Never shown to visitors: only a declared StormEvent is.
 */
export const StormSuggestion = z.object({
  /** The NWS alert's id (its URN or URL). */
  id: z.string().min(1).max(300),
  /** The alert's event, e.g. "Hurricane Warning". */
  event: z.string().max(200),
  /** The alert's headline, when it has one. */
  headline: z.string().max(500).optional(),
  /** The areas it names, as NWS writes them ("Miami-Dade; Broward"). */
  areaDesc: z.string().max(2000),
  /** The states it was found for (the ones the directory covers). */
  states: z.array(StateCode).min(1),
  /** NWS severity: Extreme, Severe, Moderate, Minor, Unknown. */
  severity: z.string().max(40),
  /** When the hazard starts (ISO), as the alert says (onset, else effective, else sent). */
  startsAt: z.iso.datetime({ offset: true }),
  /** When the alert ends (ISO; ends, else expires), when it says. */
  endsAt: z.iso.datetime({ offset: true }).optional(),
  /** ISO, when the check first stored it. */
  seenAt: z.iso.datetime({ offset: true }),
  /** Waiting, declared or dismissed. */
  status: SuggestionStatus,
  /** The event declared from it. */
  stormId: z.string().optional(),
});
export type StormSuggestion = z.infer<typeof StormSuggestion>;

/** The notice for a place inside `event`. */
export function stormNotice(event: StormEvent, place: StormPlace): StormNotice {
  return {
    id: event.id,
    name: event.name,
    declaration: declarationLine(event.declaration),
    ...(event.declaration.url ? { declarationUrl: event.declaration.url } : {}),
    rule: priceRuleFor(ruleStateOf(event, place)),
  };
}

/**
 * Seconds until an event starts or ends (the soonest after `now`), for a cached page that
 * shows or leaves out the notice: it must not outlive the change. Undefined when none is ahead.
 */
export function stormFreshFor(events: readonly StormEvent[], now: number): number | undefined {
  let first: number | undefined;
  for (const e of events) {
    for (const at of [Date.parse(e.startsAt), e.endsAt ? Date.parse(e.endsAt) : NaN]) {
      if (at > now && (first === undefined || at < first)) first = at;
    }
  }
  return first === undefined ? undefined : (first - now) / 1000;
}

/** What an estimate inside a declared area says besides its range. */
export interface StormPricing {
  /** The law, as cited. */
  citation: string;
  /** The rule, as the notice states it. */
  rule: string;
  /** The storm surcharge the estimate carries over its pre-storm figures, in percent: always 0. */
  surchargePercent: 0;
  /** The most the law lets a price rise over the pre-storm figure, where it names one. */
  maxIncreasePercent: number | null;
  /** The sentence the quote confirmation, the status page and the assistant say. */
  text: string;
}

/**
 * The storm line of an estimate (the pre-storm range `pre`, from estimate()). The site adds
 * no storm surcharge: the range stays the pre-storm one, which is within every state's rule,
 * and where the law names a figure the line says the most a pro may charge for that range.
 */
export function stormPricing(pre: Estimate, rule: PriceRule): StormPricing {
  const ceiling =
    rule.maxIncreasePercent === null
      ? ""
      : rule.maxIncreasePercent === 0
        ? " A pro may not charge more than before the declaration unless their own costs rose."
        : ` Applied to this range, no more than ${formatDollars(Math.floor((pre.max * (100 + rule.maxIncreasePercent)) / 100))} at its top (${rule.maxIncreasePercent}% over ${formatDollars(pre.max)}).`;
  return {
    citation: rule.citation,
    rule: rule.rule,
    surchargePercent: 0,
    maxIncreasePercent: rule.maxIncreasePercent,
    text: `Storm emergency declared here: this estimate is the pre-storm figure, with no storm surcharge. ${priceRuleLine(rule)}${ceiling}`,
  };
}

/** What the operator gives for the area; a radius names its center as a ZIP or "City, ST". */
export const StormAreaInput = z.discriminatedUnion("kind", [
  StormArea.options[0],
  StormArea.options[1],
  z.object({
    kind: z.literal("radius"),
    /** The center: a ZIP ("33101") or "City, ST", read by the directory's place lookup. */
    place: z.string().trim().min(2, "Give the center as a ZIP or City, ST").max(120),
    /** The radius in miles. */
    miles: z.coerce
      .number({ error: "Give the radius in miles" })
      .positive("Give a radius above 0 miles")
      .max(MAX_STORM_RADIUS_MILES, `At most ${MAX_STORM_RADIUS_MILES} miles`),
  }),
]);
export type StormAreaInput = z.infer<typeof StormAreaInput>;

/** POST /api/admin/storms (and a full edit, PATCH /api/admin/storms/:id): a storm as the operator declares it. */
export const StormInputSchema = z
  .object({
    /** What people call it. */
    name: StormEvent.shape.name,
    /** The area. */
    area: StormAreaInput,
    /** When it takes effect (ISO). */
    startsAt: z.iso.datetime({ offset: true, error: "Give the start date and time" }),
    /** When it ends (ISO); absent while open-ended. */
    endsAt: z.iso.datetime({ offset: true, error: "Give a valid end date and time" }).optional(),
    /** The declaration it rests on. */
    declaration: StormDeclaration,
    /** The NWS suggestion it is declared from (marked declared in the same step). */
    fromSuggestion: z.string().min(1).max(300).optional(),
  })
  .refine((s) => !s.endsAt || Date.parse(s.endsAt) > Date.parse(s.startsAt), {
    path: ["endsAt"],
    message: "The end must come after the start",
  });
export type StormInputSchema = z.infer<typeof StormInputSchema>;

/** PATCH /api/admin/storms/:id: a full edit, or `{ end: true }` to end it now. */
export const StormPatch = z.union([z.object({ /** End it now. */ end: z.literal(true) }).strict(), StormInputSchema]);
export type StormPatch = z.infer<typeof StormPatch>;

/** GET /api/admin/storms. */
export interface AdminStormsReply {
  /** Every event, latest start first. */
  storms: StormEvent[];
  /** NWS alerts suggested, latest start first (declared and dismissed ones too). */
  suggestions: StormSuggestion[];
  /** The last NWS check's time (ISO), outcome and why it failed, when one ran. */
  lastCheck?: { at: string; outcome: string; error?: string };
}

/** What the admin's storm calls answer besides the data. */
export const STORM_MESSAGES = {
  notFound: "That storm is not on record.",
  suggestionNotFound: "That suggestion is not on record.",
  unknownPlace: "We couldn't find that ZIP code or city",
  alreadyEnded: "That storm has already ended.",
} as const;
