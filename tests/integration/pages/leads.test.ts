/**
 * The lead forms' no-JS pages against the built site: a form's own page (/forms/{form}) with
 * what a refused post left in its flash, a stored lead's confirmation
 * (/requests/{id}/{sig}/received), and the directory's review form page. The functions'
 * suites check the 303 and the flash; this checks what the visitor then reads.
 */
import { afterAll, describe, expect, it } from "vitest";
import { signer } from "../../../netlify/lib/delivery/signing.ts";
import { initialRouting } from "../../../netlify/lib/delivery/routing.ts";
import { STORE_UNAVAILABLE } from "../../../netlify/lib/http.ts";
import {
  AUDIT_CONFIRMATION,
  AUDIT_TOASTS,
  BOOKING_TOASTS,
  DANGER_FIRST,
  EMERGENCY_CONFIRMATION,
  HOTLINE,
  QUOTE_CONFIRMATION,
  QUOTE_TOASTS,
  RECEIPT_COPY,
  REVIEW_TOASTS,
} from "../../../src/lib/forms/copy.ts";
import { MESSAGES } from "../../../src/lib/schemas/forms.ts";
import { QUOTE_FORM } from "../../../src/lib/forms/fields.ts";
import { textOf } from "../../helpers/dist.ts";
import { ARRIVAL_PROMISE } from "../../helpers/receipts.ts";
import { testBusiness, validAudit, validBooking, validQuote } from "../../helpers/functions.ts";
import { siteHarness } from "../../helpers/site.ts";

const SECRET = "lead-pages-secret-0123456789abcdefghijk";
// An install that sends texts, not e-mail (these pages only read, so nothing is sent): offers reach businesses.
// A default install's kept offers are tests/unit/kept-offers.test.ts and the e2e journeys.
const site = await siteHarness("leads", {
  LINK_SIGNING_SECRET: SECRET,
  TWILIO_ACCOUNT_SID: "AC123",
  TWILIO_AUTH_TOKEN: "twilio-token",
  TWILIO_FROM: "+15125550100",
  TWILIO_API_URL: "http://127.0.0.1:9",
});
afterAll(() => site?.stop());

