/**
 * Calendars of accepted jobs, in-process on a real Redis: GET /calendar/:token (a business's
 * private feed; its URL shown on /owner), POST /owner/calendar (a new URL, the old one retired)
 * and GET /requests/:leadId/:sig/calendar.ics (the homeowner's accepted window). The feed
 * parses with ical.js and lists the accepted window in the job's time zone; a job declined,
 * given back or naming no day is not in it; a changed or retired URL opens nothing.
 */
import ICAL from "ical.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  CALENDAR_NOT_FOUND,
  NO_WINDOW,
  calendarFeedHandler,
  feedUrl,
  visitCalendarHandler,
} from "../../../netlify/lib/delivery/calendar.ts";
import { answerLead } from "../../../netlify/lib/delivery/progress.ts";
import { initialRouting, type Candidate } from "../../../netlify/lib/delivery/routing.ts";
import { signer } from "../../../netlify/lib/delivery/signing.ts";
import { CALENDAR_RENEWED, ownerCalendarHandler } from "../../../netlify/lib/owners/calendar.ts";
import { calendarHrefOf } from "../../../netlify/lib/page-data/delivery-status.ts";
import { loadOverview } from "../../../netlify/lib/page-data/owner.ts";
import { parseEnv } from "../../../src/lib/env.ts";
import {
  ORIGIN,
  expectFlash,
  formRequest,
  functionsHarness,
  nextIp,
  ownedBusiness,
  validFindPros,
} from "../../helpers/functions.ts";

const SECRET = "calendar-fn-secret-0123456789abcdefghij";
const h = await functionsHarness("calendar");
afterAll(async () => {
  await h?.teardown();
});

