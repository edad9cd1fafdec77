/**
 * Growth and static content pages as built: the growth overview, the six phase
 * pages, market intelligence, AI automation, consumer resources, the software stack, the
 * legal pages and the placeholder pages. Per page: the sections the spec names (headings,
 * none skipped), a sample of the spec's price and story figures on the right page, every dialog
 * trigger with its preselection, the cross-links, timeline labels, accessible tables and the
 * BreadcrumbList JSON-LD.
 *
 * Expected figures are typed out from the spec here on purpose: the test checks the content
 * files against the spec, so it must not read them.
 */
import { within } from "@testing-library/dom";
import { describe, expect, it } from "vitest";
import { BASE_RANGES, formatRange } from "../../src/lib/estimate.ts";
import { GROWTH_PHASES } from "../../src/lib/options.ts";
import { SITE } from "../../src/lib/site.ts";
import { builtPage, jsonLd, textOf } from "../helpers/dist.ts";

function expectHeadings(route: string, headings: readonly string[]) {
  const { document, main } = builtPage(route);
  const found = [...main.querySelectorAll("h2")].map(textOf);
  for (const heading of headings) expect(found, `h2 "${heading}"`).toContain(heading);
  // One h1, and no heading level skipped inside main.
  expect(document.querySelectorAll("h1")).toHaveLength(1);
  const levels = [...main.querySelectorAll("h1, h2, h3, h4")].map((e) => Number(e.tagName[1]));
  for (let i = 1; i < levels.length; i++)
    expect(levels[i]! - levels[i - 1]!, `heading order ${levels.join(",")}`).toBeLessThanOrEqual(1);
}

function expectFigures(route: string, figures: readonly string[]) {
  const text = textOf(builtPage(route).main);
  for (const figure of figures) expect(text, `figure ${figure}`).toContain(figure);
}

const h1 = (route: string) => textOf(builtPage(route).document.querySelector("h1")!);
const texts = (els: Iterable<Element>) => [...els].map(textOf);

/** A trigger of a prebuilt dialog: a button with the platform's command, the dialog on the page. */
function expectTrigger(button: Element, dialog: string) {
  expect(button.tagName).toBe("BUTTON");
  expect(button.getAttribute("command")).toBe("show-modal");
  expect(button.getAttribute("commandfor")).toBe(dialog);
  expect(button.ownerDocument.querySelector(`dialog#${dialog}`), dialog).not.toBeNull();
}

describe("/business-growth", () => {
  const route = "/business-growth";

  it("audit triggers, six phase cards, results, supporting services, testimonials, CTA", () => {
    const { inMain, document } = builtPage(route);
    expect(h1(route)).toBe("Grow Your Tree Service Business");
    expectHeadings(route, [
      "The Six Phases of Growth",
      "Results Our Clients Achieve",
      "Supporting Services",
      "What Tree Service Owners Say",
      "Find out what your business is worth",
    ]);
    const audit = inMain.getAllByRole("button", { name: "Get Free Growth Audit" });
    expect(audit.length).toBeGreaterThanOrEqual(2);
    for (const trigger of audit) expectTrigger(trigger, "audit-dialog");

    const phases = document.querySelectorAll('section[aria-labelledby="phases-heading"] li');
    expect(phases).toHaveLength(6);
    for (let n = 1; n <= 6; n++) {
      const card = phases[n - 1]!;
      expect(
        within(card as HTMLElement)
          .getByRole("link")
          .getAttribute("href"),
      ).toBe(`/business-growth/phase-${n}`);
      expect(textOf(card)).toContain(GROWTH_PHASES[n - 1]!.label.replace(/^Phase \d+: /, ""));
    }

    expectFigures(route, [
      "500+",
      "Businesses scaled",
      "500%",
      "Average growth",
      "18 months",
      "To exit ready",
      "$65K to $2M",
      "By year two",
      "sold within 3 years",
      "$3.5M",
      "PE exit",
      "1.75x",
      "Revenue multiple",
      "50%",
      "Gross margin",
      "90%",
      "Admin reduction",
      "3-5x",
      "Valuation",
      "Free 30-minute audit, no obligation",
    ]);

    const support = document.querySelector('section[aria-labelledby="support-heading"]')!;
    for (const href of ["/automation", "/financial-services", "/business-growth/phase-5"])
      expect(support.querySelectorAll(`a[href="${href}"]`), href).toHaveLength(1);
    expect(document.querySelectorAll('section[aria-labelledby="testimonials-heading"] figure')).toHaveLength(2);
  });
});