describe.skipIf(!site)("a form's own page (/forms/{form})", () => {
  it("a refused quote: the form again, each message wired to its field, what was typed kept as text", async () => {
    const id = await site!.store.flashes.save({
      path: "/forms/quote",
      status: 422,
      values: {
        name: '<script>alert("x")</script>',
        email: "not-an-email",
        address: "12 Elm",
        serviceType: "stump-grinding",
        "treeDetails.height": '"><img src=x onerror=alert(1)>',
        _source: "/services/stump-grinding",
      },
      errors: { email: MESSAGES.email, phone: MESSAGES.phone, urgency: MESSAGES.urgency },
    });
    const { response, document, main, html } = await site!.page(`/forms/quote?form=${id}`);
    expect(response.status).toBe(422);
    expect(response.headers.get("cache-control")).toBe("private, no-store");
    expect(document.title).toBe(`Please check your ${QUOTE_FORM.title} | Treeline`);
    expect(main.querySelectorAll("script, img")).toHaveLength(0);
    expect(html).toContain("&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;");
    const form = main.querySelector("form")!;
    expect(form.getAttribute("action")).toBe("/api/quote");
    expect(form.getAttribute("method")).toBe("post");
    const email = document.getElementById("quote-email")!;
    expect(email.getAttribute("aria-invalid")).toBe("true");
    expect(email.getAttribute("aria-describedby")).toBe("quote-email-error");
    for (const m of [MESSAGES.email, MESSAGES.phone, MESSAGES.urgency]) expect(textOf(main)).toContain(m);
    expect(textOf(main)).not.toContain(MESSAGES.name);
    expect((document.getElementById("quote-address") as HTMLInputElement).value).toBe("12 Elm");
    expect(document.querySelector("#quote-serviceType option[selected]")?.getAttribute("value")).toBe("stump-grinding");
    const hidden = (name: string) => (form.querySelector(`[name="${name}"]`) as HTMLInputElement).value;
    expect(hidden("_source")).toBe("/services/stump-grinding");
    expect(hidden("_started")).toMatch(/^\d{13}$/);
    expect(hidden("_idempotencyKey")).toMatch(/^[0-9a-f-]{36}$/);
    expect(form.querySelector('[name="company_website"]')).not.toBeNull();
  });

  it("a refused audit keeps its ticked boxes and puts the group messages on the fieldsets", async () => {
    const id = await site!.store.flashes.save({
      path: "/forms/audit",
      status: 422,
      values: { currentRevenue: "500k-1m", currentChallenges: ["Scheduling and routing", "Collecting payments"] },
      errors: { growthGoals: MESSAGES.growthGoals, companyName: MESSAGES.companyName },
    });
    const { main, document } = await site!.page(`/forms/audit?form=${id}`);
    const ticked = [...main.querySelectorAll<HTMLInputElement>('input[name="currentChallenges"]')].filter(
      (i) => i.checked,
    );
    expect(ticked.map((i) => i.value)).toEqual(["Scheduling and routing", "Collecting payments"]);
    expect(document.querySelector("#audit-currentRevenue option[selected]")?.getAttribute("value")).toBe("500k-1m");
    expect(document.getElementById("audit-growthGoals")!.getAttribute("aria-describedby")).toBe(
      "audit-growthGoals-error",
    );
  });

  it("a limit or an outage is said at the top, with the refusal's status", async () => {
    const id = await site!.store.flashes.save({ path: "/forms/audit", status: 429, problem: "Too many requests." });
    const limited = await site!.page(`/forms/audit?form=${id}`);
    expect(limited.response.status).toBe(429);
    expect(limited.inMain.getByRole("alert").textContent).toBe("Too many requests.");
    const down = await site!.page("/forms/quote?problem=unavailable");
    expect(down.response.status).toBe(503);
    expect(down.inMain.getByRole("alert").textContent).toBe(STORE_UNAVAILABLE);
    expect(down.inMain.getByRole("link", { name: "(512) 555-0142" }).getAttribute("href")).toBe("tel:+15125550142");
    // Another form's flash is not read here.
    const other = await site!.page(`/forms/quote?form=${id}`);
    expect(other.response.status).toBe(200);
    expect(other.inMain.queryByRole("alert")).toBeNull();
  });

  it("the booking form names its business and offers its services; an unknown form is a 404", async () => {
    await site!.store.businesses.upsert(
      testBusiness("lp-1", { name: "Oakline Tree Care", services: ["Tree Removal", "Stump Grinding"] }),
    );
    const id = await site!.store.flashes.save({
      path: "/forms/booking",
      status: 422,
      values: { businessId: "lp-1", serviceType: "Tree Removal" },
      errors: { customerPhone: "Please enter a valid phone number" },
    });
    const { main, inMain } = await site!.page(`/forms/booking?form=${id}`);
    expect(inMain.getByRole("heading", { level: 1 }).textContent).toBe("Book Service with Oakline Tree Care");
    const options = [...main.querySelectorAll<HTMLOptionElement>('select[name="serviceType"] option')];
    expect(options.map((o) => o.value)).toEqual(["", "Tree Removal", "Stump Grinding"]);
    expect(options.find((o) => o.selected)?.value).toBe("Tree Removal");
    expect((main.querySelector('[name="businessId"]') as HTMLInputElement).value).toBe("lp-1");
    expect((await site!.fetch("/forms/nothing")).status).toBe(404);
  });
});

