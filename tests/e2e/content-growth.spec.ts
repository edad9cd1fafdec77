/**
 * Growth and static content pages (issue 6): the growth overview, the six phase pages, market
 * intelligence, AI automation, consumer resources, the software stack, the legal pages and the
 * placeholder pages. Per page: the sections the spec names (headings), a sample of the spec's
 * section 9 figures on the right page, every dialog trigger with its preselection, the
 * cross-links, timeline labels, accessible tables and the BreadcrumbList JSON-LD.
 *
 * Expected figures are typed out from the spec here on purpose: the test checks the content
 * files against the spec, so it must not read them.
 */
import { expect, test, type Page } from "@playwright/test";
import { BASE_RANGES, formatRange } from "../../src/lib/estimate";
import { GROWTH_PHASES } from "../../src/lib/options";
import { SITE } from "../../src/lib/site";

const main = (page: Page) => page.locator("main#main");

/** Every h2 text in main, trimmed. */
async function h2s(page: Page): Promise<string[]> {
  return (await main(page).locator("h2").allTextContents()).map((t) => t.trim());
}

async function expectHeadings(page: Page, headings: readonly string[]) {
  const found = await h2s(page);
  for (const heading of headings) expect(found, `h2 "${heading}"`).toContain(heading);
  // One h1, and no heading level skipped inside main.
  await expect(page.locator("h1")).toHaveCount(1);
  const levels = await main(page)
    .locator("h1, h2, h3, h4")
    .evaluateAll((els) => els.map((e) => Number(e.tagName[1])));
  for (let i = 1; i < levels.length; i++)
    expect(levels[i]! - levels[i - 1]!, `heading order ${levels.join(",")}`).toBeLessThanOrEqual(1);
}

async function expectFigures(page: Page, figures: readonly string[]) {
  const text = (await main(page).innerText()).replace(/\s+/g, " ");
  for (const figure of figures) expect(text, `figure ${figure}`).toContain(figure);
}

/** JSON-LD blocks of the page, parsed. */
async function jsonLd(page: Page): Promise<Record<string, unknown>[]> {
  const blocks = await page.locator('script[type="application/ld+json"]').allTextContents();
  return blocks.map((b) => JSON.parse(b) as Record<string, unknown>);
}

// ---------------------------------------------------------------------------------------

