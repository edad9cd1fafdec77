import AxeBuilder from "@axe-core/playwright";
import { expect, test } from "@playwright/test";
import { STATIC_ROUTES } from "../../src/lib/routes";
import seed from "../../content/directory/businesses.json" with { type: "json" };

// Two detail pages stand for all: one with every optional field, one without photos.
const detailPages = [seed[0], seed.find((b) => b.images.length === 0) ?? seed[1]].map((b) => `/directory/${b.slug}`);

for (const route of [...STATIC_ROUTES, ...detailPages, "/no-such-page"]) {
  test(`axe: no serious or critical violations on ${route}`, async ({ page }) => {
    await page.goto(route);
    const results = await new AxeBuilder({ page })
      .withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"])
      .analyze();
    const blocking = results.violations.filter((v) => v.impact === "serious" || v.impact === "critical");
    expect(blocking.map((v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`)).toEqual(
      [],
    );
  });
}
