/**
 * A business's answer page (/respond/{token}) against the built site: its private headers
 * and its own script-free policy that still lets the number's `ping` through, the job and the
 * customer (first name and area before accepting; name, number, e-mail and address after),
 * the emergency's "Accept and call" and the number first after it, the forms posting back to
 * the page, what a business that declined or gave the job back still sees, and what a post's
 * flash shows there (tests/integration/delivery.test.ts drives the whole answer).
 */
import { within } from "@testing-library/dom";
import { afterAll, describe, expect, it } from "vitest";
import { withdrawLead } from "../../../netlify/lib/delivery/accepted.ts";
import { answerLead } from "../../../netlify/lib/delivery/progress.ts";
import { WITHDRAW_REASONS, initialRouting } from "../../../netlify/lib/delivery/routing.ts";
import { signer } from "../../../netlify/lib/delivery/signing.ts";
import { reportLead } from "../../../netlify/lib/delivery/report.ts";
import { REPORT_REASONS } from "../../../src/lib/lead-routing.ts";
import { siteHarness } from "../../helpers/site.ts";
import { testBusiness, validBooking } from "../../helpers/functions.ts";

const SECRET = "answer-page-secret-0123456789abcdefghij";
const site = await siteHarness("answer", { LINK_SIGNING_SECRET: SECRET });
afterAll(() => site?.stop());