describe.skipIf(!site)("a stored lead's confirmation (/requests/{id}/{sig}/received)", () => {
  const sign = signer(SECRET);

  it("a quote emergency: the danger first, our own line, the estimate, the receipt and its link; private; a reload is the same", async () => {
    const { lead } = await site!.store.leads.create(
      "quote",
      { ...validQuote(), estimatedCost: "$900 - $4,500" },
      { sourcePage: "/", urgency: "emergency" },
    );
    const statusPath = sign.statusPath(lead.id);
    const first = await site!.page(`${statusPath}/received`);
    expect(first.response.status).toBe(200);
    expect(first.response.headers.get("cache-control")).toBe("private, no-store");
    expect(first.response.headers.get("referrer-policy")).toBe("no-referrer");
    const { main, inMain } = first;
    expect(inMain.getByRole("heading", { level: 1 }).textContent).toBe(QUOTE_TOASTS.emergency.title);
    const text = textOf(main);
    expect(text).toContain("$900 - $4,500");
    expect(text).toContain(QUOTE_CONFIRMATION.variesNote);
    expect(text).toContain(EMERGENCY_CONFIRMATION.lines);
    expect(text).not.toMatch(/within 24 hours/);
    expect(text).not.toMatch(ARRIVAL_PROMISE);
    expect(text.indexOf(DANGER_FIRST.hurt)).toBeLessThan(text.indexOf(DANGER_FIRST.lines));
    expect(text.indexOf(DANGER_FIRST.lines)).toBeLessThan(text.indexOf(lead.reference!));
    expect(main.querySelector("a")!.getAttribute("href")).toBe("tel:+15125550142");
    expect(main.querySelector("a")!.textContent).toBe(HOTLINE.text);
    const receipt = main.querySelector("[data-testid=lead-receipt]")!;
    expect(receipt.textContent).toContain(lead.reference);
    expect(inMain.getByRole("link", { name: RECEIPT_COPY.track }).getAttribute("href")).toBe(statusPath);
    // No e-mail provider here: the page says to keep the link.
    expect(text).toContain(RECEIPT_COPY.keep);
    const again = await site!.page(`${statusPath}/received`);
    expect(textOf(again.main)).toBe(text);
  });

  it("a Miami emergency quote offered to three crews: who has it now, and each crew with its own number, never an arrival", async () => {
    const now = Date.now();
    const pros = ["Brickell Tree Pros", "Coral Canopy", "Key Biscayne Arbor"].map((name, i) => ({
      id: `lp-mia-${i}`,
      name,
      slug: `lp-mia-${i}`,
      phone: `(305) 555-010${i}`,
      rating: "4.8",
      reviewCount: 10,
      distanceMiles: 1 + i,
    }));
    const { lead } = await site!.store.leads.create(
      "quote",
      {
        ...validQuote(),
        address: "200 Biscayne Blvd Way, Miami, FL 33131",
        estimatedCost: "$900 - $4,500",
        matchedBusinesses: pros,
      },
      {
        sourcePage: "/",
        urgency: "emergency",
        routing: initialRouting(
          pros.map((p) => ({
            businessId: p.id,
            name: p.name,
            slug: p.slug,
            phone: p.phone,
            timeZone: "America/New_York",
          })),
          "emergency",
          now,
        ),
      },
    );
    await site!.store.leads.mutate(lead.id, (l) => ({
      ...l,
      timeZone: "America/New_York",
      place: { label: "Miami, FL 33131", zip: "33131", lat: 25.77, lng: -80.19 },
    }));
    const { main, inMain } = await site!.page(`${sign.statusPath(lead.id)}/received`);
    const text = textOf(main);
    expect(inMain.getByTestId("offers-now").textContent).toBe(
      "Offered to 3 crews near 33131 that take emergencies now; each has 10 minutes to answer.",
    );
    expect(text.indexOf(DANGER_FIRST.hurt)).toBeLessThan(text.indexOf("Offered to 3 crews"));
    expect(text).not.toMatch(ARRIVAL_PROMISE);
    const offered = inMain.getByRole("region", { name: QUOTE_CONFIRMATION.offeredTo });
    expect(offered.querySelectorAll("li")).toHaveLength(3);
    expect(inMain.getByRole("link", { name: "Call Brickell Tree Pros at (305) 555-0100" }).getAttribute("href")).toBe(
      "tel:+13055550100",
    );
  });

  it("an audit lists the next steps; a booking names the business and the way back", async () => {
    const { lead: audit } = await site!.store.leads.create("audit", validAudit(), { sourcePage: "/" });
    const a = await site!.page(`${sign.statusPath(audit.id)}/received`);
    expect(a.inMain.getByRole("heading", { level: 1 }).textContent).toBe(AUDIT_TOASTS.success.title);
    for (const step of AUDIT_CONFIRMATION.nextSteps) expect(textOf(a.main)).toContain(step);

    const { lead: booking } = await site!.store.leads.create(
      "booking",
      { ...validBooking("lp-2"), businessName: "O'Neil & Sons <Trees>", businessSlug: "oneil-and-sons" },
      { sourcePage: "/", urgency: "routine", routing: initialRouting([], "routine", Date.now()) },
    );
    const b = await site!.page(`${sign.statusPath(booking.id)}/received`);
    expect(b.inMain.getByRole("heading", { level: 1 }).textContent).toBe(BOOKING_TOASTS.success.title);
    expect(textOf(b.main)).toContain("O'Neil & Sons <Trees>");
    expect(b.main.querySelector('a[href="/directory/oneil-and-sons"]')).not.toBeNull();
  });

  it("a changed signature opens nothing (404)", async () => {
    const { lead } = await site!.store.leads.create("audit", validAudit(), { sourcePage: "/" });
    const path = sign.statusPath(lead.id);
    const changed = await site!.page(`${path.slice(0, -1)}${path.endsWith("A") ? "B" : "A"}/received`);
    expect(changed.response.status).toBe(404);
    expect(changed.inMain.getByRole("heading", { level: 1 }).textContent).toBe("This link isn't valid");
  });
});

