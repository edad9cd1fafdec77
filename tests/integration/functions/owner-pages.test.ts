/**
 * The owner's pages and the operator's change history: the pages (src/pages/owner/*, on
 * demand) against the built site on a real Redis (tests/helpers/site.ts), their posts through
 * the functions' handlers in-process on the same store. The session gate, the overview's
 * leads (from the per-business index, with Answer links), the profile form (hours to the
 * public page and its JSON-LD; a refused post back to the page with the messages, 422, and
 * nothing changed), photos (metadata stripped, resized, type sniffed), and rollback.
 */
import sharp from "sharp";
import type { Endpoint } from "../../../netlify/lib/http.ts";
import { CROSS_SITE_ERROR, MAX_BODY_LIMIT } from "../../../netlify/lib/http.ts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { memoryPhotoStore } from "../../../netlify/lib/blobs.ts";
import { loadBusinessPage } from "../../../netlify/lib/directory-page.ts";
import { ownerCredentialsHandler } from "../../../netlify/lib/owners/credentials.ts";
import { ownerReviewsHandler } from "../../../netlify/lib/owners/reviews.ts";
import { OWNER_PAGE_HEADERS } from "../../../netlify/lib/owners/page.ts";
import { backfillBusinessLeads } from "../../../netlify/lib/owners/leads.ts";
import { CALENDAR_RENEWED, ownerCalendarHandler } from "../../../netlify/lib/owners/calendar.ts";
import { ownerProfileHandler, PROFILE_INVALID, PROFILE_UNCHANGED } from "../../../netlify/lib/owners/profile.ts";
import { PHOTO_MAX_SIDE, PHOTO_MESSAGES, ownerPhotosHandler } from "../../../netlify/lib/owners/photos.ts";
import { MAX_UPLOAD_BYTES, MAX_UPLOAD_LABEL, PHOTO_TEXT } from "../../../src/lib/photos.ts";
import { businessPhotoHandler } from "../../../netlify/lib/owners/photo-serve.ts";
import { listChanges } from "../../../netlify/lib/owners/changes.ts";
import { adminChangesHandler, adminRollbackHandler } from "../../../netlify/lib/admin/changes.ts";
import { CHANGE_NOT_FOUND, NOTHING_TO_ROLL_BACK, type AdminChangesReply } from "../../../src/lib/admin-changes.ts";
import { signInHandler, signOutHandler } from "../../../netlify/lib/owners/sign-in.ts";
import { keyspace } from "../../../netlify/lib/store/keys.ts";
import { businessJsonLd } from "../../../src/lib/jsonld.ts";
import { OWNER_SECTIONS } from "../../../src/lib/owner-links.ts";
import { FINISH_LISTING } from "../../../src/lib/owner-profile/checklist.ts";
import { HOLIDAYS_IGNORED, PROFILE_MESSAGES, PROFILE_SAVED } from "../../../src/lib/owner-profile/messages.ts";
import { parseEnv } from "../../../src/lib/env.ts";
import type { Delivery } from "../../../src/lib/schemas/lead.ts";
import {
  ORIGIN,
  formRequest,
  getRequest,
  jsonRequest,
  multipartRequest,
  nextIp,
  ownedBusiness as ownedBusinessFor,
  testBusiness,
  toEntries,
  validBooking,
} from "../../helpers/functions.ts";
import { foreignStyles } from "../../helpers/dist.ts";
import { siteHarness, type SitePage } from "../../helpers/site.ts";

const TOKEN = "owner-pages-admin-token-0123456789";
const SECRET = "owner-pages-link-secret-0123456789abcdef";
const site = await siteHarness("owner-pages", { LINK_SIGNING_SECRET: SECRET, ADMIN_TOKEN: TOKEN });
const env = parseEnv({
  RATE_LIMIT_PER_MINUTE: "1000",
  SITE_URL: ORIGIN,
  ADMIN_TOKEN: TOKEN,
  LINK_SIGNING_SECRET: SECRET,
});

/** A week of 8-to-5 weekdays as the profile form posts it. */
function profileFields(over: Record<string, string | string[]> = {}): [string, string][] {
  const base: Record<string, string | string[]> = {
    description: "Family-run tree care.",
    services: ["Tree Trimming", "Stump Grinding"],
    serviceAreas: "Austin\nRound Rock",
    website: "https://oak.example.com",
    phone: "(512) 555-0100",
    closedHolidays: ["Thanksgiving Day", "Christmas Day"],
    closedDate: ["2099-12-24", ""],
    closedNote: ["Christmas Eve", ""],
  };
  for (const d of ["monday", "tuesday", "wednesday", "thursday", "friday"]) {
    base[`${d}.mode`] = "open";
    base[`${d}.open`] = "08:00";
    base[`${d}.close`] = "17:00";
  }
  base["saturday.mode"] = "closed";
  base["sunday.mode"] = "closed";
  return toEntries({ ...base, ...over });
}

/** The page a post's 303 leads to (same site, same cookie), as the browser then shows it. */
async function follow(res: Response, cookie: string): Promise<SitePage> {
  expect(res.status).toBe(303);
  expect(await res.text()).toBe("");
  const location = res.headers.get("location")!;
  expect(location).toMatch(/^\/owner/);
  return site!.page(location, { headers: { cookie } });
}

/**
 * Never stored by a browser or the CDN, never indexed. A page fetched from the server lacks the
 * CDN's own header: npm start, like Netlify, keeps it to itself.
 */