describe.skipIf(!site)("the answer page", () => {
  const sign = signer(SECRET);

  async function offer(urgency: "emergency" | "routine") {
    const business = testBusiness("an-1", { name: "Miller Family Tree Works", slug: "miller-family" });
    await site!.store.businesses.upsert(business);
    const { lead } = await site!.store.leads.create(
      "booking",
      { ...validBooking("an-1"), urgency, description: "<b>Oak</b> over the roof" },
      {
        sourcePage: "/",
        urgency,
        // As the booking function keeps it from the property address.
        place: { label: "Austin, TX", lat: 30.27, lng: -97.74 },
        routing: initialRouting(
          [{ businessId: "an-1", name: business.name, slug: business.slug, distanceMiles: 3.2 }],
          urgency,
          Date.now(),
        ),
      },
    );
    return { lead, path: sign.answerPath(lead.id, "an-1", Date.now() + 86_400_000) };
  }

  /** What a business may see only once it holds the job. */
  const CONTACTS = /Booker|555-0177|bob@example\.com|Pecan/;
  const answer = (leadId: string, a: Parameters<typeof answerLead>[3]) =>
    answerLead(site!.store, leadId, "an-1", a, Date.now(), async () => {});

  it("shows the job and the customer's first name and area, no way to reach them; private, script-free", async () => {
    const { lead, path } = await offer("emergency");
    const { response, document, main, inMain, html } = await site!.page(path);
    expect(response.status).toBe(200);
    expect(response.headers.get("cache-control")).toBe("private, no-store");
    expect(response.headers.get("x-robots-tag")).toBe("noindex, nofollow");
    expect(response.headers.get("referrer-policy")).toBe("same-origin");
    const csp = response.headers.get("content-security-policy")!;
    // Its own policy, enforced beside the site's: no script at all, connections (ping) to itself only.
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("connect-src 'self'");
    expect(csp).toContain("form-action 'self'");
    expect(document.querySelectorAll("script:not([type='application/ld+json'])")).toHaveLength(0);
    expect(html).not.toContain("<style");
    expect(document.querySelector('link[rel="canonical"]')).toBeNull();
    // The task layout: the brand and the phone, no navigation.
    expect(document.querySelector("header nav")).toBeNull();
    expect(document.querySelector("header a[href='tel:+15125550142']")).not.toBeNull();

    expect(inMain.getByRole("heading", { level: 1 }).textContent?.replace(/\s+/g, " ")).toBe(
      `Emergency job ${lead.reference}`,
    );
    const job = main.querySelector("table")!;
    expect(job.textContent).toContain("3.2 mi from you");
    expect(job.textContent).toContain("Austin, TX");
    expect(job.textContent).toContain("<b>Oak</b> over the roof");
    expect(job.querySelector("b")).toBeNull();
    // The customer is "Bob" near Austin: no number, e-mail, street or call until the business accepts.
    expect(main.textContent).toContain("Bob");
    expect(main.textContent).not.toMatch(CONTACTS);
    expect(main.querySelector("a[href^='tel:'], a[href^='mailto:'], [ping]")).toBeNull();
    expect(main.textContent).toContain("Their phone, e-mail and street address come with Accept");
    const forms = main.querySelectorAll("form");
    // Accept, Decline, Report this lead, and the business's availability.
    expect([...forms].map((f) => [f.getAttribute("method"), f.getAttribute("action")])).toEqual([
      ["post", path],
      ["post", path],
      ["post", path],
      ["post", path],
    ]);
    // The business's availability, one tap each (tomorrow filled in), with no account.
    const capacity = inMain.getByRole("button", { name: "Taking storm jobs" }).closest("form")!;
    expect((capacity.querySelector("input[name=action]") as HTMLInputElement | null)?.value).toBe("capacity");
    expect(within(capacity).getByRole("button", { name: "Fully booked until this day" })).toBeTruthy();
    expect((capacity.querySelector("input[type=date][name=until]") as HTMLInputElement | null)?.value).toMatch(
      /^\d{4}-\d{2}-\d{2}$/,
    );
    expect(within(capacity).queryByRole("button", { name: "Back to normal" })).toBeNull();
    // An emergency's Accept calls in the same tap.
    const accept = inMain.getByRole("button", { name: "Accept and call Bob" });
    expect([accept.getAttribute("name"), accept.getAttribute("value")]).toEqual(["then", "call"]);
    expect(inMain.queryByRole("button", { name: "Accept this job" })).toBeNull();
    expect(inMain.getAllByRole("radio")).toHaveLength(4 + REPORT_REASONS.length);
    const report = inMain.getByRole("button", { name: "Report this lead" }).closest("form")!;
    expect(
      within(report)
        .getAllByRole("radio")
        .map((r) => r.getAttribute("value")),
    ).toEqual(REPORT_REASONS.map((r) => r.value));
    expect(report.querySelector("input[name='action']")?.getAttribute("value")).toBe("report");
  });

  it("after accepting: the customer's name, number, e-mail and address, the call, and a way to give the job back", async () => {
    const { lead, path } = await offer("routine");
    const before = await site!.page(path);
    expect(before.inMain.getByRole("button", { name: "Accept this job" })).toBeTruthy();
    await answer(lead.id, { kind: "accept", window: "Tomorrow 8-10 AM" });
    const { main, inMain } = await site!.page(path);
    for (const detail of ["Bob Booker", "512-555-0177", "42 Pecan Lane, Austin TX"])
      expect(main.textContent).toContain(detail);
    expect(inMain.getByRole("link", { name: "bob@example.com" }).getAttribute("href")).toBe("mailto:bob@example.com");
    const call = inMain.getByRole("link", { name: /Call the customer/ });
    expect(call.getAttribute("href")).toBe("tel:+15125550177");
    expect(call.getAttribute("ping")).toBe(`${path}/call`);
    expect(inMain.queryByRole("button", { name: /Accept/ })).toBeNull();
    const giveBack = inMain.getByRole("button", { name: "Give this job back" }).closest("form")!;
    expect([giveBack.getAttribute("method"), giveBack.getAttribute("action")]).toEqual(["post", path]);
    expect(
      within(giveBack)
        .getAllByRole("radio")
        .map((r) => r.getAttribute("value")),
    ).toEqual(WITHDRAW_REASONS.map((r) => r.value));
  });

  it("after Accept and call, the customer's number is the first thing on the page", async () => {
    const { lead, path } = await offer("emergency");
    await answer(lead.id, { kind: "accept" });
    const flash = await site!.store.flashes.save({ path, status: 200, notice: "You accepted this job.", form: "call" });
    const { main } = await site!.page(`${path}?form=${flash}`);
    const first = main.querySelector("a, button, h1");
    expect(first?.tagName).toBe("A");
    expect(first?.getAttribute("href")).toBe("tel:+15125550177");
    expect(first?.getAttribute("ping")).toBe(`${path}/call`);
    expect(first?.textContent?.replace(/\s+/g, " ")).toBe("Call Bob now: 512-555-0177");
    // Only once: the customer section's button is that one.
    expect(main.querySelectorAll("a[href^='tel:']")).toHaveLength(1);
  });

  it("a business that declined, or gave the job back, sees no way to reach the customer", async () => {
    const declined = await offer("routine");
    await answer(declined.lead.id, { kind: "decline", reason: "too-busy" });
    const d = await site!.page(declined.path);
    expect(d.main.textContent).toContain("Declined");
    expect(d.main.textContent).not.toMatch(CONTACTS);
    expect(d.main.querySelector("a[href^='tel:'], a[href^='mailto:'], [ping]")).toBeNull();
    // Nothing left to answer: the forms left report the lead and state the business's
    // availability, which reaches nobody.
    expect(answerForms(d.main)).toEqual(["report"]);

    const withdrawn = await offer("routine");
    await answer(withdrawn.lead.id, { kind: "accept" });
    expect((await site!.page(withdrawn.path)).main.textContent).toContain("Bob Booker");
    await withdrawLead(site!.store, withdrawn.lead.id, "an-1", "cant-make-it", Date.now());
    const w = await site!.page(withdrawn.path);
    expect(w.main.textContent).toContain("You gave this job back");
    expect(w.main.textContent).toContain("Can't make it after all");
    expect(w.main.textContent).not.toMatch(CONTACTS);
    expect(w.main.querySelector("a[href^='tel:'], a[href^='mailto:'], [ping]")).toBeNull();
    expect(answerForms(w.main)).toEqual(["report"]);

    // Reported: the page says so, and offers no second report.
    await reportLead(site!.store, withdrawn.lead.id, "an-1", "bad-contact", Date.now(), async () => {});
    const r = await site!.page(withdrawn.path);
    expect(r.main.textContent).toContain("You reported this lead");
    expect(r.main.textContent).toContain("(bad contact details)");
    expect(r.main.textContent).not.toContain("You gave this job back");
    expect(answerForms(r.main)).toEqual([]);
  });

  it("shows a post's flash: the notice, or the form's message with what was typed", async () => {
    const { path } = await offer("routine");
    const refused = await site!.store.flashes.save({
      path,
      status: 422,
      form: "accept",
      values: { window: '"><script>x</script>', price: "a".repeat(120) },
      errors: { price: "Keep the price under 100 characters." },
      problem: "Keep the price under 100 characters.",
    });
    const page = await site!.page(`${path}?form=${refused}`);
    expect(page.response.status).toBe(422);
    expect(page.inMain.getByRole("alert").textContent).toBe("Keep the price under 100 characters.");
    const price = page.document.getElementById("answer-price")!;
    expect(price.getAttribute("aria-invalid")).toBe("true");
    expect(price.getAttribute("aria-describedby")).toBe("answer-price-error");
    // What was typed is the field's value, never markup.
    expect((page.document.getElementById("answer-window") as HTMLInputElement).value).toBe('"><script>x</script>');
    expect(page.document.querySelectorAll("script")).toHaveLength(0);

    const done = await site!.store.flashes.save({ path, status: 200, notice: "Thanks for letting us know." });
    expect((await site!.page(`${path}?form=${done}`)).inMain.getByRole("status").textContent).toBe(
      "Thanks for letting us know.",
    );
    // Another page's flash shows nothing here.
    const other = await site!.store.flashes.save({ path: "/respond/other", status: 409, problem: "Not here" });
    const plain = await site!.page(`${path}?form=${other}`);
    expect(plain.response.status).toBe(200);
    expect(plain.html).not.toContain("Not here");
  });

  it("a changed link is 404, an expired one 410, each with the way to call", async () => {
    const { lead, path } = await offer("routine");
    const changed = await site!.page(`${path.slice(0, -1)}${path.endsWith("A") ? "B" : "A"}`);
    expect(changed.response.status).toBe(404);
    expect(changed.inMain.getByRole("heading", { level: 1 }).textContent).toBe("This link isn't valid");
    expect(changed.inMain.getByRole("link", { name: /Call/ }).getAttribute("href")).toBe("tel:+15125550142");
    const expired = await site!.page(sign.answerPath(lead.id, "an-1", Date.now() - 1000));
    expect(expired.response.status).toBe(410);
    expect(expired.inMain.getByRole("heading", { level: 1 }).textContent).toBe("This link has expired");
  });
});

/** The page's forms other than the availability form (action=capacity), by their action field. */
function answerForms(main: Element): string[] {
  return [...main.querySelectorAll("form")]
    .map((f) => f.querySelector<HTMLInputElement>("input[name=action]")?.value ?? "")
    .filter((action) => action !== "capacity");
}