interface PhaseExpectation {
  headings: string[];
  figures: string[];
  timeline: string[];
  prev: string;
  next: string;
  triggers: string[];
}

const PHASES: Record<number, PhaseExpectation> = {
  1: {
    headings: [
      "Foundation Components",
      "Phase 1 Timeline",
      "What You Walk Away With",
      "Success Metrics",
      "Investment and ROI",
      "Ready to go full-time?",
    ],
    figures: [
      "3-6 months",
      "$50K-100K",
      "$15K-25K",
      "30-50",
      "$500-$800",
      "25-35%",
      "4.8+",
      "70/20/10",
      "$5K-$10K",
      "2-3 months",
      "Refund Guarantee",
    ],
    timeline: ["Weeks 1-2", "Weeks 3-4", "Weeks 5-8", "Weeks 9-12"],
    prev: "/business-growth",
    next: "/business-growth/phase-2",
    triggers: ["Get Your Free Assessment", "Start Your Assessment"],
  },
  2: {
    headings: ["Marketing Channels", "Pricing Framework", "Phase 2 Timeline", "Phase 2 Metrics"],
    figures: [
      "3-6 months",
      "$100K-250K",
      "50-100",
      "35-45%",
      "$1,000-$1,500",
      "$600 to $1,200",
      "45% to 75%",
      "60/25/15",
    ],
    timeline: ["Month 1", "Month 2", "Month 3", "Months 4-6"],
    prev: "/business-growth/phase-1",
    next: "/business-growth/phase-3",
    triggers: ["Get Your Free Assessment", "Start Your Assessment"],
  },
  3: {
    headings: [
      "Automation Suite",
      "Before and After Automation",
      "Return on Investment",
      "Phase 3 Timeline",
      "Phase 3 Metrics",
    ],
    figures: [
      "6-12 months",
      "$500K-1M",
      "90%",
      "40+ hrs/week",
      "$120K+/yr",
      "5 hrs/week",
      "Under 1%",
      "95%+",
      "5x",
      "40/35/20/5",
    ],
    timeline: ["Months 1-2", "Months 3-4", "Months 5-8", "Months 9-12"],
    prev: "/business-growth/phase-2",
    next: "/business-growth/phase-4",
    triggers: ["Get Your Free Assessment", "Start Your Assessment"],
  },
  4: {
    headings: [
      "Financial Service Suite",
      "Profit Optimization Framework",
      "Key Performance Indicators",
      "Unprepared vs Prepared Business",
      "Phase 4 Timeline",
      "Phase 4 Outcomes",
    ],
    figures: [
      "6-12 months",
      "$1M+",
      "3-5x",
      "80%+",
      "40%+",
      "Automated Bookkeeping",
      "Fractional CFO",
      "Valuation Preparation",
    ],
    timeline: ["Month 1-2", "Month 3-4", "Month 5-8", "Month 9-12"],
    prev: "/business-growth/phase-3",
    next: "/business-growth/phase-5",
    triggers: ["Get Your Free Assessment", "Start Your Assessment"],
  },
  5: {
    headings: [
      "Expansion Service Suite",
      "Expansion Framework",
      "Sample Location Performance",
      "Phase 5 Timeline",
      "Phase 5 Outcomes",
    ],
    figures: ["12-24 months", "$3M-10M", "3-5", "Franchise-Ready Systems"],
    timeline: ["Q1", "Q2", "Q3-Q4", "Year 2"],
    prev: "/business-growth/phase-4",
    next: "/business-growth/phase-6",
    triggers: ["Get Your Free Assessment", "Start Your Assessment"],
  },
  6: {
    headings: [
      "Success story: from $65K to $2M, then a $3.5M sale",
      "Exit Services",
      "Why Our Clients Earn Premium Valuations",
      "From an Owner Who Sold",
      "Ready to sell at a premium?",
    ],
    figures: ["1.75x", "$3.5M", "90 days", "95%", "15+", "$65K", "$2M"],
    timeline: [],
    prev: "/business-growth/phase-5",
    next: "/business-growth",
    triggers: ["Start Exit Preparation", "Get Exit Valuation"],
  },
};

