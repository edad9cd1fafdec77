/**
 * The visitor's status page (/requests/{leadId}/{sig}), an on-demand Astro page, against the
 * built site (tests/helpers/site.ts): what it says for each stage of a lead (an emergency's
 * danger first, offers said as they truly stand, times in the job's zone), its private
 * headers, and what a changed link gets. Also how a page reads a form flash.
 */
import { within } from "@testing-library/dom";
import { afterAll, describe, expect, it } from "vitest";
import { answerLead } from "../../../netlify/lib/delivery/progress.ts";
import { initialRouting } from "../../../netlify/lib/delivery/routing.ts";
import { signer } from "../../../netlify/lib/delivery/signing.ts";
import { readFlash } from "../../../netlify/lib/page-data/flash.ts";
import { declareStorm } from "../../../netlify/lib/storms.ts";
import { STORE_UNAVAILABLE } from "../../../netlify/lib/http.ts";
import { DANGER_FIRST, HOTLINE } from "../../../src/lib/forms/copy.ts";
import type { Delivery } from "../../../src/lib/schemas/lead.ts";
import { ARRIVAL_PROMISE } from "../../helpers/receipts.ts";
import { siteHarness } from "../../helpers/site.ts";
import { testBusiness, validBooking, validQuote } from "../../helpers/functions.ts";

const SECRET = "status-page-secret-0123456789abcdefghij";
// An install that sends e-mail (these pages only read, so nothing is sent): offers reach businesses.
// A default install's kept offers are tests/unit/kept-offers.test.ts and the e2e journeys.
const site = await siteHarness("status", {
  LINK_SIGNING_SECRET: SECRET,
  RESEND_API_KEY: "re_test",
  NOTIFY_EMAIL_FROM: "Treeline <leads@treeline.test>",
  RESEND_API_URL: "http://127.0.0.1:9/emails",
});

afterAll(() => site?.stop());

