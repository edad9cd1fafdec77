import { gunzipSync, gzipSync, constants as zlibConstants } from "node:zlib";
import { expect, test, type Locator, type Page } from "@playwright/test";
import { BASE_RANGES } from "../../src/lib/estimate";
import { SITE } from "../../src/lib/site";

/**
 * The marketing pages (issue 6): home, the four service pages and the emergency page. Per page:
 * the sections exist (headings), a sample of the spec's section 9 figures is on the right
 * page, every call-to-action trigger is present with its preselection, and the structured data
 * (FAQPage, BreadcrumbList) parses and matches what the page shows.
 */

type JsonLd = Record<string, unknown> & { "@type"?: string };

async function jsonLd(page: Page): Promise<JsonLd[]> {
  const blocks = await page.locator('script[type="application/ld+json"]').allTextContents();
  return blocks.flatMap((text) => {
    const parsed = JSON.parse(text) as JsonLd | JsonLd[];
    return Array.isArray(parsed) ? parsed : [parsed];
  });
}

const ofType = (blocks: JsonLd[], type: string) => blocks.filter((b) => b["@type"] === type);

/** "$200-800" from the quote table, the way the pages format it. */
const range = ([min, max]: readonly [number, number]) =>
  `$${min.toLocaleString("en-US")}-${max.toLocaleString("en-US")}`;

async function expectHeadings(main: Locator, names: readonly (string | RegExp)[], level = 2) {
  for (const name of names) await expect(main.getByRole("heading", { level, name }), String(name)).toBeVisible();
}

async function expectFigures(main: Locator, figures: readonly string[]) {
  for (const figure of figures) await expect(main, figure).toContainText(figure);
}

/** The FAQ shows N entries and the page's one FAQPage block lists the same N questions. */
async function expectFaq(page: Page, count: number) {
  const main = page.getByRole("main");
  const summaries = main.locator("details > summary");
  await expect(summaries).toHaveCount(count);
  const faqs = ofType(await jsonLd(page), "FAQPage");
  expect(faqs).toHaveLength(1);
  const entities = faqs[0]!.mainEntity as {
    "@type": string;
    name: string;
    acceptedAnswer: { "@type": string; text: string };
  }[];
  expect(entities).toHaveLength(count);
  const shown = (await summaries.allTextContents()).map((t) => t.trim());
  expect(entities.map((e) => e.name)).toEqual(shown);
  for (const e of entities) {
    expect(e["@type"]).toBe("Question");
    expect(e.acceptedAnswer["@type"]).toBe("Answer");
    expect(e.acceptedAnswer.text.length).toBeGreaterThan(40);
  }
  // Native <details>: an answer opens on click, no script needed.
  await summaries.first().click();
  await expect(main.locator("details").first()).toHaveAttribute("open", "");
}

async function expectBreadcrumbs(page: Page, name: string, path: string) {
  const lists = ofType(await jsonLd(page), "BreadcrumbList");
  expect(lists).toHaveLength(1);
  const items = lists[0]!.itemListElement as { position: number; name: string; item: string }[];
  expect(items.map((i) => i.name)).toEqual(["Home", "Services", name]);
  expect(items.map((i) => i.position)).toEqual([1, 2, 3]);
  expect(new URL(items[0]!.item).pathname).toBe("/");
  expect(new URL(items[2]!.item).pathname).toBe(path);
}