const expectPrivate = (res: Response) => {
  const served = res.url !== "";
  for (const [name, value] of Object.entries(OWNER_PAGE_HEADERS))
    if (!(served && name === "netlify-cdn-cache-control")) expect(res.headers.get(name), name).toBe(value);
};

afterAll(() => site?.stop());

describe.skipIf(!site)("owner pages", () => {
  const photos = memoryPhotoStore();
  let n = 0;
  const purges: string[][] = [];
  const deps = {
    store: () => site!.store,
    env,
    photos: () => photos,
    purge: async (tags: string[]) => void purges.push(tags),
  };
  const store = () => site!.store;

  /** A fresh business with a signed-in owner: its id and the Cookie header. */
  const ownedBusiness = (over: Parameters<typeof testBusiness>[1] = {}) =>
    ownedBusinessFor(
      store(),
      env,
      `own-${process.pid}-${++n}`,
      { businessHours: { monday: "7:00 AM - 6:00 PM" }, images: [], ...over },
      { email: "Owner@Example.com" },
    );

  const post = (path: string, fields: [string, string][], cookie: string) =>
    formRequest(path, fields, { origin: ORIGIN, cookie });
  const postForm = (path: string, form: FormData, cookie: string) =>
    multipartRequest(path, form, { origin: ORIGIN, cookie, accept: "text/html" });
  const open = (path: string, cookie?: string) => site!.page(path, cookie ? { headers: { cookie } } : {});

  beforeAll(() => {
    purges.length = 0;
  });

  describe("the session gate", () => {
    it("answers the sign-in page (401, never cached, never indexed) without a cookie, on every owner page", async () => {
      for (const { path } of OWNER_SECTIONS) {
        const { response, html, document, inMain } = await open(path);
        expect(response.status, path).toBe(401);
        expectPrivate(response);
        expect(inMain.getByRole("heading", { level: 1 }).textContent).toBe("Sign in to manage your listing");
        // The way back in works without JavaScript: the directory's own search, by name.
        expect(html).toContain('<form method="get" action="/directory"');
        expect(document.querySelector('main input[name="q"]')).not.toBeNull();
        // The site's own layout (header with its navigation, footer), its one stylesheet.
        expect(document.querySelector("header nav")).not.toBeNull();
        expect(document.querySelector("footer")).not.toBeNull();
        expect(foreignStyles(document)).toEqual([]);
        expect(document.querySelector('meta[name="robots"]')?.getAttribute("content")).toBe("noindex, nofollow");
      }
    });

    it("shows the owner's sections with the current one marked, and a sign-out button", async () => {
      const { cookie } = await ownedBusiness({ name: "Miller Family Tree Works" });
      for (const { path, label } of OWNER_SECTIONS) {
        const { response, inMain, main } = await open(path, cookie);
        expect(response.status, path).toBe(200);
        expectPrivate(response);
        expect(main.textContent).toContain("Managing Miller Family Tree Works");
        const nav = inMain.getByRole("navigation", { name: "Your listing" });
        expect(nav.querySelector('[aria-current="page"]')?.textContent?.trim()).toBe(label);
        expect(nav.querySelector('form[method="post"][action="/owner/sign-out"] button')?.textContent?.trim()).toBe(
          "Sign out",
        );
      }
    });

    it("sends another site's post back to the page without doing it: the page says why (403), never cached", async () => {
      const { id, cookie } = await ownedBusiness();
      // Every page that takes a post; photos take multipart.
      const posts: [Endpoint, Request][] = [
        [ownerProfileHandler(deps), post("/owner/profile", profileFields(), cookie)],
        [ownerPhotosHandler(deps), postForm("/owner/photos", new FormData(), cookie)],
        [ownerCredentialsHandler(deps), post("/owner/credentials", [], cookie)],
        [ownerReviewsHandler(deps), post("/owner/reviews", [], cookie)],
      ];
      for (const [handler, req] of posts) {
        req.headers.set("origin", "https://evil.example");
        const res = await handler(req, nextIp());
        expectPrivate(res);
        const { response, inMain } = await follow(res, cookie);
        expect(response.status).toBe(403);
        expectPrivate(response);
        expect(inMain.getByRole("alert").textContent?.trim()).toBe(CROSS_SITE_ERROR);
      }
      expect((await store().businesses.get(id))!.description).toBe("General tree care.");
    });

    it("answers a form post that asks for JSON with a redirect to its page too: never JSON (found by the fuzzer)", async () => {
      const { id, cookie } = await ownedBusiness();
      const asksJson = (req: Request, over: Record<string, string> = {}) => {
        req.headers.set("accept", "application/json");
        for (const [name, value] of Object.entries(over)) req.headers.set(name, value);
        return req;
      };
      const refusals: [Endpoint, Request, string, number][] = [
        // Another site's post (403), on a page behind the session and on sign-out.
        [
          ownerProfileHandler(deps),
          asksJson(post("/owner/profile", profileFields(), cookie), { origin: "https://evil.example" }),
          "/owner/profile",
          403,
        ],
        [
          signOutHandler({ store, env }),
          asksJson(post("/owner/sign-out", [], cookie), { "sec-fetch-site": "same-site", origin: "" }),
          "/owner/sign-out",
          403,
        ],
        // Too long a post (413): the sign-in link's form goes to the sign-in page, not back to the link.
        [
          signInHandler({ store, env }),
          asksJson(post(`/owner/sign-in/${"a".repeat(43)}`, [["x", "y".repeat(20_000)]], "")),
          "/owner/sign-in",
          413,
        ],
        // The page's own refusal (a field to fix).
        [
          ownerProfileHandler(deps),
          asksJson(post("/owner/profile", profileFields({ website: "nope" }), cookie)),
          "/owner/profile",
          422,
        ],
      ];
      for (const [handler, req, page, status] of refusals) {
        const res = await handler(req, nextIp());
        expect(res.status).toBe(303);
        expect(res.headers.get("content-type")).toBeNull();
        expectPrivate(res);
        expect(new URL(res.headers.get("location")!, ORIGIN).pathname).toBe(page);
        const { response } = await follow(res, cookie);
        expect(response.status, page).toBe(status);
        expect(response.headers.get("content-type")).toMatch(/^text\/html/);
      }
      expect((await store().businesses.get(id))!.description).toBe("General tree care.");
    });

    it("answers 401 to a forged cookie, and a forged post changes nothing and goes back to the page", async () => {
      const { id, cookie } = await ownedBusiness();
      const forged = cookie.slice(0, -1) + (cookie.endsWith("A") ? "B" : "A");
      expect((await open("/owner", forged)).response.status).toBe(401);
      const posted = await ownerProfileHandler(deps)(post("/owner/profile", profileFields(), forged), nextIp());
      expect(posted.headers.get("location")).toBe("/owner/profile");
      expect((await follow(posted, forged)).response.status).toBe(401);
      expect((await store().businesses.get(id))!.description).toBe("General tree care.");
    });

    it("says a listing that is gone is not found (404)", async () => {
      const { id, cookie } = await ownedBusiness();
      await store().redis.del(keyspace(store().prefix).business(id));
      const { response, inMain } = await open("/owner/profile", cookie);
      expect(response.status).toBe(404);
      expect(inMain.getByRole("heading", { level: 1 }).textContent).toBe("Listing not found");
    });
  });

  describe("overview", () => {
    it("shows 'Finish your listing' for a bare new listing, each item linking to its fix, and not once it is done", async () => {
      const overview = async (cookie: string) => (await open("/owner", cookie)).document;
      const bare = await ownedBusiness({ description: "", businessHours: {}, images: [] });
      const doc = await overview(bare.cookie);
      const section = doc.querySelector("section.finish")!;
      expect(section.querySelector("h2")?.textContent?.trim()).toBe(FINISH_LISTING.heading);
      const links = [...section.querySelectorAll("a")].map((a) => [a.textContent?.trim(), a.getAttribute("href")]);
      expect(links).toEqual([
        [FINISH_LISTING.description.text, "/owner/profile#description"],
        [FINISH_LISTING.hours.text, "/owner/profile#hours"],
        [FINISH_LISTING.photos.text, "/owner/photos"],
      ]);
      // The anchors exist on the profile page.
      const profile = (await open("/owner/profile", bare.cookie)).document;
      expect(profile.getElementById("description")).not.toBeNull();
      expect(profile.getElementById("hours")).not.toBeNull();

      // Only what is missing is listed; a finished listing shows no checklist.
      const photosOnly = await ownedBusiness({ images: [] });
      const partial = [...(await overview(photosOnly.cookie)).querySelectorAll("section.finish a")];
      expect(partial.map((a) => a.getAttribute("href"))).toEqual(["/owner/photos"]);
      const done = await ownedBusiness({ images: ["/photos/x/a.webp"] });
      expect((await overview(done.cookie)).querySelector("section.finish")).toBeNull();
    });

    it("lists the business's leads newest first, from its own index, with an Answer link and the state", async () => {
      const { id, cookie } = await ownedBusiness({ name: "Glance Oaks" });
      const offer = (at: number, state: Delivery["state"]): Delivery => ({
        businessId: id,
        name: "Glance Oaks",
        slug: `business-${id}`,
        offeredAt: new Date(at).toISOString(),
        deadlineAt: new Date(at + 3_600_000).toISOString(),
        state,
      });
      const t = Date.now();
      const older = await store().leads.create("booking", validBooking(id), {
        sourcePage: "/directory",
        routing: { deliveries: [offer(t - 60_000, "accepted")], events: [] },
      });
      const newer = await store().leads.create("booking", validBooking(id), {
        sourcePage: "/directory",
        routing: { deliveries: [offer(t, "waiting")], events: [] },
      });
      const { response, html } = await open("/owner", cookie);
      expect(response.status).toBe(200);
      expect(html.indexOf(newer.lead.id)).toBeGreaterThan(-1);
      expect(html.indexOf(newer.lead.id)).toBeLessThan(html.indexOf(older.lead.id));
      expect(html).toContain("Waiting for an answer");
      expect(html).toContain("Accepted");
      expect(html).toMatch(new RegExp(`href="/respond/${newer.lead.id}\\.${id}\\.[0-9a-z]+\\.[A-Za-z0-9_-]{22}"`));
      expect(html).toContain(newer.lead.reference!);
      expect(html).toContain("No response figures shown yet");

      // Nothing posts to the overview: neither a crafted ?saved= nor another page's notice puts words on it.
      const crafted = await open("/owner?saved=Your%20listing%20is%20suspended", cookie);
      expect(crafted.html).not.toContain("suspended");
      const other = await store().flashes.save({ path: "/owner/profile", status: 200, notice: "Listing suspended" });
      const elsewhere = await open(`/owner?form=${other}`, cookie);
      expect(elsewhere.response.status).toBe(200);
      expect(elsewhere.html).not.toContain("suspended");
    });

    it("shows the private calendar link and a form for a new one, which retires the old link", async () => {
      const { cookie } = await ownedBusiness({ name: "Calendar Oaks" });
      const { inMain } = await open("/owner", cookie);
      const field = inMain.getByLabelText("Calendar link") as HTMLInputElement;
      expect(field.hasAttribute("readonly")).toBe(true);
      const first = field.getAttribute("value")!;
      expect(first).toMatch(/^https?:\/\/[^/]+\/calendar\/own-[\w-]+\.[A-Za-z0-9_-]{24}\.[A-Za-z0-9_-]{22}\.ics$/);
      expect((await site!.fetch(new URL(first).pathname)).status).toBe(200);
      const button = inMain.getByRole("button", { name: "Make a new link (the old one stops working)" });
      const form = button.closest("form")!;
      expect([form.getAttribute("method"), form.getAttribute("action")]).toEqual(["post", "/owner/calendar"]);
      // Shown again: the same link.
      expect((await open("/owner", cookie)).inMain.getByLabelText("Calendar link").getAttribute("value")).toBe(first);

      const res = await ownerCalendarHandler(deps)(post("/owner/calendar", [], cookie), nextIp());
      const after = await follow(res, cookie);
      expect(after.inMain.getByRole("status").textContent?.trim()).toBe(CALENDAR_RENEWED);
      const renewed = after.inMain.getByLabelText("Calendar link").getAttribute("value")!;
      expect(renewed).not.toBe(first);
      expect((await site!.fetch(new URL(first).pathname)).status).toBe(404);
      expect((await site!.fetch(new URL(renewed).pathname)).status).toBe(200);
    });

    it("pages the leads 20 at a time", async () => {
      const { id, cookie } = await ownedBusiness();
      const t = Date.now();
      for (let i = 0; i < 21; i++) {
        const at = new Date(t - i * 60_000).toISOString();
        await store().leads.create("booking", validBooking(id), {
          sourcePage: "/directory",
          routing: {
            deliveries: [{ businessId: id, name: "P", slug: "p", offeredAt: at, deadlineAt: at, state: "expired" }],
            events: [],
          },
        });
      }
      const first = (await open("/owner", cookie)).html;
      expect(first.match(/<tr data-lead=/g)).toHaveLength(20);
      expect(first).toMatch(/href="\/owner\?page=2" rel="next"/);
      const second = (await open("/owner?page=2", cookie)).html;
      expect(second.match(/<tr data-lead=/g)).toHaveLength(1);
      expect(second).toMatch(/href="\/owner\?page=1" rel="prev"/);
    });

    it("adds a delivery made by a routing change to the new business's list (the script step)", async () => {
      const first = await ownedBusiness();
      const second = await ownedBusiness();
      const at = Date.now();
      const d = (businessId: string): Delivery => ({
        businessId,
        name: "X",
        slug: `business-${businessId}`,
        offeredAt: new Date(at).toISOString(),
        deadlineAt: new Date(at + 3_600_000).toISOString(),
        state: "waiting",
      });
      const { lead } = await store().leads.create("booking", validBooking(first.id), {
        sourcePage: "/directory",
        routing: { deliveries: [d(first.id)], events: [] },
      });
      await store().leads.mutate(lead.id, (l) => ({
        ...l,
        routing: { ...l.routing!, deliveries: [...l.routing!.deliveries, d(second.id)] },
      }));
      const keys = keyspace(store().prefix);
      expect(await store().redis.zrange(keys.businessLeads(second.id), 0, -1)).toEqual([lead.id]);
      expect(await store().redis.zrange(keys.businessLeads(first.id), 0, -1)).toEqual([lead.id]);
    });

    it("the backfill adds leads stored before the index, and running it again adds nothing", async () => {
      const { id } = await ownedBusiness();
      const at = Date.now();
      const { lead } = await store().leads.create("booking", validBooking(id), {
        sourcePage: "/directory",
        routing: {
          deliveries: [
            {
              businessId: id,
              name: "X",
              slug: "x",
              offeredAt: new Date(at).toISOString(),
              deadlineAt: new Date(at + 1).toISOString(),
              state: "expired",
            },
          ],
          events: [],
        },
      });
      const keys = keyspace(store().prefix);
      await store().redis.del(keys.businessLeads(id));
      expect(await backfillBusinessLeads(store())).toBeGreaterThanOrEqual(1);
      expect(await store().redis.zrange(keys.businessLeads(id), 0, -1)).toEqual([lead.id]);
      expect(await backfillBusinessLeads(store())).toBe(0);
    });
  });

  describe("profile", () => {
    it("shows the form with the stored hours", async () => {
      const { cookie } = await ownedBusiness();
      const { response, document } = await open("/owner/profile", cookie);
      expect(response.status).toBe(200);
      const value = (name: string) => document.querySelector<HTMLInputElement>(`input[name="${name}"]`)?.value;
      expect(value("monday.open")).toBe("07:00");
      expect(value("monday.close")).toBe("18:00");
      expect(document.querySelector<HTMLInputElement>('input[name="tuesday.mode"][value="closed"]')?.checked).toBe(
        true,
      );
    });

    it("an hours edit: 303 with a notice, stored, recorded, purged, on the public page and in its JSON-LD", async () => {
      const { id, cookie } = await ownedBusiness();
      purges.length = 0;
      const res = await ownerProfileHandler(deps)(post("/owner/profile", profileFields(), cookie), nextIp());
      expect(res.headers.get("location")).toMatch(/^\/owner\/profile\?form=[A-Za-z0-9_-]{22}$/);
      const saved = await follow(res, cookie);
      expect(saved.response.status).toBe(200);
      expect(saved.inMain.getByRole("status").textContent?.trim()).toBe(PROFILE_SAVED);
      const stored = (await store().businesses.get(id))!;
      expect(stored.businessHours.monday).toBe("8:00 AM - 5:00 PM");
      expect(stored.businessHours.saturday).toBeUndefined();
      expect(stored.closedHolidays).toEqual(["Thanksgiving Day", "Christmas Day"]);
      expect(stored.closedDates).toEqual([{ date: "2099-12-24", note: "Christmas Eve" }]);
      expect(stored.serviceAreas).toEqual(["Austin", "Round Rock"]);
      // The page after the save shows the form as stored, not empty: saving it again changes nothing.
      const form = saved.document;
      expect(form.querySelector<HTMLTextAreaElement>('textarea[name="description"]')?.value).toBe(stored.description);
      expect(form.querySelector<HTMLTextAreaElement>('textarea[name="serviceAreas"]')?.value).toContain("Round Rock");
      expect(form.querySelector<HTMLInputElement>('input[name="monday.mode"][value="closed"]')?.checked).toBe(false);
      expect(purges).toEqual([["directory", `business-${id}`]]);
      const { items } = await listChanges(store(), { businessId: id });
      expect(items).toHaveLength(1);
      expect(items[0]!.actor).toEqual({ kind: "owner", email: "owner@example.com" });
      expect(items[0]!.before.businessHours).toEqual({ monday: "7:00 AM - 6:00 PM" });
      const { page } = await loadBusinessPage(store(), stored.slug);
      expect(page!.business.businessHours.friday).toBe("8:00 AM - 5:00 PM");
      const ld = businessJsonLd(
        page!.business,
        page!.reviews,
        `${ORIGIN}/directory/${stored.slug}`,
        Date.parse("2099-12-01T12:00:00Z"),
      );
      expect(ld.openingHoursSpecification).toContainEqual({
        "@type": "OpeningHoursSpecification",
        dayOfWeek: "Monday",
        opens: "08:00",
        closes: "17:00",
      });
      expect(ld.specialOpeningHoursSpecification).toEqual([
        {
          "@type": "OpeningHoursSpecification",
          validFrom: "2099-12-24",
          validThrough: "2099-12-24",
          opens: "00:00",
          closes: "00:00",
        },
      ]);
    });

    it("the near search's 'open now' agrees: open on Thanksgiving once the owner unticks it", async () => {
      const location = { lat: 10.5, lng: 10.5 };
      const { id, cookie } = await ownedBusiness({ location, businessHours: { thursday: "9:00 AM - 5:00 PM" } });
      const thanksgivingNoon = Date.parse("2026-11-26T18:00:00Z");
      const openNow = async () =>
        (await store().businesses.list({ near: location, radius: 5, openNow: true, now: thanksgivingNoon })).data.map(
          (b) => b.id,
        );
      expect(await openNow()).not.toContain(id);
      const fields = profileFields({ closedHolidays: [], "thursday.open": "09:00", "thursday.close": "17:00" });
      const res = await ownerProfileHandler(deps)(post("/owner/profile", fields, cookie), nextIp());
      expect(res.status).toBe(303);
      expect((await store().businesses.get(id))!.closedHolidays).toEqual([]);
      expect(await openNow()).toContain(id);
    });

    it("says by the holiday ticks when holidays cannot close the listing (24/7 or emergency247)", async () => {
      const page = async (over: Parameters<typeof testBusiness>[1]) => {
        const { cookie } = await ownedBusiness(over);
        return (await open("/owner/profile", cookie)).html;
      };
      const allDay = Object.fromEntries(
        ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"].map((d) => [d, "Open 24 hours"]),
      );
      expect(await page({ emergency247: true })).toContain(HOLIDAYS_IGNORED.emergency247);
      expect(await page({ businessHours: allDay })).toContain(HOLIDAYS_IGNORED.open247);
      const usual = await page({});
      expect(usual).not.toContain("data-holidays-ignored");
      expect(usual).toContain("Leave all unticked if you are open on every one.");
    });

    it("lists a service once whatever its case, ticked, and keeps the stored order when only hours change", async () => {
      const services = ["Tree Planting", "Stump Grinding", "tree planting ", "Tree Trimming"];
      const { id, cookie } = await ownedBusiness({ services });
      const stored = (await store().businesses.get(id))!.services;
      const { document } = await open("/owner/profile", cookie);
      const boxes = [...document.querySelectorAll<HTMLInputElement>('input[name="services"]')];
      expect(boxes.filter((b) => b.value.toLowerCase() === "tree planting")).toHaveLength(1);
      expect(boxes.find((b) => b.value === "Tree Planting")?.checked).toBe(true);
      // The form posts the site's services first: the same set in another order is no change.
      const posted = ["Tree Trimming", "Stump Grinding", "Tree Planting"];
      const res = await ownerProfileHandler(deps)(
        post("/owner/profile", profileFields({ services: posted }), cookie),
        nextIp(),
      );
      expect(res.status).toBe(303);
      expect((await store().businesses.get(id))!.services).toEqual(stored);
      const { items } = await listChanges(store(), { businessId: id });
      expect(items).toHaveLength(1);
      expect(Object.keys(items[0]!.after)).not.toContain("services");
      const again = await ownerProfileHandler(deps)(
        post("/owner/profile", profileFields({ services: posted }), cookie),
        nextIp(),
      );
      expect((await follow(again, cookie)).inMain.getByRole("status").textContent?.trim()).toBe(PROFILE_UNCHANGED);
    });

    it("shows its own notice after the redirect, never words a crafted link brings", async () => {
      const { cookie } = await ownedBusiness();
      const crafted = await open(
        `/owner/profile?saved=${encodeURIComponent("Your listing is suspended: call 555-0100")}`,
        cookie,
      );
      expect(crafted.html).not.toContain("suspended");
      expect(crafted.inMain.queryByRole("status")).toBeNull();
      // A flash id is 128 random bits the store made; an unknown one shows the plain page.
      const unknown = await open("/owner/profile?form=AAAAAAAAAAAAAAAAAAAAAA", cookie);
      expect(unknown.response.status).toBe(200);
      expect(unknown.inMain.queryByRole("status")).toBeNull();
    });

    it("invalid hours: back to the page (422) with the message by the field, the posted values kept, nothing changed", async () => {
      const { id, cookie } = await ownedBusiness();
      purges.length = 0;
      const res = await ownerProfileHandler(deps)(
        post("/owner/profile", profileFields({ "tuesday.open": "", description: "Changed?" }), cookie),
        nextIp(),
      );
      const { response, document, inMain } = await follow(res, cookie);
      expect(response.status).toBe(422);
      expectPrivate(response);
      expect(inMain.getByRole("alert").textContent?.trim()).toBe(PROFILE_INVALID);
      const message = document.getElementById("err-hours.tuesday");
      expect(message?.textContent?.trim()).toBe(PROFILE_MESSAGES.time);
      const opens = document.querySelector('input[name="tuesday.open"]');
      expect(opens?.getAttribute("aria-invalid")).toBe("true");
      expect(opens?.getAttribute("aria-describedby")).toBe("err-hours.tuesday");
      expect(document.querySelector("textarea#description")?.textContent).toBe("Changed?");
      const stored = (await store().businesses.get(id))!;
      expect(stored.description).toBe("General tree care.");
      expect(stored.businessHours).toEqual({ monday: "7:00 AM - 6:00 PM" });
      expect((await listChanges(store(), { businessId: id })).total).toBe(0);
      expect(purges).toEqual([]);
      // Another page given the same id shows none of it: a flash is read on its own path only.
      const location = res.headers.get("location")!;
      expect((await open(location.replace("/owner/profile", "/owner/credentials"), cookie)).html).not.toContain(
        "Changed?",
      );
    });

    it("a refused post's values come back as text, never as markup", async () => {
      const { cookie } = await ownedBusiness();
      const markup = '<script>alert(1)</script><img src=x onerror="alert(2)">';
      const res = await ownerProfileHandler(deps)(
        post(
          "/owner/profile",
          profileFields({ description: markup, website: `"><svg onload=alert(3)>`, "monday.open": "" }),
          cookie,
        ),
        nextIp(),
      );
      const { response, html, document } = await follow(res, cookie);
      expect(response.status).toBe(422);
      // Escaped where it lands: text in the textarea, a quoted attribute value it cannot leave.
      expect(html).not.toMatch(/<script>alert|<img src=x onerror|"><svg onload/);
      expect(document.querySelector("textarea#description")?.textContent).toBe(markup);
      expect(document.querySelector<HTMLInputElement>("input#website")?.value).toBe(`"><svg onload=alert(3)>`);
    });

    it("refuses a post from another site (403) and changes nothing", async () => {
      const { id, cookie } = await ownedBusiness();
      const req = formRequest("/owner/profile", profileFields(), { origin: "https://evil.example", cookie });
      const res = await ownerProfileHandler(deps)(req, nextIp());
      expect((await follow(res, cookie)).response.status).toBe(403);
      expect((await store().businesses.get(id))!.businessHours).toEqual({ monday: "7:00 AM - 6:00 PM" });
    });
  });

  describe("photos", () => {
    it("a JPEG with EXIF is stored upright, resized and without metadata, and served with a year's cache", async () => {
      const { id, cookie } = await ownedBusiness();
      const jpeg = await sharp({ create: { width: 2400, height: 1800, channels: 3, background: "#3a7" } })
        .jpeg()
        .withMetadata({ orientation: 6, exif: { IFD0: { Copyright: "Secret Owner", Artist: "Phone" } } })
        .toBuffer();
      expect((await sharp(jpeg).metadata()).exif).toBeDefined();
      const form = new FormData();
      form.set("photo", new File([new Uint8Array(jpeg)], "oak.jpg", { type: "image/jpeg" }));
      const res = await ownerPhotosHandler(deps)(postForm("/owner/photos", form, cookie), nextIp());
      const added = await follow(res, cookie);
      expect(added.inMain.getByRole("status").textContent?.trim()).toBe(PHOTO_MESSAGES.added);
      expect(added.document.querySelectorAll("main li img")).toHaveLength(1);
      const stored = (await store().businesses.get(id))!;
      expect(stored.images).toHaveLength(1);
      const src = stored.images[0]!;
      expect(src).toMatch(new RegExp(`^/photos/${id}/[a-f0-9]{32}\\.webp$`));
      const served = await businessPhotoHandler({ photos: () => photos, env })(getRequest(src), nextIp());
      expect(served.status).toBe(200);
      expect(served.headers.get("content-type")).toBe("image/webp");
      expect(served.headers.get("cache-control")).toContain("immutable");
      const bytes = Buffer.from(await served.arrayBuffer());
      const meta = await sharp(bytes).metadata();
      expect(meta.format).toBe("webp");
      expect(meta.exif).toBeUndefined();
      expect(meta.orientation).toBeUndefined();
      // Rotated upright (orientation 6 turns 2400x1800 on its side), then shrunk to 1600 on the long side.
      expect([meta.width, meta.height]).toEqual([1200, PHOTO_MAX_SIDE]);
      expect(bytes.includes(Buffer.from("Secret Owner"))).toBe(false);
    });

    it("a text file named .jpg is refused (422 on the page) and nothing is added", async () => {
      const { id, cookie } = await ownedBusiness();
      const form = new FormData();
      form.set("photo", new File(["just some text, not a photo"], "tree.jpg", { type: "image/jpeg" }));
      const res = await ownerPhotosHandler(deps)(postForm("/owner/photos", form, cookie), nextIp());
      const { response, inMain } = await follow(res, cookie);
      expect(response.status).toBe(422);
      expect(inMain.getByRole("alert").textContent?.trim()).toBe(PHOTO_MESSAGES.type);
      expect((await store().businesses.get(id))!.images).toEqual([]);
    });

    it("a photo over the limit: 413 on the page saying the limit and how to retry, nothing added", async () => {
      const { id, cookie } = await ownedBusiness();
      // A JPEG's first bytes: refused for its size before anything decodes it.
      const big = new Uint8Array(MAX_UPLOAD_BYTES + 1);
      big.set([0xff, 0xd8, 0xff]);
      const form = new FormData();
      form.set("photo", new File([big], "camera.jpg", { type: "image/jpeg" }));
      const res = await ownerPhotosHandler(deps)(postForm("/owner/photos", form, cookie), nextIp());
      const { response, inMain } = await follow(res, cookie);
      expect(response.status).toBe(413);
      expect(inMain.getByRole("alert").textContent?.trim()).toBe(PHOTO_MESSAGES.size);
      expect(PHOTO_MESSAGES.size).toMatch(/at most 4 MB\. Nothing was added\. Choose a smaller one/);
      expect((await store().businesses.get(id))!.images).toEqual([]);
    });

    it("a post over the body cap (no JavaScript to shrink the photo): 413 on the page saying the photo is too large", async () => {
      const { id, cookie } = await ownedBusiness();
      const form = new FormData();
      form.set("photo", new File([new Uint8Array(MAX_BODY_LIMIT + 1)], "camera.jpg", { type: "image/jpeg" }));
      const res = await ownerPhotosHandler(deps)(postForm("/owner/photos", form, cookie), nextIp());
      const { response, inMain } = await follow(res, cookie);
      expect(response.status).toBe(413);
      expect(inMain.getByRole("alert").textContent?.trim()).toBe(PHOTO_TEXT.tooLargeToSend);
      expect((await store().businesses.get(id))!.images).toEqual([]);
    });

    it("the upload form states the limit the server enforces and carries the script that shrinks a photo", async () => {
      const { cookie } = await ownedBusiness();
      const { document } = await open("/owner/photos", cookie);
      const upload = document.querySelector("form[data-photo-upload]");
      expect(upload).not.toBeNull();
      expect(upload!.querySelector("[data-photo-status][aria-live=polite]")).not.toBeNull();
      expect(document.querySelector("main")!.textContent).toContain(`up to ${MAX_UPLOAD_LABEL} each`);
      expect(document.querySelector("main")!.textContent).not.toContain("5 MB");
    });

    it("Remove takes a photo off the listing", async () => {
      const { id, cookie } = await ownedBusiness({ images: ["/images/a.jpg", "/images/b.jpg"] });
      const form = new FormData();
      form.set("remove", "/images/a.jpg");
      const res = await ownerPhotosHandler(deps)(postForm("/owner/photos", form, cookie), nextIp());
      const removed = await follow(res, cookie);
      expect(removed.inMain.getByRole("status").textContent?.trim()).toBe(PHOTO_MESSAGES.removed);
      expect((await store().businesses.get(id))!.images).toEqual(["/images/b.jpg"]);
    });

    it("an unknown photo name is 404", async () => {
      const res = await businessPhotoHandler({ photos: () => photos, env })(
        getRequest(`/photos/biz-001/${"0".repeat(32)}.webp`),
        nextIp(),
      );
      expect(res.status).toBe(404);
    });
  });
  describe("the operator's change history", () => {
    const auth = { authorization: `Bearer ${TOKEN}` };
    const rollback = (id: string, headers: Record<string, string> = auth) =>
      jsonRequest(`/api/admin/changes/${id}/rollback`, "{}", headers);

    it("lists a business's changes with who, when and the fields before and after", async () => {
      const { id, cookie } = await ownedBusiness({ name: "History Oaks" });
      await ownerProfileHandler(deps)(post("/owner/profile", profileFields(), cookie), nextIp());
      const res = await adminChangesHandler(deps)(
        getRequest(`/api/admin/changes?businessId=${id}`, { headers: auth }),
        nextIp(),
      );
      expect(res.status).toBe(200);
      const body = (await res.json()) as AdminChangesReply;
      expect(body.total).toBe(1);
      expect(body.nextCursor).toBeNull();
      expect(body.data[0]).toMatchObject({
        businessId: id,
        businessName: "History Oaks",
        actor: { kind: "owner", email: "owner@example.com" },
        summary: "Profile and hours",
        before: { businessHours: { monday: "7:00 AM - 6:00 PM" } },
      });
    });

    it("narrows to one business by its id, its slug or its pasted page address", async () => {
      const { id, cookie } = await ownedBusiness({ name: "Slug Oaks" });
      const { slug } = (await store().businesses.get(id))!;
      await ownerProfileHandler(deps)(post("/owner/profile", profileFields(), cookie), nextIp());
      const listed = async (ref: string) => {
        const res = await adminChangesHandler(deps)(
          getRequest(`/api/admin/changes?businessId=${encodeURIComponent(ref)}`, { headers: auth }),
          nextIp(),
        );
        expect(res.status, ref).toBe(200);
        return ((await res.json()) as AdminChangesReply).data.map((c) => c.businessId);
      };
      expect(slug).not.toBe(id);
      for (const ref of [
        id,
        slug,
        `${ORIGIN}/directory/${slug}`,
        `${ORIGIN}/directory/${slug}/?tab=reviews`,
        ` ${slug} `,
      ])
        expect(await listed(ref), ref).toEqual([id]);
      expect(await listed("no-such-business")).toEqual([]);
      const bad = await adminChangesHandler(deps)(
        getRequest(`/api/admin/changes?businessId=${encodeURIComponent("javascript:alert(1)")}`, { headers: auth }),
        nextIp(),
      );
      expect(bad.status).toBe(400);
    });

    it("needs the operator token (401) and refuses a bad query (400)", async () => {
      const res = await adminChangesHandler(deps)(getRequest("/api/admin/changes"), nextIp());
      expect(res.status).toBe(401);
      const bad = await adminChangesHandler(deps)(
        getRequest("/api/admin/changes?limit=0", { headers: auth }),
        nextIp(),
      );
      expect(bad.status).toBe(400);
      const nobody = await adminRollbackHandler(deps)(rollback("ch_abc0123456789a", {}), nextIp());
      expect(nobody.status).toBe(401);
    });

    it("rollback restores the old hours on the public page, is itself recorded, and a second one has nothing to do", async () => {
      const { id, cookie } = await ownedBusiness();
      await ownerProfileHandler(deps)(post("/owner/profile", profileFields(), cookie), nextIp());
      const [change] = (await listChanges(store(), { businessId: id })).items;
      purges.length = 0;
      const res = await adminRollbackHandler(deps)(rollback(change!.id), nextIp());
      expect(res.status).toBe(201);
      const { data } = (await res.json()) as { data: { revertOf: string; actor: unknown; summary: string } };
      expect(data).toMatchObject({
        revertOf: change!.id,
        actor: { kind: "operator" },
        summary: "Rolled back: Profile and hours",
      });
      const stored = (await store().businesses.get(id))!;
      expect(stored.businessHours).toEqual({ monday: "7:00 AM - 6:00 PM" });
      expect(stored.closedHolidays).toBeUndefined();
      expect(stored.description).toBe("General tree care.");
      expect(purges).toEqual([["directory", `business-${id}`]]);
      const { page } = await loadBusinessPage(store(), stored.slug);
      expect(page!.business.businessHours).toEqual({ monday: "7:00 AM - 6:00 PM" });
      expect((await listChanges(store(), { businessId: id })).total).toBe(2);
      const again = await adminRollbackHandler(deps)(rollback(change!.id), nextIp());
      expect(again.status).toBe(409);
      expect(((await again.json()) as { error: string }).error).toBe(NOTHING_TO_ROLL_BACK);
    });

    it("an unknown change is 404", async () => {
      const res = await adminRollbackHandler(deps)(rollback("ch_zzzzzz0123456789"), nextIp());
      expect(res.status).toBe(404);
      expect(((await res.json()) as { error: string }).error).toBe(CHANGE_NOT_FOUND);
    });
  });

  describe("webhooks", () => {
    it("shows each endpoint, its state, the e-mail's outcome and its log; every action a button in a form; valid HTML", async () => {
      const { id, cookie } = await ownedBusiness();
      const at = new Date().toISOString();
      const ep = {
        id: `we_page${n}xxxxxxxx`,
        businessId: id,
        url: "https://crm.example/hooks/treeline",
        secret: "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw",
        events: ["offer.made" as const, "offer.answered" as const],
        source: "owner" as const,
        createdAt: at,
        secretAt: at,
        failures: 1,
        disabled: { at, reason: "The endpoint answered 410 Gone, so it was disabled." },
        lastNotice: { kind: "disabled" as const, at, outcome: "kept" as const },
      };
      await store().webhooks.addEndpoint(ep, 5);
      await store().webhooks.addDelivery({
        id: `wd_page${n}xxxxxxxx`,
        endpointId: ep.id,
        businessId: id,
        eventId: "evt_ld_page_0",
        type: "offer.made",
        body: "{}",
        createdAt: at,
        state: "failed",
        attempts: 1,
        log: [{ at, status: 410, error: "The endpoint answered 410 Gone, so it was disabled.", ms: 40 }],
      });
      const { response, html, inMain, main } = await open("/owner/webhooks", cookie);
      expect(response.status).toBe(200);
      expectPrivate(response);
      expect(html).not.toContain(ep.secret);
      const item = main.querySelector(`[data-endpoint-id="${ep.id}"]`)!;
      expect(item.textContent).toContain(ep.url);
      expect(item.textContent).toContain("Disabled");
      // Kept, never "we e-mailed you": the page says what happened.
      expect(item.textContent).toContain("nobody was e-mailed");
      expect(item.textContent).not.toContain("We e-mailed you");
      expect(item.querySelector("[data-delivery-id] li")!.textContent).toContain("410");
      for (const name of ["Enable again", "New secret", "Delete", "Send again", "Add webhook", "Make an API key"]) {
        const button = inMain.getByRole("button", { name });
        const form = button.closest("form")!;
        expect(form.getAttribute("method"), name).toBe("post");
        expect(form.getAttribute("action"), name).toBe("/owner/webhooks");
      }
      const { HtmlValidate, FileSystemConfigLoader } = await import("html-validate");
      const report = await new HtmlValidate(new FileSystemConfigLoader()).validateString(html, "owner-webhooks.html");
      expect(report.results.flatMap((r) => r.messages.map((m) => `${m.ruleId}: ${m.message}`))).toEqual([]);
    });
  });
});