describe.each(Object.entries(PHASES))("/business-growth/phase-%s", (n, want) => {
  const phase = `phase-${n}`;
  const route = `/business-growth/${phase}`;

  it("sections, figures, assessment triggers, timeline, cross-links, breadcrumbs", () => {
    const { document, main, inMain, screen } = builtPage(route);
    expect(h1(route)).toBe(GROWTH_PHASES[Number(n) - 1]!.label);
    expectHeadings(route, want.headings);
    expectFigures(route, want.figures);

    // Every dialog trigger in the page body opens this phase's assessment.
    const triggers = main.querySelectorAll("[commandfor]");
    expect(triggers.length).toBeGreaterThanOrEqual(2);
    for (const trigger of triggers) {
      expectTrigger(trigger, "assessment-dialog");
      expect(trigger.getAttribute("data-phase")).toBe(phase);
    }
    for (const label of want.triggers)
      expect(inMain.getAllByRole("button", { name: label })[0]!.getAttribute("data-phase"), label).toBe(phase);

    // Timeline labels in order, each with a progress figure.
    if (want.timeline.length) {
      expect(texts(document.querySelectorAll("[data-timeline-label]"))).toEqual(want.timeline);
      const steps = document.querySelectorAll("[data-timeline] li");
      expect(textOf(steps[steps.length - 1]!)).toContain("100%");
    }

    // Cross-links to the neighboring phases (or the overview).
    expect(document.querySelector('[data-phase-nav="prev"]')?.getAttribute("href")).toBe(want.prev);
    expect(document.querySelector('[data-phase-nav="next"]')?.getAttribute("href")).toBe(want.next);
    if (n === "6")
      expect(screen.getByRole("link", { name: /View All Phases/ }).getAttribute("href")).toBe("/business-growth");

    // Breadcrumbs: visible and as BreadcrumbList JSON-LD.
    const trail = within(screen.getByRole("navigation", { name: "Breadcrumb" }));
    expect(trail.getByRole("link", { name: "Business Growth" }).getAttribute("href")).toBe("/business-growth");
    const blocks = jsonLd(document);
    const crumbs = blocks.find((d) => d["@type"] === "BreadcrumbList");
    expect(crumbs, "BreadcrumbList").toBeTruthy();
    const items = crumbs!.itemListElement as { position: number; name: string; item: string }[];
    expect(items.map((i) => i.name)).toEqual(["Home", "Business Growth", `Phase ${n}`]);
    expect(items.map((i) => i.position)).toEqual([1, 2, 3]);
    expect(new URL(items[2]!.item).pathname).toBe(route);
    expect(blocks.some((d) => d["@type"] === "Organization")).toBe(true);

    // The prebuilt assessment dialog (its form works without JavaScript) is on the page, preset to this phase.
    const dialog = document.querySelector("dialog#assessment-dialog")!;
    expect(dialog).not.toBeNull();
    expect(dialog.querySelector(`option[value="${phase}"]`)?.hasAttribute("selected")).toBe(true);
    expect(dialog.querySelectorAll('option[value^="phase-"][selected]')).toHaveLength(1);
  });
});

