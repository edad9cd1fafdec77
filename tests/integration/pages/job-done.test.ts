/**
 * After a pro accepted, against the built site: the homeowner's status page offers "The job
 * is done" (a form post to its own address + /done, no script), shows what that post did,
 * and then the link to review the pro; the review invitation's page before the job's time
 * says when instead of showing its form, and links back to the request page. Once a pro holds
 * the job with a day to go by, the page offers the visit as an .ics file.
 */
import { afterAll, describe, expect, it } from "vitest";
import { applyComplete, initialRouting } from "../../../netlify/lib/delivery/routing.ts";
import { answerLead } from "../../../netlify/lib/delivery/progress.ts";
import { signer } from "../../../netlify/lib/delivery/signing.ts";
import { siteHarness } from "../../helpers/site.ts";
import { testBusiness, validBooking, validFindPros } from "../../helpers/functions.ts";

const SECRET = "job-done-page-secret-0123456789abcdefgh";
const site = await siteHarness("job-done", { LINK_SIGNING_SECRET: SECRET });
afterAll(() => site?.stop());

/** A booked day ten days from now: the job's time is after it. */
const BOOKED = new Date(Date.now() + 10 * 86_400_000).toISOString().slice(0, 10);
const BOOKED_DAY = new Intl.DateTimeFormat("en-US", {
  timeZone: "UTC",
  weekday: "short",
  month: "short",
  day: "numeric",
}).format(new Date(`${BOOKED}T12:00:00Z`));

describe.skipIf(!site)("the job done and the review, on the homeowner's pages", () => {
  const sign = signer(SECRET);
  const pro = (n: number) => ({ businessId: `jd-${n}`, name: `Pro ${n} Trees`, slug: `jd-pro-${n}` });

  async function offered(type: "booking" | "find-pros", n = 1) {
    for (let i = 1; i <= n; i++)
      await site!.store.businesses.upsert(testBusiness(`jd-${i}`, { name: `Pro ${i} Trees` }));
    const data =
      type === "booking"
        ? { ...validBooking("jd-1"), preferredDate: BOOKED }
        : { ...validFindPros(), location: "78701", serviceType: "Tree Removal" };
    const { lead } = await site!.store.leads.create(type, data, {
      sourcePage: "/",
      urgency: "routine",
      routing: initialRouting(
        Array.from({ length: n }, (_, i) => pro(i + 1)),
        "routine",
        Date.now(),
      ),
    });
    return { lead, statusPath: sign.statusPath(lead.id) };
  }
  const accept = (leadId: string, businessId = "jd-1") =>
    answerLead(site!.store, leadId, businessId, { kind: "accept" }, Date.now(), async () => {});

  it("shows nothing of it before a pro accepted; then one form, posting to the page's own /done", async () => {
    const { lead, statusPath } = await offered("booking");
    const before = await site!.page(statusPath);
    expect(before.inMain.queryByRole("button", { name: "The job is done" })).toBeNull();
    expect(before.inMain.queryByRole("link", { name: /Add the visit to your calendar/ })).toBeNull();
    await accept(lead.id);
    const { inMain } = await site!.page(statusPath);
    // The booked day, accepted: the visit as an .ics file, served by its function.
    const ics = inMain.getByRole("link", { name: "Add the visit to your calendar (.ics)" });
    expect(ics.getAttribute("href")).toBe(`${statusPath}/calendar.ics`);
    expect(ics.hasAttribute("download")).toBe(true);
    const file = await site!.fetch(`${statusPath}/calendar.ics`);
    expect(file.status).toBe(200);
    expect(file.headers.get("content-type")).toBe("text/calendar; charset=utf-8");
    expect(await file.text()).toContain(`DTSTART;VALUE=DATE:${BOOKED.replaceAll("-", "")}`);
    const button = inMain.getByRole("button", { name: "The job is done" });
    const form = button.closest("form")!;
    expect([form.getAttribute("method"), form.getAttribute("action")]).toEqual(["post", `${statusPath}/done`]);
    expect(form.querySelector("input[type=hidden][name=businessId]")?.getAttribute("value")).toBe("jd-1");
    expect(form.textContent).toContain("Pro 1 Trees");
    expect(inMain.queryByRole("link", { name: /^Review / })).toBeNull();
  });

  it("asks which pro when several accepted", async () => {
    const { lead, statusPath } = await offered("find-pros", 2);
    await accept(lead.id, "jd-1");
    await accept(lead.id, "jd-2");
    const { inMain } = await site!.page(statusPath);
    const choice = inMain.getByRole("group", { name: "Which pro did the job?" });
    expect([...choice.querySelectorAll("input[type=radio]")].map((r) => r.getAttribute("value"))).toEqual([
      "jd-1",
      "jd-2",
    ]);
  });

  it("after it: the post's notice and the link to review the pro, which opens its form", async () => {
    const { lead, statusPath } = await offered("booking");
    await accept(lead.id);
    await site!.store.leads.mutate(lead.id, (l) => applyComplete(l, "jd-1", Date.now()).lead);
    const flash = await site!.store.flashes.save({
      path: statusPath,
      status: 200,
      form: "done",
      notice: "Thanks for letting us know. You can review Pro 1 Trees now with the link below.",
    });
    const { inMain } = await site!.page(`${statusPath}?form=${flash}`);
    expect(inMain.getByRole("status").textContent).toContain("You can review Pro 1 Trees now");
    expect(inMain.queryByRole("button", { name: "The job is done" })).toBeNull();
    const link = inMain.getByRole("link", { name: "Review Pro 1 Trees" }).getAttribute("href")!;
    expect(link).toMatch(new RegExp(`^/review/${lead.id}\\.jd-1\\.`));
    const review = await site!.page(link);
    expect(review.response.status).toBe(200);
    expect(review.document.querySelector("input[name=rating]")).not.toBeNull();
  });

  it("the review invitation before the job's day: when, and the way to mark it done; no form", async () => {
    const { lead, statusPath } = await offered("booking");
    await accept(lead.id);
    const early = await site!.page(sign.reviewPath(lead.id, "jd-1", Date.now() + 86_400_000));
    expect(early.response.status).toBe(200);
    expect(early.inMain.getByRole("heading", { level: 1 }).textContent).toBe("How did Pro 1 Trees do?");
    expect(early.main.textContent).toContain(
      `once the job is done: after ${BOOKED_DAY}, or as soon as you mark it done`,
    );
    expect(early.main.querySelector("form")).toBeNull();
    expect(early.inMain.getByRole("link", { name: "Your request page" }).getAttribute("href")).toBe(statusPath);
  });
});
