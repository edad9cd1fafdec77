/**
 * The marketing pages as built: home, the four service pages and the emergency
 * page. Per page: the sections exist (headings, in the spec's order), a sample of the spec's
 * price and story figures is on the right page, every call-to-action trigger is a button with its
 * preselection, the structured data (FAQPage, BreadcrumbList) parses and matches what the
 * page shows, and the emergency call button arrives in the first 14.6 KB of gzip. The
 * dialogs opening, and the call button above the fold, are tests/e2e/leads.spec.ts.
 */
import { gunzipSync, gzipSync, constants as zlibConstants } from "node:zlib";
import { readFileSync } from "node:fs";
import { within } from "@testing-library/dom";
import { describe, expect, it } from "vitest";
import { BASE_RANGES } from "../../src/lib/estimate.ts";
import { SITE } from "../../src/lib/site.ts";
import { builtPage, distPath, jsonLd, textOf, type Queries } from "../helpers/dist.ts";

type JsonLd = ReturnType<typeof jsonLd>[number];
const ofType = (blocks: JsonLd[], type: string) => blocks.filter((b) => b["@type"] === type);

/** "$200-800" from the quote table, the way the pages format it. */
const range = ([min, max]: readonly [number, number]) =>
  `$${min.toLocaleString("en-US")}-${max.toLocaleString("en-US")}`;

function expectHeadings(scope: Queries, names: readonly (string | RegExp)[], level = 2) {
  for (const name of names) expect(scope.queryAllByRole("heading", { level, name }), String(name)).toHaveLength(1);
}

function expectFigures(el: Element, figures: readonly string[]) {
  const text = textOf(el);
  for (const figure of figures) expect(text, figure).toContain(figure);
}

/** The section a level-2 heading opens. */
function section(scope: Queries, name: string | RegExp): HTMLElement {
  const found = scope.getByRole("heading", { level: 2, name }).closest("section");
  expect(found, `section "${name}"`).not.toBeNull();
  return found as HTMLElement;
}

const h3s = (el: HTMLElement) => within(el).getAllByRole("heading", { level: 3 }).map(textOf);

/** The FAQ shows N native <details> and the page's one FAQPage block lists the same N questions. */
function expectFaq(route: string, count: number) {
  const { main, document } = builtPage(route);
  const summaries = [...main.querySelectorAll("details > summary")];
  expect(summaries).toHaveLength(count);
  const faqs = ofType(jsonLd(document), "FAQPage");
  expect(faqs).toHaveLength(1);
  const entities = faqs[0]!.mainEntity as {
    "@type": string;
    name: string;
    acceptedAnswer: { "@type": string; text: string };
  }[];
  expect(entities).toHaveLength(count);
  expect(entities.map((e) => e.name)).toEqual(summaries.map(textOf));
  for (const e of entities) {
    expect(e["@type"]).toBe("Question");
    expect(e.acceptedAnswer["@type"]).toBe("Answer");
    expect(e.acceptedAnswer.text.length).toBeGreaterThan(40);
  }
  // Native <details>, closed until a visitor opens one: no script involved.
  for (const summary of summaries) expect(summary.parentElement!.hasAttribute("open")).toBe(false);
}

function expectBreadcrumbs(route: string, name: string) {
  const lists = ofType(jsonLd(builtPage(route).document), "BreadcrumbList");
  expect(lists).toHaveLength(1);
  const items = lists[0]!.itemListElement as { position: number; name: string; item: string }[];
  expect(items.map((i) => i.name)).toEqual(["Home", "Services", name]);
  expect(items.map((i) => i.position)).toEqual([1, 2, 3]);
  expect(new URL(items[0]!.item).pathname).toBe("/");
  expect(new URL(items[2]!.item).pathname).toBe(route);
}

/** A dialog trigger: a real button that opens the page's prebuilt dialog with the platform's own command. */
function expectTrigger(button: HTMLElement, dialog: string, data: Record<string, string> = {}) {
  expect(button.tagName).toBe("BUTTON");
  expect(button.getAttribute("command")).toBe("show-modal");
  expect(button.getAttribute("commandfor")).toBe(dialog);
  expect(button.ownerDocument.querySelector(`dialog#${dialog}`), dialog).not.toBeNull();
  for (const [name, value] of Object.entries(data)) expect(button.getAttribute(`data-${name}`), name).toBe(value);
}