it("phase 4 and 5 tables have captions, header cells and a focusable scroll region", () => {
  for (const [route, caption] of [
    ["/business-growth/phase-4", "How buyers see a tree service before and after Phase 4"],
    ["/business-growth/phase-5", "Sample location performance report (illustrative figures)"],
  ] as const) {
    const region = builtPage(route).screen.getByRole("region", { name: caption });
    expect(region.getAttribute("tabindex")).toBe("0");
    expect(textOf(region.querySelector("caption")!)).toBe(caption);
    expect(region.querySelectorAll('th[scope="col"]').length).toBeGreaterThanOrEqual(3);
    expect(region.querySelectorAll('th[scope="row"]').length).toBeGreaterThanOrEqual(3);
  }
});

it("/industry-analysis: stats, regional table, transactions, three report offers, contact link", () => {
  const route = "/industry-analysis";
  const { document, main, screen } = builtPage(route);
  expectHeadings(route, ["Market at a Glance", "Regional Market Performance", "Recent Transactions", "Market Reports"]);
  expectFigures(route, ["15+", "1.75x", "3-5x", "90 days", "95%"]);
  const regions = screen.getByRole("region", { name: /Regional tree-service markets/ });
  expect(texts(regions.querySelectorAll('tbody th[scope="row"]'))).toEqual([
    "Texas",
    "California",
    "Florida",
    "North Carolina",
  ]);
  const deals = screen.getByRole("region", { name: /Recent tree-service transactions/ });
  expect(deals.querySelectorAll("tbody tr").length).toBeGreaterThanOrEqual(3);
  const reports = document.querySelectorAll("[data-report]");
  expect(reports).toHaveLength(3);
  for (const report of reports) {
    expect(textOf(report)).toMatch(/Contact us for pricing|Custom scope and pricing/);
    expect(report.textContent).not.toContain("$");
  }
  expect(main.querySelectorAll('a[href="/contact"]').length).toBeGreaterThanOrEqual(1);
});

it("/ai-automation: four features, integrations, case studies, three plans without invented prices", () => {
  const route = "/ai-automation";
  const { document, main, inMain } = builtPage(route);
  expectHeadings(route, [
    "AI Features Built for Tree Care",
    "Works With the Tools You Already Use",
    "Case Studies",
    "Simple Plans That Grow With You",
  ]);
  for (const name of ["AI Voice Assistant", "SMS Quoting", "Smart Scheduling", "Dynamic Pricing"])
    expect(inMain.getAllByRole("heading", { level: 3, name }), name).toHaveLength(1);
  expect(document.querySelectorAll('section[aria-labelledby="case-studies-heading"] article')).toHaveLength(3);
  const tiers = document.querySelectorAll("[data-tier]");
  expect(tiers).toHaveLength(3);
  expect(textOf(document.querySelector('[data-tier="starter"]')!)).toContain("Per month");
  expect(textOf(document.querySelector('[data-tier="starter"] [data-allowance]')!)).toBe("Up to 100 calls per month");
  expect(textOf(document.querySelector('[data-tier="professional"] [data-allowance]')!)).toBe("Unlimited calls");
  expect(textOf(document.querySelector('[data-tier="enterprise"]')!)).toContain("Custom");
  expect(document.querySelector('section[aria-labelledby="pricing-heading"]')!.textContent).not.toContain("$");
  const tierTriggers = [...tiers].flatMap((tier) => [...tier.querySelectorAll("[commandfor]")]);
  expect(tierTriggers.length).toBeGreaterThanOrEqual(1);
  for (const trigger of tierTriggers) expectTrigger(trigger, "audit-dialog");
  expect(main.querySelectorAll('a[href="/business-growth"]').length).toBeGreaterThanOrEqual(1);
});

