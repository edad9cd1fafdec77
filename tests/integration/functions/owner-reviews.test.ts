/**
 * /owner/reviews against real Redis: the page (src/pages/owner/reviews.astro) from the built
 * site, its posts through the handler (netlify/lib/owners/reviews.ts) in-process on the same
 * store. The signed-in owner's reviews with their reply forms, a reply posted without
 * JavaScript (form post, 303 back with a notice) that the public page data and the reviews
 * JSON carry on the next request, an edit marked edited, and the refusals: no session, another
 * business's review, an empty reply, a hidden review (each back on the page with its status).
 * The owner's session is made directly (ownedBusiness).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadBusinessPage } from "../../../netlify/lib/directory-page.ts";
import { reviewsHandler } from "../../../netlify/lib/directory-reviews.ts";
import { ownerReviewsHandler } from "../../../netlify/lib/owners/reviews.ts";
import type { Review } from "../../../src/lib/schemas/review.ts";
import { REPLY_MESSAGES } from "../../../src/lib/schemas/reply.ts";
import { parseHtml } from "../../helpers/dist.ts";
import { parseEnv } from "../../../src/lib/env.ts";
import {
  ORIGIN,
  formRequest,
  getRequest,
  nextIp,
  ownedBusiness,
  testBusiness,
  validReview,
} from "../../helpers/functions.ts";
import { siteHarness } from "../../helpers/site.ts";

const SECRET = "owner-reviews-link-secret-0123456789abc";
const site = await siteHarness("owner-reviews", { LINK_SIGNING_SECRET: SECRET });
afterAll(() => site?.stop());

const env = parseEnv({ RATE_LIMIT_PER_MINUTE: "1000", LINK_SIGNING_SECRET: SECRET });
const T0 = Date.parse("2026-11-01T09:00:00Z");

describe.skipIf(!site)("/owner/reviews", () => {
  const store = site!.store;
  let clock = T0;
  const purges: string[][] = [];
  const deps = { store: () => store, env, now: () => clock, purge: async (tags: string[]) => void purges.push(tags) };
  const handler = ownerReviewsHandler(deps);
  let cookie = "";
  let mine: Review;
  let second: Review;
  let theirs: Review;

  beforeAll(async () => {
    ({ cookie } = await ownedBusiness(
      store,
      env,
      "own-1",
      { name: "Oak & Sons <Trees>", slug: "oak-and-sons" },
      // On the real clock: the built site reads the session too.
      { email: "owner@oak.example" },
    ));
    await store.businesses.upsert(testBusiness("own-2", { slug: "someone-else" }));
    mine = await store.reviews.add(
      "own-1",
      { ...validReview(), rating: 2, reviewText: "Left branches <b>everywhere</b>." },
      { createdAt: "2026-10-01T12:00:00Z" },
    );
    second = await store.reviews.add("own-1", validReview(), { createdAt: "2026-10-05T12:00:00Z", isVerified: true });
    theirs = await store.reviews.add("own-2", validReview(), { createdAt: "2026-10-02T12:00:00Z" });
  });

  /** The page as the built site serves it. */
  const get = (path = "/owner/reviews", headers: Record<string, string> = { cookie }) => site!.fetch(path, { headers });
  const post = (
    fields: Record<string, string>,
    path = "/owner/reviews",
    headers: Record<string, string> = { cookie },
  ) => handler(formRequest(path, Object.entries(fields), { ...headers, "x-nf-client-connection-ip": nextIp().ip }));
  const dom = async (res: Response) => parseHtml(await res.text(), ORIGIN);
  /** Where a post's 303 leads, as the built site then shows it. */
  const follow = async (res: Response, headers: Record<string, string> = { cookie }) => {
    expect(res.status).toBe(303);
    return get(res.headers.get("location")!, headers);
  };

  async function publicReview(id: string) {
    const { page } = await loadBusinessPage(store, "oak-and-sons");
    return page?.reviews.find((r) => r.id === id);
  }

  it("without a session answers the sign-in page (401) and stores nothing", async () => {
    const res = await get("/owner/reviews", {});
    expect(res.status).toBe(401);
    expect(res.headers.get("cache-control")).toBe("private, no-store");
    expect((await dom(res)).querySelector("h1")?.textContent).toBe("Sign in to manage your listing");
    const posted = await post({ reviewId: mine.id, text: "Hello" }, "/owner/reviews", {});
    expect(posted.headers.get("location")).toBe("/owner/reviews");
    expect((await follow(posted, {})).status).toBe(401);
    expect((await store.reviews.get(mine.id))?.reply).toBeUndefined();
    expect(purges).toEqual([]);
  });

  it("lists the business's reviews newest first, each with stars, Verified or not, and a reply form", async () => {
    const res = await get();
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("private, no-store");
    const doc = await dom(res);
    const items = [...doc.querySelectorAll<HTMLElement>("[data-review-id]")];
    expect(items.map((li) => li.dataset.reviewId)).toEqual([second.id, mine.id]);
    expect(items[0]!.textContent).toContain("Verified");
    expect(items[0]!.textContent).not.toContain("Unverified");
    expect(items[1]!.textContent).toContain("Unverified");
    expect(items[1]!.querySelector("[role=img]")?.getAttribute("aria-label")).toBe("2 out of 5 stars");
    // The reviewer's words are text, never markup.
    expect(items[1]!.textContent).toContain("Left branches <b>everywhere</b>.");
    expect(items[1]!.querySelector("b")).toBeNull();
    const form = items[1]!.querySelector("form")!;
    expect(form.getAttribute("method")).toBe("post");
    expect(form.querySelector<HTMLInputElement>("input[name=reviewId]")?.value).toBe(mine.id);
    const textarea = form.querySelector("textarea[name=text]")!;
    expect(form.querySelector(`label[for="${textarea.id}"]`)?.textContent?.trim()).toBe("Reply publicly");
    expect(doc.getElementById(textarea.getAttribute("aria-describedby")!)?.textContent?.trim()).toBe(
      REPLY_MESSAGES.publicNote,
    );
    expect(form.querySelector("button[value=reply]")?.textContent?.trim()).toBe("Post reply");
    expect(form.textContent).toContain('an edited reply is marked "edited"');
    expect(doc.querySelector('nav a[aria-current="page"]')?.getAttribute("href")).toBe("/owner/reviews");
  });

  it("posts a reply: 303 back with the notice, purges the business, and the public data carry it", async () => {
    clock = T0 + 60_000;
    const res = await post({ reviewId: mine.id, text: "  Sorry about that: <we came back> and cleaned up.  " });
    expect(res.status).toBe(303);
    const location = res.headers.get("location")!;
    expect(location).toMatch(/^\/owner\/reviews\?form=[\w-]{22}$/);
    expect(purges.at(-1)).toEqual(["directory", "business-own-1"]);

    const shown = await publicReview(mine.id);
    expect(shown?.reply).toEqual({
      text: "Sorry about that: <we came back> and cleaned up.",
      createdAt: new Date(T0 + 60_000).toISOString(),
    });
    const json = await reviewsHandler({ store: () => store, env })(getRequest("/api/businesses/own-1/reviews"));
    const body = (await json.json()) as { data: Review[] };
    expect(body.data.find((r) => r.id === mine.id)?.reply?.text).toBe(
      "Sorry about that: <we came back> and cleaned up.",
    );

    const page = await dom(await get(location));
    expect(page.querySelector("main [role=status]")?.textContent?.trim()).toBe(REPLY_MESSAGES.posted);
    const form = page.querySelector(`[data-review-id="${mine.id}"] form`)!;
    expect(form.querySelector("textarea")?.textContent).toBe("Sorry about that: <we came back> and cleaned up.");
    expect(form.querySelector("button[value=reply]")?.textContent?.trim()).toBe("Save changes");
    expect(form.querySelector("button[value=remove]")).not.toBeNull();
  });

  it("an edit keeps one reply and marks it edited", async () => {
    clock = T0 + 3_600_000;
    const res = await post({ reviewId: mine.id, text: "We came back the next day and cleaned up." });
    expect((await dom(await follow(res))).querySelector("main [role=status]")?.textContent?.trim()).toBe(
      REPLY_MESSAGES.saved,
    );
    expect((await publicReview(mine.id))?.reply).toEqual({
      text: "We came back the next day and cleaned up.",
      createdAt: new Date(T0 + 60_000).toISOString(),
      editedAt: new Date(T0 + 3_600_000).toISOString(),
    });
    // The rating and the count are the reviewers' alone.
    expect(await store.businesses.get("own-1")).toMatchObject({ reviewCount: 2, rating: "3.5" });
  });

  it("another business's review id answers 404 and stores nothing", async () => {
    const before = purges.length;
    const res = await follow(await post({ reviewId: theirs.id, text: "Not my review" }));
    expect(res.status).toBe(404);
    expect((await dom(res)).querySelector("main [role=alert]")?.textContent?.trim()).toBe(REPLY_MESSAGES.reviewId);
    expect((await store.reviews.get(theirs.id))?.reply).toBeUndefined();
    expect((await follow(await post({ reviewId: "<script>", text: "x" }))).status).toBe(404);
    expect(purges.length).toBe(before);
  });

  it("an empty reply goes back to the page (422) with the message next to that review's form, storing nothing", async () => {
    const res = await follow(await post({ reviewId: second.id, text: "   " }));
    expect(res.status).toBe(422);
    const doc = await dom(res);
    expect(doc.querySelector("main [role=alert]")?.textContent).toContain(REPLY_MESSAGES.text);
    const textarea = doc.querySelector(`[data-review-id="${second.id}"] textarea`)!;
    expect(textarea.getAttribute("aria-invalid")).toBe("true");
    expect(doc.getElementById(`${textarea.id}-error`)?.textContent?.trim()).toBe(REPLY_MESSAGES.text);
    // The field may be screens down: the browser focuses it, and the problem line links to it.
    expect(textarea.hasAttribute("autofocus")).toBe(true);
    // (The only one in the page: the chat panel's own autofocus counts only once its popover is open.)
    expect(doc.querySelectorAll("main [autofocus]")).toHaveLength(1);
    expect(doc.querySelector("main [role=alert] a")?.getAttribute("href")).toBe(`#${textarea.id}`);
    expect((await store.reviews.get(second.id))?.reply).toBeUndefined();

    const long = await follow(await post({ reviewId: second.id, text: "x".repeat(2001) }));
    expect(long.status).toBe(422);
    const longDoc = await dom(long);
    // What the owner wrote is still there to shorten.
    expect(longDoc.querySelector(`[data-review-id="${second.id}"] textarea`)?.textContent).toHaveLength(2001);
    expect(longDoc.querySelector("main [role=alert]")?.textContent).toContain(REPLY_MESSAGES.textLength);
  });

  it("a hidden review shows its reason and no form, and a reply to it is refused (409)", async () => {
    const hidden = await store.reviews.add(
      "own-1",
      { ...validReview(), customerName: "Hidden Person", reviewText: "My neighbor's phone is 555-0100" },
      { createdAt: "2026-10-06T12:00:00Z" },
    );
    await store.reviews.moderate(hidden.id, { hidden: true, hiddenReason: "not-about-this-business" });
    const doc = await dom(await get());
    const item = doc.querySelector(`[data-review-id="${hidden.id}"]`)!;
    expect(item.textContent).toContain("Hidden: not about this business");
    // Only what the public sees: no name, no text, no stars, and no form.
    expect(item.textContent).not.toContain("Hidden Person");
    expect(item.textContent).not.toContain("555-0100");
    expect(item.querySelector("[role=img]")).toBeNull();
    expect(item.querySelector("form")).toBeNull();

    const res = await follow(await post({ reviewId: hidden.id, text: "Please show it" }));
    expect(res.status).toBe(409);
    expect((await dom(res)).querySelector("main [role=alert]")?.textContent?.trim()).toBe(REPLY_MESSAGES.hidden);
    expect((await store.reviews.get(hidden.id))?.reply).toBeUndefined();
  });

  it("removes a reply with its own button, and shows only its own notices", async () => {
    const res = await post({ reviewId: mine.id, intent: "remove", text: "" });
    const removed = await dom(await follow(res));
    expect(removed.querySelector("main [role=status]")?.textContent?.trim()).toBe(REPLY_MESSAGES.removed);
    expect((await publicReview(mine.id))?.reply).toBeUndefined();
    const doc = await dom(await get("/owner/reviews?saved=Your+account+is+locked"));
    expect(doc.querySelector("main [role=status]")).toBeNull();
  });

  it("pages the list, newest first", async () => {
    for (let i = 0; i < 20; i++)
      await store.reviews.add("own-1", validReview(), {
        createdAt: new Date(Date.parse("2026-09-01") - i * 60_000).toISOString(),
      });
    const first = await dom(await get());
    expect(first.querySelectorAll("[data-review-id]")).toHaveLength(20);
    const older = first.querySelector<HTMLAnchorElement>('nav[aria-label="More reviews"] a')!;
    expect(older.textContent?.trim()).toBe("Older reviews");
    const next = await dom(await get(older.getAttribute("href")!));
    const ids = [...next.querySelectorAll<HTMLElement>("[data-review-id]")].map((li) => li.dataset.reviewId);
    expect(ids).toHaveLength(3);
    const form = next.querySelector<HTMLFormElement>("form.owner-form")!;
    expect(form.getAttribute("action")).toBe("/owner/reviews?page=2");
    // A refused post from page 2 comes back to page 2, with its message by its form.
    const refused = await post({ reviewId: ids[0]!, text: " " }, "/owner/reviews?page=2");
    expect(refused.headers.get("location")).toMatch(/^\/owner\/reviews\?page=2&form=[\w-]{22}$/);
    const back = await dom(await follow(refused));
    expect(back.querySelector(`[data-review-id="${ids[0]}"] textarea`)?.getAttribute("aria-invalid")).toBe("true");
  });
});