describe("home", () => {
  const { document, main, inMain } = builtPage("/");

  it("sections in the spec's order, with one h1", () => {
    expect(document.querySelectorAll("h1")).toHaveLength(1);
    const sections = [
      "Professional tree care, priced up front",
      "From quote to clean yard in four steps",
      "Grow your tree business in six phases",
      "From one truck to a $3.5M exit",
      "Serving homeowners in five states",
      "What customers and owners say",
      "Let AI run the office while you run the crews",
      "Get your tree work priced today",
    ];
    expectHeadings(inMain, sections);
    const headings = sections.map((name) => inMain.getByRole("heading", { level: 2, name }));
    for (let i = 1; i < headings.length; i++)
      expect(
        headings[i - 1]!.compareDocumentPosition(headings[i]!) & 4 /* FOLLOWING */,
        `${sections[i]} after ${sections[i - 1]}`,
      ).toBeTruthy();
  });

  it("three audience cards and four service cards with the quote table's ranges", () => {
    const audience = inMain.getAllByRole("list")[0]!;
    expect(within(audience).getAllByRole("heading", { level: 2 }).map(textOf)).toEqual([
      "Find Tree Service",
      "Grow Your Business",
      "Market Data",
    ]);
    for (const [label, href] of [
      ["Find Tree Service", "/find-a-tree-service"],
      ["Grow Your Business", "/business-growth"],
      ["Market Data", "/industry-analysis"],
    ])
      expect(inMain.getByRole("link", { name: label }).getAttribute("href")).toBe(href);

    const services = main.querySelector<HTMLElement>("#services")!;
    for (const [label, href] of [
      ["Tree Trimming", "/services/tree-trimming"],
      ["Tree Removal", "/services/tree-removal"],
      ["Stump Grinding", "/services/stump-grinding"],
      ["Emergency Service", "/services/emergency"],
    ])
      expect(within(services).getByRole("link", { name: label }).getAttribute("href")).toBe(href);
    expect(within(services).getAllByRole("heading", { level: 3 })).toHaveLength(4);
    expectFigures(services, [
      ...(["tree-trimming", "tree-removal", "stump-grinding", "emergency"] as const).map((k) => range(BASE_RANGES[k])),
      "$200-800",
      "$500-2,500",
      "$150-500",
    ]);
  });

  it("four process steps, six growth phases, the owner's story and five states of four cities", () => {
    const process = section(inMain, "From quote to clean yard in four steps");
    expect(within(process).getAllByRole("listitem")).toHaveLength(4);
    // In the spec's order (collections are not returned in file order: entries carry theirs).
    const steps = h3s(process);
    expect(steps).toHaveLength(4);
    for (const [i, step] of ["Request a Quote", "Schedule Service", "Expert Service", "Complete Cleanup"].entries())
      expect(steps[i]).toContain(step);

    const growth = section(inMain, "Grow your tree business in six phases");
    for (let n = 1; n <= 6; n++)
      expect(growth.querySelectorAll(`a[href="/business-growth/phase-${n}"]`)).toHaveLength(1);
    expectFigures(growth, [
      "500+",
      "500%",
      "18",
      "3-6 months",
      "$50K-100K revenue target",
      "$1M+ revenue target",
      "$3M-10M revenue",
      "1.75x revenue multiple",
    ]);

    expectFigures(section(inMain, "From one truck to a $3.5M exit"), ["$65K", "$2M", "$3.5M", "50%", "3-5x"]);

    const states = section(inMain, "Serving homeowners in five states");
    const names = h3s(states);
    expect(names).toHaveLength(5);
    for (const [i, state] of ["Texas", "Florida", "California", "New York", "Illinois"].entries()) {
      expect(names[i]).toMatch(new RegExp(`^${state}`));
      const card = within(states)
        .getByRole("heading", { level: 3, name: new RegExp(`^${state}`) })
        .closest("li")!;
      expect(within(card).getAllByRole("listitem"), state).toHaveLength(4);
    }
    expectFigures(states, ["Austin, TX", "Houston, TX", "Dallas, TX", "San Antonio, TX"]);
  });

  it("testimonials with star ratings, and an AI section whose dashboard is drawn, not an image", () => {
    const reviews = section(inMain, "What customers and owners say");
    expect(within(reviews).getAllByRole("img", { name: /out of 5 stars/ }).length).toBeGreaterThanOrEqual(3);
    const ai = section(inMain, "Let AI run the office while you run the crews");
    expect(h3s(ai)).toEqual([
      "AI Quoting",
      "Smart Scheduling and Routing",
      "Customer Communication",
      "Business Dashboard",
    ]);
    const dashboard = ai.querySelectorAll("figure");
    expect(dashboard).toHaveLength(1);
    expect(textOf(dashboard[0]!)).toContain("Treeline Business Dashboard");
    expect(dashboard[0]!.querySelectorAll("img, picture, canvas, script")).toHaveLength(0);
    expect(textOf(dashboard[0]!.querySelector("figcaption")!)).toContain("Sample dashboard");
    expect(
      within(ai)
        .getByRole("link", { name: /Explore AI Automation/ })
        .getAttribute("href"),
    ).toBe("/ai-automation");
  });

  it("CTA triggers: instant quote, audit, free estimate; phone and e-mail; Organization but no breadcrumbs", () => {
    expectTrigger(inMain.getByRole("button", { name: "Get Instant Quote" }), "quote-dialog");
    expectTrigger(inMain.getByRole("button", { name: "Free Growth & Valuation Audit" }), "audit-dialog");
    expectTrigger(inMain.getByRole("button", { name: "Get Free Estimate" }), "quote-dialog");
    expect(textOf(main.querySelector(`a[href="${SITE.phoneHref}"]`)!)).toContain(SITE.phone);
    expect(inMain.getByRole("link", { name: SITE.email }).getAttribute("href")).toBe(`mailto:${SITE.email}`);
    const blocks = jsonLd(document);
    expect(ofType(blocks, "Organization")).toHaveLength(1);
    expect(ofType(blocks, "BreadcrumbList")).toHaveLength(0);
  });
});