describe.skipIf(!site)("the review form's page (/forms/review/{id})", () => {
  it("the form again with what was typed and the messages; after a stored review, the thanks and the way back", async () => {
    await site!.store.businesses.upsert(testBusiness("lp-rv", { name: "Balcones Canopy Works", slug: "balcones" }));
    const id = await site!.store.flashes.save({
      path: "/forms/review/lp-rv",
      status: 422,
      values: { customerName: " ", customerEmail: "nope", rating: "4", reviewText: "<b>x</b>" },
      errors: { customerName: "Please enter your name", customerEmail: "Please enter a valid email" },
    });
    const { response, main, document } = await site!.page(`/forms/review/lp-rv?form=${id}`);
    expect(response.status).toBe(422);
    const form = main.querySelector("form")!;
    expect(form.getAttribute("action")).toBe("/api/businesses/lp-rv/reviews");
    const stars = [...form.querySelectorAll<HTMLInputElement>('input[type="radio"][name="rating"]')];
    expect(stars).toHaveLength(5);
    expect(stars.find((s) => s.checked)?.value).toBe("4");
    expect((document.getElementById("review-reviewText") as HTMLTextAreaElement).value).toBe("<b>x</b>");
    expect(main.querySelector("b")).toBeNull();
    expect(document.getElementById("review-customerEmail")!.getAttribute("aria-invalid")).toBe("true");
    expect(textOf(main)).toContain("Please enter a valid email");

    const done = await site!.store.flashes.save({
      path: "/forms/review/lp-rv",
      status: 200,
      notice: REVIEW_TOASTS.success.description,
    });
    const thanks = await site!.page(`/forms/review/lp-rv?form=${done}`);
    expect(thanks.inMain.getByRole("heading", { level: 1 }).textContent).toBe(REVIEW_TOASTS.success.title);
    expect(thanks.inMain.getByRole("link", { name: "Back to Balcones Canopy Works" }).getAttribute("href")).toBe(
      "/directory/balcones#reviews",
    );
    expect((await site!.fetch("/forms/review/nobody")).status).toBe(404);
  });
});
