/**
 * One truth per fact, as built: every page of dist/ is read as a visitor reads it.
 * - A price range stated next to a service name is one the estimate table produces for that
 *   service (any urgency), a fact of src/lib/facts.ts (pruning per tree), or a row of that
 *   service page's own published price table.
 * - A page that states the emergency premium (+50%) also states what our estimate applies
 *   (the 1.8x multiplier's range), so the two figures never read as a contradiction.
 * - A service page whose estimate button opens another service (pruning: trimming) says how
 *   the job is quoted, with both ranges.
 * - Every page that tells the owner story tells the one story of OWNER_STORY.
 */
import { readFileSync, readdirSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { parse as parseYaml } from "yaml";
import { BASE_RANGES, URGENCY_MULTIPLIERS, estimate, formatRange, type ServiceType } from "../../src/lib/estimate.ts";
import { EMERGENCY_PRICING, OWNER_STORY, PRUNING, emergencyFigures } from "../../src/lib/facts.ts";
import { DIST, builtPage, textOf } from "../helpers/dist.ts";

const routes = readdirSync(DIST, { recursive: true, encoding: "utf8" })
  .filter((f) => f.endsWith(".html") && !f.startsWith("_"))
  .map((f) => (f === "index.html" ? "/" : `/${f.replace(/\.html$/, "")}`))
  .sort();

const mainText = (route: string) => textOf(builtPage(route).main).replace(/\s+/g, " ");

/** Services a page can name, the words that name them and the ranges each may be stated at. */
type Service = ServiceType | "tree-pruning";
const NAMES: readonly [RegExp, Service][] = [
  [/\bstumps?\b/gi, "stump-grinding"],
  [/\bpruning\b/gi, "tree-pruning"],
  [/\btrimming\b/gi, "tree-trimming"],
  [/\bremovals?\b/gi, "tree-removal"],
  [/\bemergency\b/gi, "emergency"],
];

/** The services named nearest before the range (within 90 characters) and just after it (40). */
function nearestServices(before: string, after: string): Service[] {
  let last: { at: number; service: Service } | undefined;
  let first: { at: number; service: Service } | undefined;
  for (const [re, service] of NAMES) {
    for (const m of before.matchAll(re)) if (!last || m.index > last.at) last = { at: m.index, service };
    for (const m of after.matchAll(re)) if (!first || m.index < first.at) first = { at: m.index, service };
  }
  return [last?.service, first?.service].filter((s): s is Service => s !== undefined);
}

const key = (min: number, max: number) => `${min}-${max}`;
const allowed = new Map<Service, Set<string>>();
const allow = (service: Service, min: number, max: number) => {
  const set = allowed.get(service) ?? new Set<string>();
  allowed.set(service, set.add(key(min, max)));
};
for (const service of Object.keys(BASE_RANGES) as ServiceType[])
  for (const urgency of Object.keys(URGENCY_MULTIPLIERS)) {
    const { min, max } = estimate(service, urgency);
    allow(service, min, max);
  }
allow("tree-pruning", ...PRUNING.perTree);
for (const urgency of Object.keys(URGENCY_MULTIPLIERS)) {
  const { min, max } = estimate(PRUNING.quotedAs, urgency);
  allow("tree-pruning", min, max);
}
// Each service page's own published table (size bands and add-ons).
const SERVICES_DIR = new URL("../../content/marketing/services/", import.meta.url);
const number = (s: string) => Number(s.replace(/,/g, ""));
for (const file of readdirSync(SERVICES_DIR)) {
  const slug = file.replace(/\.yaml$/, "") as Service;
  const data = parseYaml(readFileSync(new URL(file, SERVICES_DIR), "utf8")) as {
    pricing: { rows: { price: string }[]; addOns?: { price: string }[] };
  };
  for (const { price } of [...data.pricing.rows, ...(data.pricing.addOns ?? [])]) {
    const m = /\$([\d,]+)-([\d,]+)/.exec(price);
    if (m) allow(slug, number(m[1]!), number(m[2]!));
  }
}

/** "$200-800", "$200-$800", "$200 - $800", "$1,500-4,000+"; not "$100K-250K" nor pay "an hour". */
const RANGE = /\$(\d{1,3}(?:,\d{3})*)\s?[-–]\s?\$?(\d{1,3}(?:,\d{3})*)(?![\d,])(?![KkMm%])(?!\+? (?:an|per) hour)/g;

/** Ranges stated next to a service name that the table, the facts and the page's own table do not produce. */
function strayPrices(text: string, pageService?: Service): string[] {
  const stray: string[] = [];
  for (const m of text.matchAll(RANGE)) {
    const at = m.index;
    const before = text.slice(Math.max(0, at - 90), at);
    const after = text.slice(at + m[0].length, at + m[0].length + 40);
    const named = nearestServices(before, after);
    if (named.length === 0) continue;
    const k = key(number(m[1]!), number(m[2]!));
    // A service page's own price table counts too (its add-ons name other words: "grindings removal").
    if ([...named, pageService].some((s) => s && allowed.get(s)?.has(k))) continue;
    stray.push(`${m[0]} for ${named.join(" or ")}: "…${before}${m[0]}${after}…"`);
  }
  return stray;
}

const serviceOfPage = (route: string) => /^\/services\/(.+)$/.exec(route)?.[1] as Service | undefined;

describe("the facts, as every built page states them", () => {
  it("finds the pages", () => {
    expect(routes).toContain("/consumer-resources");
    expect(routes).toContain("/services/tree-pruning");
    expect(routes.length).toBeGreaterThan(25);
  });

  it("the guard catches a price the table does not produce", () => {
    expect(strayPrices("Tree pruning: $150-600 per tree.")).toEqual([]);
    expect(strayPrices("Emergency service from $540 - $2,160.")).toEqual([]);
    expect(strayPrices("Emergency removal from $540 - $2,160.")).toHaveLength(1);
    expect(strayPrices("Tree trimming costs $250-$900.")).toHaveLength(1);
    expect(strayPrices("Emergency service: $450 - $1,800.")).toHaveLength(1);
    // The contradiction found on the home page: a testimonial quoting an estimate the table never gives.
    expect(strayPrices("Emergency Service. The instant estimate said $400-600 for our two pecans")).toHaveLength(1);
  });

  it.each(routes)("%s states only prices the table or the facts produce", (route) => {
    expect(strayPrices(mainText(route), serviceOfPage(route))).toEqual([]);
  });

  it("every page that states the emergency premium also says what the 1.8x estimate applies to", () => {
    const e = emergencyFigures();
    const premium = /(\+?\d+%)[^.]{0,60}\bpremium\b|\bpremium\b[^.]{0,40}?(\+?\d+%)/gi;
    /** Percentages stated as a premium in a sentence about emergency or after-hours work. */
    const premiums = (text: string) =>
      text
        .split(/(?<=[.!?])\s/)
        .filter((sentence) => /emergenc|after-hours/i.test(sentence))
        .flatMap((sentence) => [...sentence.matchAll(premium)].map((m) => (m[1] ?? m[2])!.replace("+", "")));
    let pages = 0;
    for (const route of routes) {
      const text = mainText(route);
      const stated = premiums(text);
      if (stated.length === 0) continue;
      pages += 1;
      for (const p of stated) expect(p, route).toBe(`${EMERGENCY_PRICING.premiumPercent}%`);
      // Articles advise owners on pricing their own work; our pages state our estimate beside it.
      if (route.startsWith("/blog")) continue;
      expect(text, `${route} states the premium without our estimate`).toContain(e.quoted);
      expect(text, route).toContain(e.multiplier);
    }
    expect(pages).toBeGreaterThanOrEqual(2); // /consumer-resources and /services/emergency
  });

  it("a service page quoted as another service says so, with both prices", () => {
    const page = builtPage("/services/tree-pruning");
    const note = page.document.querySelector("[data-estimate-note]");
    expect(note).not.toBeNull();
    const text = textOf(note!);
    expect(text).toContain(formatRange(...BASE_RANGES[PRUNING.quotedAs]));
    expect(text).toContain(formatRange(...PRUNING.perTree, "compact"));
    expect(text).toMatch(/quotes pruning as tree trimming/);
  });

  it("every page that tells the owner story tells the same one", () => {
    const s = OWNER_STORY;
    const tellers = routes.filter((r) => mainText(r).includes(s.startRevenue));
    expect(tellers).toEqual(expect.arrayContaining(["/", "/business-growth", "/business-growth/phase-6"]));
    for (const route of tellers) {
      const text = mainText(route);
      expect(text, route).toContain(s.revenue);
      // A page that tells the story (not a link's one-line teaser) names its owner and its years.
      if (!route.startsWith("/blog"))
        for (const figure of [s.owner, s.revenueYear, s.exit]) expect(text, `${route}: ${figure}`).toContain(figure);
      expect(text, route).not.toMatch(/\b(?:two|three|four|\d) years later\b/i);
      for (const m of text.matchAll(/\$(\d+(?:\.\d+)?M) (?:exit|sale)\b/g)) expect(`$${m[1]}`, route).toBe(s.exit);
    }
  });
});
