/**
 * axe (WCAG 2.1 A/AA and best practice) on every page of the route table, two business
 * pages and the 404, grouped by part of the site so one report lists every violation of the
 * group. The phone runs the key pages. Dialogs, the chat panel and the directory's states
 * are checked open in their own journeys.
 */
import { STATIC_ROUTES } from "../../src/lib/routes";
import seed from "../../content/directory/businesses.json" with { type: "json" };
import type { Page } from "@playwright/test";
import { axeBlocking, expect, test } from "./fixtures";

// Two detail pages stand for all: one with every optional field, one without photos.
const detailPages = [seed[0], seed.find((b) => b.images.length === 0) ?? seed[1]].map((b) => `/directory/${b.slug}`);
const NOT_FOUND = "/no-such-page";

const isHome = (r: string) => r === "/" || r.startsWith("/services/");
const isGrowth = (r: string) => r.startsWith("/business-growth") || r === "/ai-automation";
const isDirectory = (r: string) => r === "/directory" || r === "/find-a-tree-service";
// Every route of the route table is in exactly one group: the last takes the rest.
const GROUPS: Record<string, string[]> = {
  "home and services": STATIC_ROUTES.filter(isHome),
  "business growth": STATIC_ROUTES.filter(isGrowth),
  "directory and find-a-pro": [...STATIC_ROUTES.filter(isDirectory), ...detailPages, NOT_FOUND],
  "blog, company and legal pages": STATIC_ROUTES.filter((r) => !isHome(r) && !isGrowth(r) && !isDirectory(r)),
};

async function visitAll(page: Page, routes: string[]) {
  const blocking: string[] = [];
  for (const route of routes) {
    const response = await page.goto(route);
    expect(response?.status(), route).toBe(route === NOT_FOUND ? 404 : 200);
    blocking.push(...(await axeBlocking(page)));
  }
  expect(blocking).toEqual([]);
}

for (const [group, routes] of Object.entries(GROUPS)) {
  test(`axe: no serious or critical violations on the ${group} (${routes.length} pages)`, async ({ page }) => {
    test.setTimeout(30_000 + routes.length * 10_000);
    await visitAll(page, routes);
  });
}

test(
  "axe on the phone: home, emergency, directory, a business page, find-a-pro",
  { tag: "@mobile-only" },
  async ({ page }) => {
    test.setTimeout(90_000);
    await visitAll(page, ["/", "/services/emergency", "/directory", detailPages[0]!, "/find-a-tree-service"]);
  },
);