const SERVICE_PAGES = [
  {
    path: "/services/tree-trimming",
    title: "Tree Trimming",
    serviceType: "tree-trimming",
    typical: BASE_RANGES["tree-trimming"],
    figures: [
      "$200-800",
      "Under 20ft",
      "$200-400",
      "20-40ft",
      "$400-600",
      "40ft+",
      "$600-1,200",
      "2-4 hrs",
      "every 3-5 years",
      "every 2-3 years",
    ],
    faqs: 6,
  },
  {
    path: "/services/tree-removal",
    title: "Tree Removal",
    serviceType: "tree-removal",
    typical: BASE_RANGES["tree-removal"],
    figures: [
      "$500-2,500",
      "Up to 30ft",
      "$500-900",
      "30-60ft",
      "$900-1,500",
      "60ft+",
      "$1,500-4,000+",
      "4-8 hrs",
      "$2M liability insurance",
      "Within 2 hours",
    ],
    faqs: 6,
  },
  {
    path: "/services/tree-pruning",
    title: "Tree Pruning",
    // The quote form has no pruning service: its estimate buttons preselect trimming.
    serviceType: "tree-trimming",
    typical: [150, 600] as const,
    figures: [
      "$150-600 per tree",
      "Up to 25ft",
      "$150-300",
      "25-50ft",
      "$300-600",
      "50ft+",
      "$600-1,200+",
      "never remove more than 25% of the canopy per year",
      "3-5 year cycle",
    ],
    faqs: 6,
  },
  {
    path: "/services/stump-grinding",
    title: "Stump Grinding",
    serviceType: "stump-grinding",
    typical: BASE_RANGES["stump-grinding"],
    figures: [
      "$150-500 per stump",
      "6-12 inches below grade",
      "6-12 in",
      "$150-250",
      "12-24 in",
      "$250-400",
      "24-36 in",
      "$400-600",
      "36 in+",
      "$600+",
      "+$50-100",
      "+$75-150",
      "+$25-50",
      "10-20%",
      "35HP to 75HP",
    ],
    faqs: 6,
  },
] as const;

describe.each(SERVICE_PAGES)("$path", (service) => {
  const page = () => builtPage(service.path);

  it("sections, figures and pricing table", () => {
    const { document, main, inMain, screen } = page();
    expect(document.querySelectorAll("h1")).toHaveLength(1);
    expect(textOf(screen.getByRole("heading", { level: 1 }))).toBe(service.title);
    expectHeadings(inMain, [
      `How ${service.title.toLowerCase()} works`,
      `${service.title} Pricing`,
      "Frequently Asked Questions",
      `Ready to book ${service.title.toLowerCase()}?`,
      "Related Services",
    ]);
    const part = (id: string) => main.querySelector(`section[aria-labelledby="${id}"]`)!;
    expect(main.querySelector("#benefits-heading")).not.toBeNull();
    expect(part("benefits-heading").querySelectorAll("ul > li").length).toBeGreaterThanOrEqual(3);
    expect(part("process-heading").querySelectorAll("ol > li")).toHaveLength(4);
    expectFigures(main, [range(service.typical), ...service.figures]);
    // The price table is a real table with row headers.
    const tables = inMain.getAllByRole("table");
    expect(tables).toHaveLength(1);
    expect(within(tables[0]!).getAllByRole("rowheader").length).toBeGreaterThanOrEqual(3);
  });

  it("call and estimate triggers preselect the service", () => {
    const { inMain } = page();
    const data = { "service-type": service.serviceType };
    expectTrigger(inMain.getByRole("button", { name: "Get Free Estimate" }), "quote-dialog", data);
    expectTrigger(inMain.getByRole("button", { name: "Get Your Free Quote" }), "quote-dialog", data);
    expect(inMain.getByRole("link", { name: `Call ${SITE.phone}` }).getAttribute("href")).toBe(SITE.phoneHref);
  });

  it("FAQ and breadcrumb structured data", () => {
    expectFaq(service.path, service.faqs);
    expectBreadcrumbs(service.path, service.title);
  });

  it("related services link to other service pages", () => {
    const related = section(page().inMain, "Related Services");
    const hrefs = within(related)
      .getAllByRole("link")
      .map((a) => a.getAttribute("href"));
    expect(hrefs.length).toBeGreaterThanOrEqual(3);
    for (const href of hrefs) {
      expect(href).toMatch(/^\/services\/[a-z-]+$/);
      expect(href).not.toBe(service.path);
    }
    if (service.path === "/services/stump-grinding") expect(hrefs).toContain("/services/emergency");
  });
});