test.describe("home", () => {
  test("sections in order, figures, growth phases and states", async ({ page }) => {
    await page.goto("/");
    const main = page.getByRole("main");
    await expect(page.locator("h1")).toHaveCount(1);
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
    await expectHeadings(main, sections);
    // Spec order: each section heading comes after the previous one.
    const tops = await Promise.all(
      sections.map(async (name) => (await main.getByRole("heading", { level: 2, name }).boundingBox())!.y),
    );
    expect([...tops].sort((a, b) => a - b)).toEqual(tops);

    // Three audience cards, in order.
    await expect(main.getByRole("list").first().getByRole("heading", { level: 2 })).toHaveText([
      "Find Tree Service",
      "Grow Your Business",
      "Market Data",
    ]);
    for (const [label, href] of [
      ["Find Tree Service", "/find-a-tree-service"],
      ["Grow Your Business", "/business-growth"],
      ["Market Data", "/industry-analysis"],
    ]) {
      await expect(main.getByRole("link", { name: label, exact: true })).toHaveAttribute("href", href!);
    }

    // Four service cards with the quote table's ranges.
    const services = main.locator("#services");
    for (const [label, href] of [
      ["Tree Trimming", "/services/tree-trimming"],
      ["Tree Removal", "/services/tree-removal"],
      ["Stump Grinding", "/services/stump-grinding"],
      ["Emergency Service", "/services/emergency"],
    ]) {
      await expect(services.getByRole("link", { name: label, exact: true })).toHaveAttribute("href", href!);
    }
    await expect(services.getByRole("heading", { level: 3 })).toHaveCount(4);
    for (const key of ["tree-trimming", "tree-removal", "stump-grinding", "emergency"] as const) {
      await expect(services).toContainText(range(BASE_RANGES[key]));
    }
    await expectFigures(services, ["$200-800", "$500-2,500", "$150-500"]);

    // Four process steps.
    const process = main.locator("section", {
      has: page.getByRole("heading", { name: "From quote to clean yard in four steps" }),
    });
    await expect(process.getByRole("listitem")).toHaveCount(4);
    // In the spec's order (collections are not returned in file order: entries carry theirs).
    await expect(process.getByRole("heading", { level: 3 })).toHaveText([
      /Request a Quote/,
      /Schedule Service/,
      /Expert Service/,
      /Complete Cleanup/,
    ]);

    // Six phases, each linking to its page; programme figures.
    const growth = main.locator("section", {
      has: page.getByRole("heading", { name: "Grow your tree business in six phases" }),
    });
    for (let n = 1; n <= 6; n++) {
      await expect(growth.locator(`a[href="/business-growth/phase-${n}"]`)).toHaveCount(1);
    }
    await expectFigures(growth, [
      "500+",
      "500%",
      "18",
      "3-6 months",
      "$50K-100K revenue target",
      "$1M+ revenue target",
      "$3M-10M revenue",
      "1.75x revenue multiple",
    ]);

    // Owner story figures.
    const story = main.locator("section", {
      has: page.getByRole("heading", { name: "From one truck to a $3.5M exit" }),
    });
    await expectFigures(story, ["$65K", "$2M", "$3.5M", "50%", "3-5x"]);

    // Five states, four cities each.
    const states = main.locator("section", {
      has: page.getByRole("heading", { name: "Serving homeowners in five states" }),
    });
    await expect(states.getByRole("heading", { level: 3 })).toHaveText([
      /^Texas/,
      /^Florida/,
      /^California/,
      /^New York/,
      /^Illinois/,
    ]);
    for (const state of ["Texas", "Florida", "California", "New York", "Illinois"]) {
      const card = states.getByRole("listitem").filter({ has: page.getByRole("heading", { name: state }) });
      await expect(card.getByRole("listitem")).toHaveCount(4);
    }
    await expectFigures(states, ["Austin, TX", "Houston, TX", "Dallas, TX", "San Antonio, TX"]);

    // Testimonials with star ratings; the dashboard mock-up is drawn, not an image.
    const reviews = main.locator("section", {
      has: page.getByRole("heading", { name: "What customers and owners say" }),
    });
    expect(await reviews.getByRole("img", { name: /out of 5 stars/ }).count()).toBeGreaterThanOrEqual(3);
    const ai = main.locator("section", {
      has: page.getByRole("heading", { name: "Let AI run the office while you run the crews" }),
    });
    await expect(ai.getByRole("heading", { level: 3 })).toHaveText([
      "AI Quoting",
      "Smart Scheduling and Routing",
      "Customer Communication",
      "Business Dashboard",
    ]);
    const dashboard = ai.locator("figure");
    await expect(dashboard).toBeVisible();
    await expect(dashboard).toContainText("Treeline Business Dashboard");
    await expect(dashboard.locator("img, picture, canvas, script")).toHaveCount(0);
    await expect(dashboard.locator("figcaption")).toContainText("Sample dashboard");
    await expect(ai.getByRole("link", { name: /Explore AI Automation/ })).toHaveAttribute("href", "/ai-automation");
  });

  test("CTA triggers: instant quote, audit, free estimate", async ({ page }) => {
    await page.goto("/");
    const main = page.getByRole("main");
    await expect(main.getByRole("button", { name: "Get Instant Quote" })).toHaveAttribute("commandfor", "quote-dialog");
    await expect(main.getByRole("button", { name: "Free Growth & Valuation Audit" })).toHaveAttribute(
      "commandfor",
      "audit-dialog",
    );
    await expect(main.getByRole("button", { name: "Get Free Estimate" })).toHaveAttribute("commandfor", "quote-dialog");
    await expect(main.getByRole("button", { name: "Get Free Estimate" })).toHaveAttribute("command", "show-modal");
    await expect(main.locator(`a[href="${SITE.phoneHref}"]`).first()).toContainText(SITE.phone);
    await expect(main.getByRole("link", { name: SITE.email })).toHaveAttribute("href", `mailto:${SITE.email}`);
    // The home page has no FAQ and is not nested.
    const blocks = await jsonLd(page);
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

for (const service of SERVICE_PAGES) {
  test.describe(service.path, () => {
    test("sections, figures and pricing table", async ({ page }) => {
      await page.goto(service.path);
      const main = page.getByRole("main");
      await expect(page.locator("h1")).toHaveCount(1);
      await expect(page.getByRole("heading", { level: 1 })).toHaveText(service.title);
      await expectHeadings(main, [
        `How ${service.title.toLowerCase()} works`,
        `${service.title} Pricing`,
        "Frequently Asked Questions",
        `Ready to book ${service.title.toLowerCase()}?`,
        "Related Services",
      ]);
      const section = (id: string) => main.locator(`section[aria-labelledby="${id}"]`);
      await expect(main.locator("#benefits-heading")).toBeVisible();
      expect(await section("benefits-heading").locator("ul > li").count()).toBeGreaterThanOrEqual(3);
      await expect(section("process-heading").locator("ol > li")).toHaveCount(4);
      await expectFigures(main, [range(service.typical), ...service.figures]);
      // The price table is a real table with row headers.
      const table = main.getByRole("table");
      await expect(table).toHaveCount(1);
      expect(await table.getByRole("rowheader").count()).toBeGreaterThanOrEqual(3);
    });

    test("call and estimate triggers preselect the service", async ({ page }) => {
      await page.goto(service.path);
      const main = page.getByRole("main");
      const estimate = main.getByRole("button", { name: "Get Free Estimate" });
      await expect(estimate).toHaveAttribute("commandfor", "quote-dialog");
      await expect(estimate).toHaveAttribute("data-service-type", service.serviceType);
      const closing = main.getByRole("button", { name: "Get Your Free Quote" });
      await expect(closing).toHaveAttribute("commandfor", "quote-dialog");
      await expect(closing).toHaveAttribute("data-service-type", service.serviceType);
      const call = main.getByRole("link", { name: `Call ${SITE.phone}` });
      await expect(call).toHaveAttribute("href", SITE.phoneHref);
      await expect(call).toBeVisible();
    });

    test("FAQ and breadcrumb structured data", async ({ page }) => {
      await page.goto(service.path);
      await expectFaq(page, service.faqs);
      await expectBreadcrumbs(page, service.title, service.path);
    });

    test("related services link to other service pages", async ({ page }) => {
      await page.goto(service.path);
      const related = page
        .getByRole("main")
        .locator("section", { has: page.getByRole("heading", { name: "Related Services" }) });
      const hrefs = await related.getByRole("link").evaluateAll((links) => links.map((a) => a.getAttribute("href")));
      expect(hrefs.length).toBeGreaterThanOrEqual(3);
      for (const href of hrefs) {
        expect(href).toMatch(/^\/services\/[a-z-]+$/);
        expect(href).not.toBe(service.path);
      }
      if (service.path === "/services/stump-grinding") expect(hrefs).toContain("/services/emergency");
    });
  });
}

test.describe("/services/emergency", () => {
  test("hero: 24/7 badge, call now with the number, Emergency Quote, trust badges", async ({ page }) => {
    await page.goto("/services/emergency");
    const main = page.getByRole("main");
    await expect(page.locator("h1")).toHaveCount(1);
    await expect(main.getByText("Available 24/7")).toBeVisible();
    const call = main.getByRole("link", { name: `Call Now: ${SITE.phone}` });
    await expect(call).toBeVisible();
    await expect(call).toHaveAttribute("href", SITE.phoneHref);
    // Above the fold on every viewport.
    const box = (await call.boundingBox())!;
    expect(box.y + box.height).toBeLessThanOrEqual(page.viewportSize()!.height);
    expect(box.height).toBeGreaterThanOrEqual(44);

    const quotes = main.getByRole("button", { name: "Emergency Quote" });
    expect(await quotes.count()).toBeGreaterThanOrEqual(2);
    for (const trigger of await quotes.all()) {
      await expect(trigger).toHaveAttribute("commandfor", "quote-dialog");
      await expect(trigger).toHaveAttribute("data-service-type", "emergency");
      await expect(trigger).toHaveAttribute("data-urgency", "emergency");
    }
    const badges = main.getByRole("list", { name: "Why call us" });
    for (const badge of ["24/7 response", "$2M insurance", "Licensed crews"]) await expect(badges).toContainText(badge);
  });

  test("sections, time bands, fleet, storm preparedness, figures", async ({ page }) => {
    await page.goto("/services/emergency");
    const main = page.getByRole("main");
    await expectHeadings(main, [
      "When to Call",
      "Our Emergency Response Process",
      "Equipped for Any Emergency",
      "Storm Preparedness",
      "Tree emergency right now?",
      "Emergency Service FAQ",
      "Other Tree Services",
    ]);
    const when = main.locator("section", { has: page.getByRole("heading", { name: "When to Call" }) });
    await expect(when.getByRole("heading", { level: 3 })).toHaveText([
      "Trees on structures",
      "Storm damage",
      "Power line hazards",
      "Blocked access",
      "Leaning trees",
      "Hanging branches",
    ]);
    const response = main.locator("section", {
      has: page.getByRole("heading", { name: "Our Emergency Response Process" }),
    });
    await expect(response.locator("ol > li")).toHaveCount(4);
    const bands = ["0-30 min", "30-60 min", "1-2 hours", "2-8 hours"];
    for (const [i, band] of bands.entries()) await expect(response.locator("ol > li").nth(i)).toContainText(band);
    const fleet = main.locator("section", { has: page.getByRole("heading", { name: "Equipped for Any Emergency" }) });
    await expectHeadings(fleet, [/Mobile response units/, /lighting/i, /Crane/], 3);
    const storm = main.locator("section", { has: page.getByRole("heading", { name: "Storm Preparedness" }) });
    await expect(storm.getByRole("heading", { level: 3 })).toHaveText(["Pre-Storm", "During the Storm", "Post-Storm"]);
    await expectFigures(main, ["Within 30 minutes", "Within 2 hours maximum", "365 days a year", "$2M", "+50%"]);
    const hotline = main.locator("section", { has: page.getByRole("heading", { name: "Tree emergency right now?" }) });
    await expect(hotline.getByRole("link", { name: SITE.phone })).toHaveAttribute("href", SITE.phoneHref);
  });

  test("six FAQs with FAQPage data, breadcrumbs, links to the other services", async ({ page }) => {
    await page.goto("/services/emergency");
    await expectFaq(page, 6);
    await expectBreadcrumbs(page, "Emergency Service", "/services/emergency");
    const main = page.getByRole("main");
    for (const href of ["/services/tree-removal", "/services/tree-trimming", "/services/stump-grinding"]) {
      await expect(main.locator(`a[href="${href}"]`)).toHaveCount(1);
    }
  });

  test("the call button with the number is inside the first 14.6 KB of the gzipped HTML", async ({ request }) => {
    const html = Buffer.from(await (await request.get("/services/emergency")).body());
    const gz = gzipSync(html, { level: 6 });
    const marker = html.indexOf("data-call-now");
    expect(marker).toBeGreaterThan(0);
    const end = html.indexOf("</a>", marker) + 4;
    expect(html.subarray(html.lastIndexOf("<a", marker), end).toString()).toContain(SITE.phone);
    // The shortest prefix of the compressed stream that already decodes the whole link.
    const decodes = (n: number) =>
      gunzipSync(gz.subarray(0, n), { finishFlush: zlibConstants.Z_SYNC_FLUSH }).length >= end;
    expect(decodes(14_600)).toBe(true);
  });
});
