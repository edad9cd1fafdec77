/**
 * Every width from 320 px: no page scrolls sideways on a phone. One page, JavaScript
 * on, walks every prebuilt route, the directory's on-demand lists and a business page, and a
 * visitor's status page and a business's answer page (the functions' own HTML), at 360 and
 * 320 px wide, and fails naming the elements that stick out past the screen's right edge.
 * Phone only (@mobile-only, the Pixel 7 profile at those widths): layout is all it checks.
 */
import type { Page } from "@playwright/test";
import { STATIC_ROUTES } from "../../src/lib/routes";
import { expect, test } from "./fixtures";

const TOKEN = process.env.E2E_ADMIN_TOKEN || "e2e-admin-token-not-a-secret";
const WIDTHS = [360, 320];

/**
 * The page's width past the screen, and the innermost elements that reach past its right edge
 * (those inside a box that scrolls or clips sideways and fixed ones do not move the page).
 */
function overflow(page: Page) {
  return page.evaluate(() => {
    const screen = document.documentElement.clientWidth;
    const extra = document.documentElement.scrollWidth - screen;
    if (extra <= 0) return { extra, culprits: [] as string[] };
    /** Inside a fixed box or one that scrolls or clips sideways (`self`: the element's own clipping counts too). */
    const contained = (el: Element, self = false) => {
      for (let p: Element | null = el; p && p !== document.body; p = p.parentElement) {
        const style = getComputedStyle(p);
        if (style.position === "fixed") return true;
        if ((self || p !== el) && style.overflowX !== "visible") return true;
      }
      return false;
    };
    const rights = new Map<Element, number>();
    const sticking = [...document.body.querySelectorAll("*")].filter((el) => {
      const box = el.getBoundingClientRect();
      rights.set(el, box.right);
      return box.width > 0 && box.right > screen + 0.5 && !contained(el);
    });
    // Text that runs out of its box ("$1,000-$1,500" in a tile) sticks out while the box does not.
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    const range = document.createRange();
    for (let text = walker.nextNode(); text; text = walker.nextNode()) {
      const parent = text.parentElement!;
      if (sticking.includes(parent) || !text.textContent?.trim()) continue;
      range.selectNodeContents(text);
      const right = range.getBoundingClientRect().right;
      if (right > screen + 0.5 && !contained(parent, true)) {
        sticking.push(parent);
        rights.set(parent, right);
      }
    }
    const innermost = sticking.filter((el) => !sticking.some((other) => other !== el && el.contains(other)));
    const name = (el: Element) => {
      const classes = typeof el.className === "string" ? el.className.trim().split(/\s+/).slice(0, 6).join(".") : "";
      const text = (el.textContent ?? "").trim().replace(/\s+/g, " ").slice(0, 40);
      const right = Math.round(rights.get(el)!);
      const parent = el.parentElement ? `${el.parentElement.tagName.toLowerCase()} > ` : "";
      return `${parent}<${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ""}${classes ? `.${classes}` : ""}> "${text}" (to ${right} px)`;
    };
    return { extra, culprits: innermost.slice(0, 5).map(name) };
  });
}

test.describe("every width", () => {
  test("no page scrolls sideways at 360 or 320 px", { tag: "@mobile-only" }, async ({ page, request }) => {
    test.setTimeout(180_000);
    const { baseURL } = test.info().project.use;
    const [listed] = (await (await request.get("/api/businesses?limit=1")).json()).data;
    // A visitor's emergency booking: its status page, and the business's answer page from the offer.
    const booked = await request.post("/api/booking-request", {
      headers: { origin: baseURL! },
      data: {
        customerName: "Narrow Screen Tester",
        customerEmail: "narrow.screen@example.com",
        customerPhone: "(210) 555-0163",
        urgency: "emergency",
        description: "A large live oak limb came down on the garage in the storm last night.",
        propertyAddress: "410 Oakmont Ct, San Antonio, TX",
        businessId: listed.id,
      },
    });
    expect(booked.status(), await booked.text()).toBe(201);
    const { id: leadId, statusUrl } = await booked.json();
    // The offer is composed right after the booking's answer, off the request: wait for it.
    let answerPath: string | undefined;
    await expect
      .poll(
        async () => {
          const messages = await request.get(`/api/admin/messages?leadId=${leadId}`, {
            headers: { authorization: `Bearer ${TOKEN}` },
          });
          answerPath = /\/respond\/[\w.-]+/.exec(await messages.text())?.[0];
          return answerPath;
        },
        { message: "the offer carries an answer link" },
      )
      .toBeTruthy();

    const routes = [
      ...STATIC_ROUTES,
      "/directory?page=2",
      "/directory?near=78703&radius=25",
      `/directory/${listed.slug}`,
      statusUrl,
      `${statusUrl}/received`,
      answerPath!,
      "/forms/quote",
      "/forms/audit",
      `/forms/review/${listed.id}`,
      "/chat",
    ];
    const found: string[] = [];
    for (const width of WIDTHS) {
      await page.setViewportSize({ width, height: 780 });
      for (const route of routes) {
        await page.goto(route, { waitUntil: "load" });
        const { extra, culprits } = await overflow(page);
        if (extra > 0) found.push(`${route} at ${width} px is ${extra} px too wide: ${culprits.join("; ")}`);
      }
    }
    expect(found, "pages that scroll sideways").toEqual([]);
  });
});