describe.skipIf(!h)("calendars of accepted jobs", () => {
  const env = parseEnv({ RATE_LIMIT_PER_MINUTE: "1000", LINK_SIGNING_SECRET: SECRET, SITE_URL: ORIGIN });
  const sign = signer(SECRET);
  const store = () => h!.store;
  const deps = () => ({ store, env });
  let cookie = "";

  const get = (handler: ReturnType<typeof calendarFeedHandler>, url: string) =>
    handler(new Request(url.startsWith("http") ? url : `${ORIGIN}${url}`), nextIp());
  const events = (text: string) =>
    new ICAL.Component(ICAL.parse(text)).getAllSubcomponents("vevent").map((v) => new ICAL.Event(v));
  const pro = (n: number): Candidate => ({ businessId: `cal-${n}`, name: `Cal Pro ${n}`, slug: `cal-pro-${n}` });

  beforeAll(async () => {
    ({ cookie } = await ownedBusiness(store(), env, "cal-1", { name: "Cal Pro 1", slug: "cal-pro-1" }));
  });

  /** A find-pros request in Chicago offered to `pros` at `at`. */
  async function lead(pros: Candidate[], at: number) {
    const { lead } = await store().leads.create(
      "find-pros",
      { ...validFindPros(), location: "60601", serviceType: "Tree Removal" },
      {
        sourcePage: "/find-a-tree-service",
        urgency: "routine",
        timeZone: "America/Chicago",
        routing: initialRouting(pros, "routine", at),
      },
    );
    return lead;
  }

  it("the feed lists the jobs the business holds with their windows, and nothing else", async () => {
    // Thu Dec 3 2026, 10:00 in Chicago (CST, UTC-6).
    const at = Date.parse("2026-12-03T16:00:00Z");
    const held = await lead([pro(1)], at);
    await answerLead(
      store(),
      held.id,
      "cal-1",
      { kind: "accept", window: "Sat 8-10 AM", price: "$650" },
      at + 60_000,
      async () => {},
    );
    const allDay = await lead([pro(1)], at);
    await answerLead(store(), allDay.id, "cal-1", { kind: "accept", window: "Dec 14-15" }, at + 60_000, async () => {});
    const vague = await lead([pro(1)], at);
    await answerLead(
      store(),
      vague.id,
      "cal-1",
      { kind: "accept", window: "As soon as we can" },
      at + 60_000,
      async () => {},
    );
    const declined = await lead([pro(1)], at);
    await answerLead(
      store(),
      declined.id,
      "cal-1",
      { kind: "decline", reason: "too-busy" },
      at + 60_000,
      async () => {},
    );

    const url = await feedUrl(store(), env, "cal-1");
    expect(url).toMatch(new RegExp(`^${ORIGIN}/calendar/cal-1\\.[A-Za-z0-9_-]{24}\\.[A-Za-z0-9_-]{22}\\.ics$`));
    // Asked again: the same link.
    expect(await feedUrl(store(), env, "cal-1")).toBe(url);

    const res = await get(calendarFeedHandler(deps()), url);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/calendar; charset=utf-8");
    expect(res.headers.get("cache-control")).toBe("private, no-store");
    const text = await res.text();
    expect(text).toMatch(/^BEGIN:VCALENDAR\r\n/);
    const found = events(text);
    const byLead = (id: string) => found.find((e) => e.uid.includes(id));
    expect(found).toHaveLength(2);
    const job = byLead(held.id)!;
    // Sat Dec 5, 8-10 AM in Chicago.
    expect(job.startDate.toJSDate().toISOString()).toBe("2026-12-05T14:00:00.000Z");
    expect(job.endDate.toJSDate().toISOString()).toBe("2026-12-05T16:00:00.000Z");
    expect(job.description).toContain("Window: Sat 8-10 AM");
    expect(job.description).toContain("Price: $650");
    const days = byLead(allDay.id)!;
    expect([days.startDate.toString(), days.endDate.toString()]).toEqual(["2026-12-14", "2026-12-16"]);
    expect(byLead(vague.id)).toBeUndefined();
    expect(byLead(declined.id)).toBeUndefined();

    // HEAD answers without a body; another method is refused.
    const head = await calendarFeedHandler(deps())(new Request(url, { method: "HEAD" }), nextIp());
    expect(head.status).toBe(200);
    expect(await head.text()).toBe("");
    const put = await calendarFeedHandler(deps())(new Request(url, { method: "POST" }), nextIp());
    expect(put.status).toBe(405);
  });

  it("a changed link opens nothing; a new link from /owner retires the old one", async () => {
    const url = await feedUrl(store(), env, "cal-1");
    const path = new URL(url).pathname;
    const [businessId, key, sig] = path.slice("/calendar/".length).split(".");
    for (const bad of [
      `/calendar/cal-2.${key}.${sig}.ics`,
      `/calendar/${businessId}.${key!.replace(/^./, (c) => (c === "A" ? "B" : "A"))}.${sig}.ics`,
      `/calendar/${businessId}.${key}.${sig!.replace(/^./, (c) => (c === "A" ? "B" : "A"))}.ics`,
      `/calendar/${businessId}.${key}.${sig}.txt`,
    ]) {
      const res = await get(calendarFeedHandler(deps()), bad);
      expect(res.status, bad).toBe(404);
      expect(await res.json()).toMatchObject({ error: CALENDAR_NOT_FOUND });
    }

    // The owner page shows the link and the form that replaces it.
    const page = await loadOverview(new Request(`${ORIGIN}/owner`, { headers: { cookie } }), { store, env });
    expect(page.view?.calendar).toEqual({ url, action: "/owner/calendar" });

    const res = await ownerCalendarHandler(deps())(
      formRequest("/owner/calendar", [], { origin: ORIGIN, cookie }),
      nextIp(),
    );
    expect(await expectFlash(store(), res, "/owner")).toMatchObject({ status: 200, notice: CALENDAR_RENEWED });
    const renewed = await feedUrl(store(), env, "cal-1");
    expect(renewed).not.toBe(url);
    expect((await get(calendarFeedHandler(deps()), url)).status).toBe(404);
    expect((await get(calendarFeedHandler(deps()), renewed)).status).toBe(200);

    // Signed out: nothing changes, back to the page.
    const out = await ownerCalendarHandler(deps())(formRequest("/owner/calendar", [], { origin: ORIGIN }), nextIp());
    expect(out.status).toBe(303);
    expect(await feedUrl(store(), env, "cal-1")).toBe(renewed);
  });

  it("the homeowner's status page offers the accepted window as an .ics file", async () => {
    const at = Date.parse("2026-12-03T16:00:00Z");
    const l = await lead([pro(1), pro(2)], at);
    const statusPath = sign.statusPath(l.id);
    expect(calendarHrefOf(l, statusPath)).toBeUndefined();
    const none = await get(visitCalendarHandler(deps()), `${statusPath}/calendar.ics`);
    expect(none.status).toBe(404);
    expect(await none.json()).toMatchObject({ error: NO_WINDOW });

    const { lead: accepted } = (await answerLead(
      store(),
      l.id,
      "cal-1",
      { kind: "accept", window: "Tomorrow 1-3 PM" },
      at + 60_000,
      async () => {},
    ))!;
    expect(calendarHrefOf(accepted, statusPath)).toBe(`${statusPath}/calendar.ics`);
    const res = await get(visitCalendarHandler(deps()), `${statusPath}/calendar.ics`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/calendar; charset=utf-8");
    expect(res.headers.get("content-disposition")).toBe(`attachment; filename="treeline-${l.reference}.ics"`);
    const [event, ...rest] = events(await res.text());
    expect(rest).toEqual([]);
    expect(event!.summary).toBe("Tree service: Cal Pro 1");
    // Fri Dec 4, 1-3 PM in Chicago.
    expect(event!.startDate.toJSDate().toISOString()).toBe("2026-12-04T19:00:00.000Z");
    expect(event!.endDate.toJSDate().toISOString()).toBe("2026-12-04T21:00:00.000Z");

    const tampered = `${statusPath.slice(0, -1)}${statusPath.endsWith("A") ? "B" : "A"}/calendar.ics`;
    expect((await get(visitCalendarHandler(deps()), tampered)).status).toBe(404);
  });
});