describe.skipIf(!site)("the status page", () => {
  const sign = signer(SECRET);

  async function booking(urgency: "emergency" | "routine") {
    const business = testBusiness("st-1", {
      name: "Miller Family Tree Works",
      slug: "miller-family",
      phone: "(512) 555-0111",
    });
    await site!.store.businesses.upsert(business);
    const { lead } = await site!.store.leads.create(
      "booking",
      { ...validBooking("st-1"), urgency, businessName: business.name, businessSlug: business.slug },
      {
        sourcePage: "/",
        urgency,
        routing: initialRouting(
          [{ businessId: "st-1", name: business.name, slug: business.slug, phone: business.phone }],
          urgency,
          Date.now(),
        ),
      },
    );
    return { lead, path: sign.statusPath(lead.id) };
  }

  it("lists each e-mail to the visitor by its delivery state: sent only once the provider took it", async () => {
    const { lead, path } = await booking("routine");
    const before = await site!.page(path);
    // E-mail can reach the visitor on this install, and nothing is composed yet.
    expect(before.inMain.getByTestId("emails-note").textContent).toBe(
      "We'll e-mail you about this request at the address you gave.",
    );
    const at = new Date().toISOString();
    const base = {
      leadId: lead.id,
      audience: "visitor" as const,
      channel: "email" as const,
      to: "jane@example.com",
      text: "...",
      createdAt: at,
    };
    await site!.store.messages.ensure([
      {
        ...base,
        id: `${lead.id}~receipt~email`,
        kind: "receipt",
        subject: "Your request is in",
        state: "sent",
        attempts: 1,
        sentAt: at,
      },
      {
        ...base,
        id: `${lead.id}~ev1~email`,
        kind: "accepted",
        subject: "Accepted",
        state: "failed",
        attempts: 1,
        createdAt: new Date(Date.parse(at) + 1000).toISOString(),
      },
    ]);
    const { inMain } = await site!.page(path);
    const rows = [...inMain.getByTestId("emails").querySelectorAll("li")].map((li) => li.textContent);
    expect(rows[0]).toMatch(/^Your request is inSent to jane@example\.com /);
    expect(rows[1]).toBe("AcceptedCouldn't be sent to jane@example.com: the e-mail service refused it");
    expect(inMain.queryByTestId("emails-note")).toBeNull();
  });

  it("names the request, who has it and what was asked; private headers; the danger first for an emergency", async () => {
    const { lead, path } = await booking("emergency");
    const { response, document, main, inMain } = await site!.page(path);
    expect(response.status).toBe(200);
    expect(response.headers.get("cache-control")).toBe("private, no-store");
    expect(response.headers.get("x-robots-tag")).toBe("noindex, nofollow");
    expect(response.headers.get("referrer-policy")).toBe("no-referrer");
    expect(response.headers.get("content-security-policy")).toContain("frame-ancestors 'none'");
    expect(document.querySelector('meta[name="robots"]')?.getAttribute("content")).toBe("noindex, nofollow");
    // The address is the key: it is written nowhere in the page.
    expect(document.querySelector('link[rel="canonical"]')).toBeNull();
    expect(document.documentElement.outerHTML).not.toContain(path.split("/").at(-1)!);
    // The site's own layout: its header and footer around the page.
    expect(document.querySelector("header nav")).not.toBeNull();
    expect(document.querySelector("footer")).not.toBeNull();

    expect(inMain.getByRole("heading", { level: 1 }).textContent?.replace(/\s+/g, " ")).toBe(
      `Your request ${lead.reference}`,
    );
    const first = main.firstElementChild?.firstElementChild;
    expect(first?.getAttribute("data-testid")).toBe("danger");
    expect(first?.textContent).toContain(DANGER_FIRST.hurt);
    expect(first?.textContent).toContain(DANGER_FIRST.lines);
    expect(within(first as HTMLElement).getByRole("link", { name: HOTLINE.text })).toHaveProperty(
      "href",
      "tel:+15125550142",
    );
    expect(main.textContent).not.toMatch(ARRIVAL_PROMISE);
    const holders = within(inMain.getByRole("list", { name: "Who has it" })).getAllByRole("listitem");
    expect(holders).toHaveLength(1);
    expect(holders[0]!.textContent).toContain("Miller Family Tree Works");
    expect(holders[0]!.textContent).toContain("Waiting for an answer");
    expect(main.textContent).toContain("42 Pecan Lane");
  });

  it("says when the business accepted, with its number; an emergency keeps the danger first", async () => {
    const { lead, path } = await booking("emergency");
    const answer = { kind: "accept", window: "Today 4-6 PM", price: "$650" } as const;
    await answerLead(site!.store, lead.id, "st-1", answer, Date.now(), async () => {});
    const { inMain, main } = await site!.page(path);
    const [holder] = within(inMain.getByRole("list", { name: "Who has it" })).getAllByRole("listitem");
    expect(holder!.textContent).toContain("Accepted");
    expect(holder!.textContent).toContain("When: Today 4-6 PM · Price: $650");
    expect(inMain.getByRole("link", { name: "Call Miller Family Tree Works: (512) 555-0111" })).toBeTruthy();
    expect(main.textContent).toContain(DANGER_FIRST.hurt);
    expect(inMain.getByText(/will contact you to confirm/).textContent).toBe(
      "Miller Family Tree Works accepted your request and will contact you to confirm the details.",
    );
  });

  /** A Miami emergency quote offered to three crews, on Eastern time; `states` sets each offer's fate. */
  async function miami(states: Partial<Delivery>[]) {
    const now = Date.parse("2026-11-28T15:00:00.000Z");
    const names = ["Brickell Tree Pros", "Coral Canopy", "Key Biscayne Arbor"];
    const routing = initialRouting(
      names.map((name, i) => ({ businessId: `st-mia-${i}`, name, slug: `st-mia-${i}`, email: `p${i}@mia.test` })),
      "emergency",
      now,
    );
    routing.deliveries = routing.deliveries.map((d, i) => ({ ...d, ...states[i] }));
    const { lead } = await site!.store.leads.create(
      "quote",
      { ...validQuote(), address: "200 Biscayne Blvd Way, Miami, FL 33131" },
      { sourcePage: "/", urgency: "emergency", routing },
    );
    await site!.store.leads.mutate(lead.id, (l) => ({
      ...l,
      timeZone: "America/New_York",
      place: { label: "Miami, FL 33131", zip: "33131", lat: 25.77, lng: -80.19 },
    }));
    return site!.page(sign.statusPath(lead.id));
  }

  it("a Miami emergency: what happens next and every time in Eastern time, named", async () => {
    const { main, inMain } = await miami([{}, {}, {}]);
    const text = main.textContent!.replace(/\s+/g, " ");
    expect(text).toContain(
      "Offered to 3 crews near 33131 that take emergencies now; each has 10 minutes to answer (by 10:10 AM EST). If nobody accepts in time, we pass your request on.",
    );
    const holders = within(inMain.getByRole("list", { name: "Who has it" })).getAllByRole("listitem");
    expect(holders).toHaveLength(3);
    for (const h of holders) expect(h.textContent).toContain("Answer due by Sat, Nov 28, 10:10 AM EST");
    expect(text).toMatch(/Sent\w{3}, \w{3} \d{1,2}, \d{1,2}:\d{2} [AP]M E[SD]T/);
    expect(text).not.toMatch(/\bC[SD]T\b/);
    expect(text).not.toMatch(ARRIVAL_PROMISE);
  });

  it("an offer no channel delivered, and one given back, are said as such: never waiting, never 'no answer in time'", async () => {
    const { main, inMain } = await miami([
      {},
      { state: "undelivered" },
      { state: "withdrawn", answeredAt: "2026-11-28T15:03:00.000Z", withdrawnAt: "2026-11-28T15:06:00.000Z" },
    ]);
    const [waiting, undelivered, withdrawn] = within(inMain.getByRole("list", { name: "Who has it" })).getAllByRole(
      "listitem",
    );
    expect(waiting!.textContent).toContain("Waiting for an answer");
    expect(undelivered!.textContent).toContain("Couldn't be reached");
    expect(undelivered!.textContent).toContain("Our offer couldn't reach them");
    expect(withdrawn!.textContent).toContain("Withdrew");
    expect(withdrawn!.textContent).toContain(
      "Gave the job back Sat, Nov 28, 10:06 AM EST after accepting it (no reason given)",
    );
    for (const h of [undelivered!, withdrawn!]) {
      expect(h.textContent).not.toContain("Didn't answer in time");
      expect(h.textContent).not.toMatch(/waiting|answer due/i);
    }
    const next = inMain.getByRole("heading", { name: "What happens next" }).nextElementSibling!.textContent!;
    expect(next).toBe(
      "Waiting for Brickell Tree Pros to answer, by 10:10 AM EST. If nobody accepts in time, we pass your request on.",
    );
    expect(main.textContent).not.toMatch(/Waiting for (Coral Canopy|Key Biscayne Arbor)/);
  });

  it("inside an active storm it carries the storm notice, with the state's rule; elsewhere none", async () => {
    const { lead, path } = await booking("emergency");
    const away = await site!.page(path);
    expect(away.main.querySelector("[data-testid=storm-notice]")).toBeNull();

    await site!.store.leads.mutate(lead.id, (l) => ({
      ...l,
      data: { ...(l.data as object), propertyAddress: "100 Biscayne Blvd, Miami, FL 33131" },
    }));
    const now = Date.now();
    await declareStorm(
      {
        name: "Hurricane Status",
        area: { kind: "zips", zips: ["33131"] },
        startsAt: new Date(now - 60_000).toISOString(),
        declaration: { level: "governor", reference: "EO 26-7" },
      },
      { store: site!.store, now },
    );
    const inside = await site!.page(path);
    const notice = inside.main.querySelector("[data-testid=storm-notice]");
    expect(notice?.textContent).toContain("Hurricane Status");
    expect(notice?.textContent).toContain("Florida Statutes 501.160");
    // An emergency's danger box still comes first (4: DOCUMENT_POSITION_FOLLOWING).
    const danger = inside.main.querySelector("[data-testid=danger]")!;
    expect(danger.compareDocumentPosition(notice!) & 4).toBe(4);
  });

  it("a changed or unknown link is 404 with the site's page, and no form posts to it", async () => {
    const { lead, path } = await booking("routine");
    const changed = `${path.slice(0, -1)}${path.endsWith("A") ? "B" : "A"}`;
    for (const bad of [changed, `/requests/${lead.id}/x`, `${sign.statusPath("ld_0000000000000000000")}`]) {
      const { response, inMain } = await site!.page(bad);
      expect(response.status, bad).toBe(404);
      expect(inMain.getByRole("heading", { level: 1 }).textContent).toMatch(
        /This link isn't valid|no longer available/,
      );
    }
    const posted = await site!.fetch(path, {
      method: "POST",
      body: "a=1",
      headers: { "content-type": "application/x-www-form-urlencoded" },
    });
    expect(posted.status).toBeGreaterThanOrEqual(400);
    expect(posted.status).toBeLessThan(500);
  });
});

describe.skipIf(!site)("a page's form flash", () => {
  it("is read only on its own path, and an outage is said as one", async () => {
    const id = await site!.store.flashes.save({
      path: "/forms/quote",
      status: 422,
      errors: { name: "Enter your name." },
    });
    const store = () => site!.store;
    expect(await readFlash(new URL(`https://x/forms/quote?form=${id}`), store)).toMatchObject({
      status: 422,
      errors: { name: "Enter your name." },
    });
    expect(await readFlash(new URL(`https://x/forms/audit?form=${id}`), store)).toBeNull();
    expect(await readFlash(new URL("https://x/forms/quote?form=AAAAAAAAAAAAAAAAAAAAAA"), store)).toBeNull();
    expect(await readFlash(new URL("https://x/forms/quote"), store)).toBeNull();
    expect(await readFlash(new URL("https://x/forms/quote?problem=unavailable"), store)).toMatchObject({
      status: 503,
      problem: STORE_UNAVAILABLE,
    });
    const broken = () => ({ flashes: { get: () => Promise.reject(new Error("down")) } }) as never;
    expect(await readFlash(new URL(`https://x/forms/quote?form=${id}`), broken)).toMatchObject({ status: 503 });
  });
});