test("/business-growth: audit triggers, six phase cards, results, supporting services, testimonials, CTA", async ({
  page,
}) => {
  await page.goto("/business-growth");
  await expect(page.locator("h1")).toHaveText("Grow Your Tree Service Business");
  await expectHeadings(page, [
    "The Six Phases of Growth",
    "Results Our Clients Achieve",
    "Supporting Services",
    "What Tree Service Owners Say",
    "Find out what your business is worth",
  ]);

  const audit = main(page).getByRole("button", { name: "Get Free Growth Audit" });
  expect(await audit.count()).toBeGreaterThanOrEqual(2);
  for (const trigger of await audit.all()) {
    await expect(trigger).toHaveAttribute("commandfor", "audit-dialog");
    await expect(trigger).toHaveAttribute("command", "show-modal");
  }

  const phases = page.locator('section[aria-labelledby="phases-heading"] li');
  await expect(phases).toHaveCount(6);
  for (let n = 1; n <= 6; n++) {
    await expect(phases.nth(n - 1).getByRole("link")).toHaveAttribute("href", `/business-growth/phase-${n}`);
    await expect(phases.nth(n - 1)).toContainText(GROWTH_PHASES[n - 1]!.label.replace(/^Phase \d+: /, ""));
  }

  await expectFigures(page, [
    "500+",
    "Businesses scaled",
    "500%",
    "Average growth",
    "18 months",
    "To exit ready",
    "$65K to $2M",
    "In 3 years",
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

  const support = page.locator('section[aria-labelledby="support-heading"]');
  for (const href of ["/automation", "/financial-services", "/business-growth/phase-5"]) {
    await expect(support.locator(`a[href="${href}"]`)).toHaveCount(1);
  }
  await expect(page.locator('section[aria-labelledby="testimonials-heading"] figure')).toHaveCount(2);
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

for (const [n, want] of Object.entries(PHASES)) {
  const phase = `phase-${n}`;
  const route = `/business-growth/${phase}`;
  test(`${route}: sections, figures, assessment triggers, timeline, cross-links, breadcrumbs`, async ({
    page,
    request,
  }) => {
    await page.goto(route);
    await expect(page.locator("h1")).toHaveText(GROWTH_PHASES[Number(n) - 1]!.label);
    await expectHeadings(page, want.headings);
    await expectFigures(page, want.figures);

    // Every dialog trigger in the page body opens this phase's assessment.
    const triggers = main(page).locator("[commandfor]");
    expect(await triggers.count()).toBeGreaterThanOrEqual(2);
    for (const trigger of await triggers.all()) {
      await expect(trigger).toHaveAttribute("commandfor", "assessment-dialog");
      await expect(trigger).toHaveAttribute("data-phase", phase);
    }
    for (const label of want.triggers) {
      await expect(main(page).getByRole("button", { name: label, exact: true }).first()).toHaveAttribute(
        "data-phase",
        phase,
      );
    }

    // Timeline labels in order, each with a progress figure.
    if (want.timeline.length) {
      await expect(page.locator("[data-timeline-label]")).toHaveText(want.timeline);
      await expect(page.locator("[data-timeline] li").last()).toContainText("100%");
    }

    // Cross-links to the neighbouring phases (or the overview).
    await expect(page.locator('[data-phase-nav="prev"]')).toHaveAttribute("href", want.prev);
    await expect(page.locator('[data-phase-nav="next"]')).toHaveAttribute("href", want.next);
    if (n === "6")
      await expect(page.getByRole("link", { name: /View All Phases/ })).toHaveAttribute("href", "/business-growth");

    // Breadcrumbs: visible and as BreadcrumbList JSON-LD.
    await expect(
      page.getByRole("navigation", { name: "Breadcrumb" }).getByRole("link", { name: "Business Growth" }),
    ).toHaveAttribute("href", "/business-growth");
    const crumbs = (await jsonLd(page)).find((d) => d["@type"] === "BreadcrumbList");
    expect(crumbs, "BreadcrumbList").toBeTruthy();
    const items = crumbs!.itemListElement as { "@type": string; position: number; name: string; item: string }[];
    expect(items.map((i) => i.name)).toEqual(["Home", "Business Growth", `Phase ${n}`]);
    expect(items.map((i) => i.position)).toEqual([1, 2, 3]);
    expect(new URL(items[2]!.item).pathname).toBe(route);
    expect((await jsonLd(page)).some((d) => d["@type"] === "Organization")).toBe(true);

    // The prebuilt assessment dialog (its form works without JavaScript) is on the page, preset to this phase.
    const html = await (await request.get(route)).text();
    expect(html).toContain('<dialog id="assessment-dialog"');
    expect(html).toContain(`<option value="${phase}" selected="">`);
  });
}

test("phase 4 and 5 tables have captions, header cells and a focusable scroll region", async ({ page }) => {
  for (const [route, caption] of [
    ["/business-growth/phase-4", "How buyers see a tree service before and after Phase 4"],
    ["/business-growth/phase-5", "Sample location performance report (illustrative figures)"],
  ] as const) {
    await page.goto(route);
    const region = page.getByRole("region", { name: caption });
    await expect(region).toHaveAttribute("tabindex", "0");
    await expect(region.locator("caption")).toHaveText(caption);
    expect(await region.locator('th[scope="col"]').count()).toBeGreaterThanOrEqual(3);
    expect(await region.locator('th[scope="row"]').count()).toBeGreaterThanOrEqual(3);
  }
});

test("/industry-analysis: stats, regional table, transactions, three report offers, contact link", async ({ page }) => {
  await page.goto("/industry-analysis");
  await expectHeadings(page, [
    "Market at a Glance",
    "Regional Market Performance",
    "Recent Transactions",
    "Market Reports",
  ]);
  await expectFigures(page, ["15+", "1.75x", "3-5x", "90 days", "95%"]);
  const regions = page.getByRole("region", { name: /Regional tree-service markets/ });
  await expect(regions.locator('tbody th[scope="row"]')).toHaveText([
    "Texas",
    "California",
    "Florida",
    "North Carolina",
  ]);
  expect(
    await page
      .getByRole("region", { name: /Recent tree-service transactions/ })
      .locator("tbody tr")
      .count(),
  ).toBeGreaterThanOrEqual(3);
  const reports = page.locator("[data-report]");
  await expect(reports).toHaveCount(3);
  for (const report of await reports.all()) {
    await expect(report).toContainText(/Contact us for pricing|Custom scope and pricing/);
    await expect(report).not.toContainText("$");
  }
  expect(await main(page).locator('a[href="/contact"]').count()).toBeGreaterThanOrEqual(1);
});

test("/ai-automation: four features, integrations, case studies, three plans without invented prices", async ({
  page,
}) => {
  await page.goto("/ai-automation");
  await expectHeadings(page, [
    "AI Features Built for Tree Care",
    "Works With the Tools You Already Use",
    "Case Studies",
    "Simple Plans That Grow With You",
  ]);
  for (const name of ["AI Voice Assistant", "SMS Quoting", "Smart Scheduling", "Dynamic Pricing"]) {
    await expect(main(page).getByRole("heading", { level: 3, name })).toBeVisible();
  }
  await expect(page.locator('section[aria-labelledby="case-studies-heading"] article')).toHaveCount(3);
  const tiers = page.locator("[data-tier]");
  await expect(tiers).toHaveCount(3);
  await expect(page.locator('[data-tier="starter"]')).toContainText("Per month");
  await expect(page.locator('[data-tier="starter"] [data-allowance]')).toHaveText("Up to 100 calls per month");
  await expect(page.locator('[data-tier="professional"] [data-allowance]')).toHaveText("Unlimited calls");
  await expect(page.locator('[data-tier="enterprise"]')).toContainText("Custom");
  await expect(page.locator('section[aria-labelledby="pricing-heading"]')).not.toContainText("$");
  for (const trigger of await tiers.locator("[commandfor]").all())
    await expect(trigger).toHaveAttribute("commandfor", "audit-dialog");
  expect(await main(page).locator('a[href="/business-growth"]').count()).toBeGreaterThanOrEqual(1);
});

test("/consumer-resources: guides, cost factors, red flags, quick costs from the estimate table, find link", async ({
  page,
}) => {
  await page.goto("/consumer-resources");
  await expectHeadings(page, [
    "Homeowner Guides",
    "What Affects the Cost",
    "Red Flags When Hiring",
    "Quick Reference Costs",
  ]);
  await expect(page.locator('[data-cost="trimming"]')).toContainText(formatRange(...BASE_RANGES["tree-trimming"]));
  await expect(page.locator('[data-cost="removal"]')).toContainText(formatRange(...BASE_RANGES["tree-removal"]));
  await expect(page.locator('[data-cost="stump-grinding"]')).toContainText(
    formatRange(...BASE_RANGES["stump-grinding"]),
  );
  await expect(page.locator('[data-cost="emergency"]')).toContainText(formatRange(...BASE_RANGES.emergency));
  await expect(page.locator('[data-cost="pruning"]')).toContainText("$150 - $600");
  await expectFigures(page, ["+50%", "25%", "3-5 years"]);
  expect(await main(page).locator('a[href="/find-a-tree-service"]').count()).toBeGreaterThanOrEqual(1);
  await expect(main(page).locator('[commandfor="quote-dialog"]')).toHaveCount(1);
});

test("/software-stack: tools by category, stack by stage, roadmap, growth and AI links", async ({ page }) => {
  await page.goto("/software-stack");
  await expectHeadings(page, [
    "Tool Comparison by Category",
    "Recommended Stack by Business Stage",
    "Your 12-Month Software Roadmap",
  ]);
  for (const category of ["Field service management", "Accounting", "Marketing and reviews"]) {
    await expect(page.getByRole("region", { name: `${category} tools compared` })).toBeVisible();
  }
  await expect(page.locator("[data-stage] h3")).toHaveText([
    "Startup",
    "Growth Stage",
    "Established",
    "Mature Business",
  ]);
  await expect(page.locator("[data-timeline-label]")).toHaveText([
    "Month 1",
    "Months 2-3",
    "Months 4-6",
    "Months 7-12",
  ]);
  expect(await main(page).locator('a[href="/business-growth"]').count()).toBeGreaterThanOrEqual(1);
  expect(await main(page).locator('a[href="/ai-automation"]').count()).toBeGreaterThanOrEqual(1);
});

test("/privacy and /terms: last updated December 2024, required clauses and figures", async ({ page }) => {
  await page.goto("/privacy");
  await expect(page.locator("h1")).toHaveText("Privacy Policy");
  await expect(page.locator("[data-updated]")).toHaveText("Last updated: December 2024");
  await expectFigures(page, [
    "within 30 days",
    "up to three licensed, insured providers",
    "chat",
    SITE.email,
    SITE.phone,
  ]);

  await page.goto("/terms");
  await expect(page.locator("h1")).toHaveText("Terms of Service");
  await expect(page.locator("[data-updated]")).toHaveText("Last updated: December 2024");
  await expectHeadings(page, [
    "4. Cancellations and rescheduling",
    "5. Payment terms for our services",
    "8. Reviews and other content you submit",
    "9. The chat assistant",
    "13. Governing law",
  ]);
  await expectFigures(page, [
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

test("placeholder pages: a heading and one paragraph with the phone number", async ({ page }) => {
  for (const [route, heading] of [
    ["/automation", "Business Automation Solutions"],
    ["/financial-services", "Financial Services"],
    ["/locations", "Service Areas"],
    ["/about", "About Treeline"],
    ["/contact", "Contact Us"],
  ] as const) {
    await page.goto(route);
    await expect(page.locator("h1")).toHaveText(heading);
    await expect(main(page).locator("p")).toHaveCount(1);
    await expect(main(page).locator(`a[href="${SITE.phoneHref}"]`)).toHaveText(SITE.phone);
  }
});