it("/consumer-resources: guides, cost factors, red flags, quick costs from the estimate table, find link", () => {
  const route = "/consumer-resources";
  const { document, main } = builtPage(route);
  expectHeadings(route, [
    "Homeowner Guides",
    "What Affects the Cost",
    "Red Flags When Hiring",
    "Quick Reference Costs",
  ]);
  const cost = (key: string) => textOf(document.querySelector(`[data-cost="${key}"]`)!);
  expect(cost("trimming")).toContain(formatRange(...BASE_RANGES["tree-trimming"]));
  expect(cost("removal")).toContain(formatRange(...BASE_RANGES["tree-removal"]));
  expect(cost("stump-grinding")).toContain(formatRange(...BASE_RANGES["stump-grinding"]));
  expect(cost("emergency")).toContain(formatRange(...BASE_RANGES.emergency));
  expect(cost("pruning")).toContain("$150 - $600");
  expectFigures(route, ["+50%", "25%", "3-5 years"]);
  expect(main.querySelectorAll('a[href="/find-a-tree-service"]').length).toBeGreaterThanOrEqual(1);
  const quote = main.querySelectorAll('[commandfor="quote-dialog"]');
  expect(quote).toHaveLength(1);
  expectTrigger(quote[0]!, "quote-dialog");
});

it("/software-stack: tools by category, stack by stage, roadmap, growth and AI links", () => {
  const route = "/software-stack";
  const { document, main, screen } = builtPage(route);
  expectHeadings(route, [
    "Tool Comparison by Category",
    "Recommended Stack by Business Stage",
    "Your 12-Month Software Roadmap",
  ]);
  for (const category of ["Field service management", "Accounting", "Marketing and reviews"])
    expect(screen.getByRole("region", { name: `${category} tools compared` })).toBeTruthy();
  expect(texts(document.querySelectorAll("[data-stage] h3"))).toEqual([
    "Startup",
    "Growth Stage",
    "Established",
    "Mature Business",
  ]);
  expect(texts(document.querySelectorAll("[data-timeline-label]"))).toEqual([
    "Month 1",
    "Months 2-3",
    "Months 4-6",
    "Months 7-12",
  ]);
  expect(main.querySelectorAll('a[href="/business-growth"]').length).toBeGreaterThanOrEqual(1);
  expect(main.querySelectorAll('a[href="/ai-automation"]').length).toBeGreaterThanOrEqual(1);
});

it("/privacy and /terms: last updated December 2024, required clauses and figures", () => {
  expect(h1("/privacy")).toBe("Privacy Policy");
  expect(textOf(builtPage("/privacy").document.querySelector("[data-updated]")!)).toBe("Last updated: December 2024");
  expectFigures("/privacy", [
    "within 30 days",
    "up to three licensed, insured providers",
    "chat",
    SITE.email,
    SITE.phone,
  ]);

  expect(h1("/terms")).toBe("Terms of Service");
  expect(textOf(builtPage("/terms").document.querySelector("[data-updated]")!)).toBe("Last updated: December 2024");
  expectHeadings("/terms", [
    "4. Cancellations and rescheduling",
    "5. Payment terms for our services",
    "8. Reviews and other content you submit",
    "9. The chat assistant",
    "13. Governing law",
  ]);
  expectFigures("/terms", [
    "valid for 30 days",
    "1.5% per month",
    "24-hour notice",
    "within 30 days of purchase",
    "50% of the project fee upfront",
    "$2 million",
    "State of Texas",
    "do not guarantee",
  ]);
});

it("placeholder pages: a heading and one paragraph with the phone number", () => {
  for (const [route, heading] of [
    ["/automation", "Business Automation Solutions"],
    ["/financial-services", "Financial Services"],
    ["/locations", "Service Areas"],
    ["/about", "About Treeline"],
    ["/contact", "Contact Us"],
  ] as const) {
    const { main } = builtPage(route);
    expect(h1(route)).toBe(heading);
    expect(main.querySelectorAll("p"), route).toHaveLength(1);
    const call = main.querySelectorAll(`a[href="${SITE.phoneHref}"]`);
    expect(call, route).toHaveLength(1);
    expect(textOf(call[0]!)).toBe(SITE.phone);
  }
});
