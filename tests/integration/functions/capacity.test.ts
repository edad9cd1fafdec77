/**
 * A business's capacity, in-process on a real Redis: "Fully booked until" and
 * "Taking storm jobs" from the answer page's link (one tap, no account; the form post and
 * JSON), refused days, the owner page's form, and the done-when: a business that tapped
 * "fully booked" gets no new offer, the next nearest does.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { respondHandler } from "../../../netlify/lib/delivery/handlers.ts";
import { initialRouting } from "../../../netlify/lib/delivery/routing.ts";
import { signer } from "../../../netlify/lib/delivery/signing.ts";
import { FIND_PROS_ENDPOINT } from "../../../netlify/lib/find-pros.ts";
import { ownerAvailabilityHandler, AVAILABILITY_ROUTE } from "../../../netlify/lib/owners/availability.ts";
import { loadAnswerPage } from "../../../netlify/lib/page-data/delivery.ts";
import { loadAvailability } from "../../../netlify/lib/page-data/owner.ts";
import { CAPACITY_MESSAGES, CAPACITY_TEXT, addDays, todayIn } from "../../../src/lib/capacity.ts";
import { zipPoint } from "../../../src/lib/geo/places.ts";
import { parseEnv } from "../../../src/lib/env.ts";
import {
  expectFlash,
  formRequest,
  functionsHarness,
  getRequest,
  jsonRequest,
  nextIp,
  ownedBusiness,
  testBusiness,
  validFindPros,
} from "../../helpers/functions.ts";

const SECRET = "capacity-fn-secret-0123456789abcdefghij";
const TZ = "America/Chicago";
const h = await functionsHarness("capacity");
// The answer page's loader reads the link key from the environment, as the site does.
vi.stubEnv("LINK_SIGNING_SECRET", SECRET);
afterAll(async () => {
  await h?.teardown();
});

describe.skipIf(!h)("capacity: taking storm jobs, fully booked until", () => {
  const env = parseEnv({
    RATE_LIMIT_PER_MINUTE: "1000",
    LINK_SIGNING_SECRET: SECRET,
    SITE_URL: "http://127.0.0.1:8888",
  });
  const sign = signer(SECRET);
  const purges: string[][] = [];
  const deps = () => ({ store: () => h!.store, env, purge: async (tags: string[]) => void purges.push(tags) });
  const today = todayIn(Date.now(), TZ);

  beforeAll(async () => {
    const { lat, lng } = zipPoint("78701")!;
    // Nearest first: cap-1 at the ZIP's point, then cap-2, cap-3, cap-4 farther north.
    for (const n of [1, 2, 3, 4])
      await h!.store.businesses.upsert(
        testBusiness(`cap-${n}`, {
          name: `Capacity Pro ${n}`,
          slug: `capacity-pro-${n}`,
          email: `cap${n}@pros.test`,
          services: ["Tree Removal"],
          timeZone: TZ,
          location: { lat: lat + n * 0.01, lng },
        }),
      );
  });

  /** A routine find-pros lead offered to cap-1, and cap-1's answer link. */
  async function offeredLead() {
    const { lead } = await h!.store.leads.create(
      "find-pros",
      { ...validFindPros(), location: "78701" },
      {
        sourcePage: "/",
        urgency: "routine",
        routing: initialRouting(
          [
            {
              businessId: "cap-1",
              name: "Capacity Pro 1",
              slug: "capacity-pro-1",
              email: "cap1@pros.test",
              timeZone: TZ,
            },
          ],
          "routine",
          Date.now(),
        ),
      },
    );
    return sign.answerPath(lead.id, "cap-1", Date.now() + 86_400_000);
  }
  const answer = (path: string, fields: [string, string][]) =>
    respondHandler(deps())(formRequest(path, fields), nextIp());
  const offeredIds = async () => {
    const res = await h!.handler(FIND_PROS_ENDPOINT, { env })(
      jsonRequest("/api/find-pros", { ...validFindPros(), location: "78701" }),
      nextIp(),
    );
    expect(res.status).toBe(201);
    return ((await res.json()).matches as { id: string }[]).map((m) => m.id);
  };

  it("the answer page shows the form; one tap on Fully booked (tomorrow filled in) stops new offers, the next nearest gets them", async () => {
    await h!.store.capacity.set("cap-1", null);
    expect(await offeredIds()).toEqual(["cap-1", "cap-2", "cap-3"]);
    const path = await offeredLead();
    const before = await loadAnswerPage(path.slice("/respond/".length), Date.now(), () => h!.store);
    expect(before.ok && before.page.capacity).toMatchObject({
      line: null,
      stated: false,
      until: addDays(today, 1),
      min: today,
    });

    const tomorrow = addDays(today, 1);
    const res = await answer(path, [
      ["action", "capacity"],
      ["capacity", "booked"],
      ["until", tomorrow],
    ]);
    expect(await expectFlash(h!.store, res, path)).toMatchObject({
      status: 200,
      form: "capacity",
      notice: CAPACITY_TEXT.saved.booked(tomorrow),
    });
    expect(await h!.store.capacity.get("cap-1")).toMatchObject({ status: "booked", until: tomorrow, via: "answer" });
    // The directory's cached lists mark and order by it inside a storm: purged.
    expect(purges.at(-1)).toEqual(["directory"]);
    // The offer itself is untouched: still waiting for its answer.
    const after = await loadAnswerPage(path.slice("/respond/".length), Date.now(), () => h!.store);
    expect(after.ok && after.page.state.kind).toBe("open");
    expect(after.ok && after.page.capacity?.line).toBe(CAPACITY_TEXT.booked(tomorrow));

    expect(await offeredIds()).toEqual(["cap-2", "cap-3", "cap-4"]);
  });

  it("taking storm jobs and back to normal, as JSON; a day in the past or too far ahead is refused and changes nothing", async () => {
    const path = await offeredLead();
    const json = await respondHandler(deps())(jsonRequest(path, { action: "capacity", capacity: "taking" }), nextIp());
    expect(json.status).toBe(200);
    expect(await json.json()).toMatchObject({ ok: true, capacity: { status: "taking", via: "answer" } });
    expect(await offeredIds()).toContain("cap-1");

    const past = await answer(path, [
      ["action", "capacity"],
      ["capacity", "booked"],
      ["until", addDays(today, -1)],
    ]);
    expect(await expectFlash(h!.store, past, path)).toMatchObject({
      status: 422,
      form: "capacity",
      errors: { until: CAPACITY_MESSAGES.until },
      values: { until: addDays(today, -1) },
    });
    const far = await respondHandler(deps())(
      jsonRequest(path, { action: "capacity", capacity: "booked", until: addDays(today, 400) }),
      nextIp(),
    );
    expect(far.status).toBe(400);
    expect((await far.json()).fields).toEqual({ until: CAPACITY_MESSAGES.tooFar });
    const unknown = await respondHandler(deps())(
      jsonRequest(path, { action: "capacity", capacity: "maybe" }),
      nextIp(),
    );
    expect(unknown.status).toBe(400);
    expect((await h!.store.capacity.get("cap-1"))?.status).toBe("taking");

    const clear = await answer(path, [
      ["action", "capacity"],
      ["capacity", "clear"],
    ]);
    expect((await expectFlash(h!.store, clear, path)).notice).toBe(CAPACITY_TEXT.saved.clear);
    expect(await h!.store.capacity.get("cap-1")).toBeNull();
  });

  it("a changed link changes nothing", async () => {
    const path = await offeredLead();
    const forged = path.slice(0, -2) + (path.endsWith("aa") ? "bb" : "aa");
    const res = await respondHandler(deps())(
      jsonRequest(forged, { action: "capacity", capacity: "booked", until: addDays(today, 1) }),
      nextIp(),
    );
    expect(res.status).toBe(404);
    expect(await h!.store.capacity.get("cap-1")).toBeNull();
  });

  it("the owner page: the form, a save, a refused day, and nothing without a session", async () => {
    const { id, cookie } = await ownedBusiness(h!.store, env, "cap-owned", {
      timeZone: TZ,
      services: ["Tree Removal"],
    });
    const post = (fields: [string, string][], c = cookie) =>
      ownerAvailabilityHandler(deps())(formRequest(AVAILABILITY_ROUTE, fields, c ? { cookie: c } : {}), nextIp());

    const until = addDays(today, 3);
    const saved = await post([
      ["capacity", "booked"],
      ["until", until],
    ]);
    expect((await expectFlash(h!.store, saved, AVAILABILITY_ROUTE)).notice).toBe(CAPACITY_TEXT.saved.booked(until));
    expect(await h!.store.capacity.get(id)).toMatchObject({ status: "booked", until, via: "owner" });
    expect(purges.at(-1)).toEqual(["directory"]);
    const page = await loadAvailability(getRequest(AVAILABILITY_ROUTE, { headers: { cookie } }), {
      store: () => h!.store,
      env,
    });
    expect(page.status).toBe(200);
    expect(page.view?.capacity).toMatchObject({ line: CAPACITY_TEXT.booked(until), stated: true, until });

    const refused = await post([
      ["capacity", "booked"],
      ["until", "not a day"],
    ]);
    const flash = await expectFlash(h!.store, refused, AVAILABILITY_ROUTE);
    expect(flash).toMatchObject({ status: 422, errors: { until: CAPACITY_MESSAGES.until } });
    expect((await h!.store.capacity.get(id))?.until).toBe(until);

    const signedOut = await post([["capacity", "taking"]], "");
    expect(signedOut.status).toBe(303);
    expect((await h!.store.capacity.get(id))?.status).toBe("booked");
  });
});