describe("/services/emergency", () => {
  const page = () => builtPage("/services/emergency");

  it("hero: 24/7 badge, call now with the number, Emergency Quote, trust badges", () => {
    const { document, inMain } = page();
    expect(document.querySelectorAll("h1")).toHaveLength(1);
    expect(inMain.getAllByText("Available 24/7").length).toBeGreaterThanOrEqual(1);
    expect(inMain.getByRole("link", { name: `Call Now: ${SITE.phone}` }).getAttribute("href")).toBe(SITE.phoneHref);
    const quotes = inMain.getAllByRole("button", { name: "Emergency Quote" });
    expect(quotes.length).toBeGreaterThanOrEqual(2);
    for (const trigger of quotes)
      expectTrigger(trigger, "quote-dialog", { "service-type": "emergency", urgency: "emergency" });
    expectFigures(inMain.getByRole("list", { name: "Why call us" }), [
      "24/7 response",
      "$2M insurance",
      "Licensed crews",
    ]);
  });

  it("sections, time bands, fleet, storm preparedness, figures", () => {
    const { main, inMain } = page();
    expectHeadings(inMain, [
      "When to Call",
      "Our Emergency Response Process",
      "Equipped for Any Emergency",
      "Storm Preparedness",
      "Tree emergency right now?",
      "Emergency Service FAQ",
      "Other Tree Services",
    ]);
    expect(h3s(section(inMain, "When to Call"))).toEqual([
      "Trees on structures",
      "Storm damage",
      "Power line hazards",
      "Blocked access",
      "Leaning trees",
      "Hanging branches",
    ]);
    const steps = section(inMain, "Our Emergency Response Process").querySelectorAll("ol > li");
    expect(steps).toHaveLength(4);
    for (const [i, band] of ["0-30 min", "30-60 min", "1-2 hours", "2-8 hours"].entries())
      expect(textOf(steps[i]!)).toContain(band);
    expectHeadings(
      within(section(inMain, "Equipped for Any Emergency")),
      [/Mobile response units/, /lighting/i, /Crane/],
      3,
    );
    expect(h3s(section(inMain, "Storm Preparedness"))).toEqual(["Pre-Storm", "During the Storm", "Post-Storm"]);
    expectFigures(main, ["Within 30 minutes", "Within 2 hours maximum", "365 days a year", "$2M", "+50%"]);
    const hotline = section(inMain, "Tree emergency right now?");
    expect(within(hotline).getByRole("link", { name: SITE.phone }).getAttribute("href")).toBe(SITE.phoneHref);
  });

  it("six FAQs with FAQPage data, breadcrumbs, links to the other services", () => {
    expectFaq("/services/emergency", 6);
    expectBreadcrumbs("/services/emergency", "Emergency Service");
    for (const href of ["/services/tree-removal", "/services/tree-trimming", "/services/stump-grinding"])
      expect(page().main.querySelectorAll(`a[href="${href}"]`), href).toHaveLength(1);
  });

  it("the call button with the number is inside the first 14.6 KB of the gzipped HTML", () => {
    // The link, found by the parser: one, a link, with the number.
    const links = page().document.querySelectorAll("[data-call-now]");
    expect(links).toHaveLength(1);
    expect(links[0]!.tagName).toBe("A");
    expect(textOf(links[0]!)).toContain(SITE.phone);
    // Its bytes in the file as served: from its opening tag to its closing one.
    const html = readFileSync(distPath("services/emergency.html"));
    const marker = html.indexOf("data-call-now");
    const start = html.lastIndexOf("<a", marker);
    const end = html.indexOf("</a>", marker) + 4;
    expect(html.subarray(start, end).toString()).toContain(SITE.phone);
    // The shortest prefix of the compressed stream that already decodes the whole link.
    const gz = gzipSync(html, { level: 6 });
    const decodes = (n: number) =>
      gunzipSync(gz.subarray(0, n), { finishFlush: zlibConstants.Z_SYNC_FLUSH }).length >= end;
    expect(decodes(14_600)).toBe(true);
  });
});
