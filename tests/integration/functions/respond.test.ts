/**
 * The functions behind a lead's links, in-process on a real Redis: POST /respond/:token
 * (accept, "Accept and call", decline, give an accepted job back), POST /respond/:token/call
 * (the number's ping, refused to a business that has not accepted) and POST
 * /requests/:leadId/:sig/done (the homeowner's "The job is done"). Leads are made directly
 * in the store with their offers; the whole loop through the lead forms is
 * tests/integration/delivery.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  DONE_NOTICES,
  NOTICES,
  jobDoneHandler,
  respondCallHandler,
  respondHandler,
} from "../../../netlify/lib/delivery/handlers.ts";
import { initialRouting, type Candidate } from "../../../netlify/lib/delivery/routing.ts";
import { signer } from "../../../netlify/lib/delivery/signing.ts";
import { zipPoint } from "../../../src/lib/geo/places.ts";
import { parseEnv } from "../../../src/lib/env.ts";
import type { Lead } from "../../../src/lib/schemas/lead.ts";
import {
  ORIGIN,
  expectFlash,
  formRequest,
  functionsHarness,
  jsonRequest,
  nextIp,
  testBusiness,
  validBooking,
  validFindPros,
} from "../../helpers/functions.ts";

const SECRET = "respond-fn-secret-0123456789abcdefghij";
const h = await functionsHarness("respond");
afterAll(async () => {
  await h?.teardown();
});

describe.skipIf(!h)("the functions behind a lead's links", () => {
  const env = parseEnv({ RATE_LIMIT_PER_MINUTE: "1000", LINK_SIGNING_SECRET: SECRET });
  const sign = signer(SECRET);
  const purges: string[][] = [];
  const deps = () => ({ store: () => h!.store, env, purge: async (tags: string[]) => void purges.push(tags) });

  /** Runs a handler and waits for its after-response work (the notifier). */
  async function run(handler: ReturnType<typeof respondHandler>, req: Request) {
    const pending: Promise<unknown>[] = [];
    const res = await handler(req, { ...nextIp(), waitUntil: (p) => void pending.push(p) });
    await Promise.all(pending);
    return res;
  }
  const post = (path: string, fields: [string, string][]) => run(respondHandler(deps()), formRequest(path, fields));
  const ping = (path: string) =>
    run(
      respondCallHandler(deps()),
      new Request(`${ORIGIN}${path}/call`, { method: "POST", headers: { "content-type": "text/ping" }, body: "PING" }),
    );
  const delivery = async (leadId: string, businessId = "rs-1") =>
    (await h!.store.leads.get(leadId))!.routing!.deliveries.find((d) => d.businessId === businessId)!;

  // Reachable by e-mail: an offer no channel can carry is undelivered and moves on at once.
  const pro = (n: number): Candidate => ({
    businessId: `rs-${n}`,
    name: `Pro ${n} Trees`,
    slug: `rs-pro-${n}`,
    email: `pro${n}@pros.test`,
  });

  beforeAll(async () => {
    const { lat, lng } = zipPoint("78701")!;
    for (const n of [1, 2, 3, 4])
      await h!.store.businesses.upsert(
        testBusiness(`rs-${n}`, {
          name: `Pro ${n} Trees`,
          slug: `rs-pro-${n}`,
          email: `pro${n}@pros.test`,
          services: ["Tree Removal"],
          location: { lat: lat + n * 0.01, lng },
        }),
      );
  });

  /** A booking offered to pro 1, or a find-pros request offered to `pros`; its answer links. */
  async function lead(kind: "booking" | "find-pros", urgency: Lead["urgency"] = "routine", pros = [pro(1)]) {
    const data =
      kind === "booking"
        ? { ...validBooking("rs-1"), urgency: urgency === "emergency" ? "emergency" : "normal" }
        : { ...validFindPros(), location: "78701", serviceType: "Tree Removal" };
    const { lead } = await h!.store.leads.create(kind, data, {
      sourcePage: "/",
      urgency: urgency ?? "routine",
      routing: initialRouting(pros, urgency ?? "routine", Date.now()),
    });
    const link = (businessId = "rs-1") => sign.answerPath(lead.id, businessId, Date.now() + 86_400_000);
    return { lead, path: link(), link, statusPath: sign.statusPath(lead.id) };
  }

  describe("POST /respond/:token", () => {
    it("accepts (JSON or the page's form); an emergency's Accept and call comes back with the number first", async () => {
      const routine = await lead("booking");
      const json = await run(respondHandler(deps()), jsonRequest(routine.path, { action: "accept", window: "Sat" }));
      expect(json.status).toBe(200);
      expect(await json.json()).toEqual({ ok: true, outcome: "applied", state: "accepted" });

      const emergency = await lead("booking", "emergency");
      const res = await post(emergency.path, [
        ["action", "accept"],
        ["then", "call"],
      ]);
      expect(await expectFlash(h!.store, res, emergency.path)).toMatchObject({
        status: 200,
        form: "call",
        notice: NOTICES.applied.call,
      });
      expect(await delivery(emergency.lead.id)).toMatchObject({ state: "accepted", answeredAt: expect.any(String) });
    });

    it("gives an accepted job back with a reason: the operator has a booking at once, the visitor hears, the response time stays", async () => {
      const { lead: l, path } = await lead("booking");
      // Only a job it accepted can be given back.
      const notYet = await post(path, [
        ["action", "withdraw"],
        ["reason", "other"],
      ]);
      expect(await expectFlash(h!.store, notYet, path)).toMatchObject({ status: 409, problem: NOTICES.notYours });

      await post(path, [["action", "accept"]]);
      const accepted = await delivery(l.id);
      const figure = (await h!.store.businesses.get("rs-1"))!.responseCount;

      const missing = await post(path, [["action", "withdraw"]]);
      expect(await expectFlash(h!.store, missing, path)).toMatchObject({
        status: 422,
        form: "withdraw",
        errors: { reason: "Choose a reason for giving the job back." },
      });
      const res = await post(path, [
        ["action", "withdraw"],
        ["reason", "customer-unreachable"],
      ]);
      expect(await expectFlash(h!.store, res, path)).toMatchObject({ status: 200, notice: NOTICES.applied.withdraw });
      const after = await h!.store.leads.get(l.id);
      expect(after!.routing!.deliveries[0]).toMatchObject({
        state: "withdrawn",
        reason: "customer-unreachable",
        withdrawnAt: expect.any(String),
        answeredAt: accepted.answeredAt,
      });
      expect(after!.routing!.events.slice(-2)).toMatchObject([
        { kind: "withdrawn", businessId: "rs-1", reason: "customer-unreachable" },
        { kind: "escalated", reason: "withdrawn" },
      ]);
      expect((await h!.store.businesses.get("rs-1"))!.responseCount).toBe(figure);

      const messages = await h!.store.messages.forLead(l.id);
      expect(messages.find((m) => m.kind === "withdrawn")).toMatchObject({
        audience: "visitor",
        to: "bob@example.com",
        subject: `Pro 1 Trees can no longer take your request (${l.reference})`,
      });
      expect(messages.find((m) => m.kind === "withdrawn")!.text).toContain("customer unreachable");
      expect(messages.find((m) => m.kind === "escalated")!.subject).toMatch(/the pro who accepted withdrew/);

      // Again, or an answer after it: nothing changes.
      const again = await post(path, [
        ["action", "withdraw"],
        ["reason", "other"],
      ]);
      expect(await expectFlash(h!.store, again, path)).toMatchObject({ status: 200, notice: NOTICES.withdrawnAgain });
      const late = await post(path, [["action", "accept"]]);
      expect(await expectFlash(h!.store, late, path)).toMatchObject({ status: 409, problem: NOTICES.gaveBack });
      expect((await h!.store.leads.get(l.id))!.routing!.events).toHaveLength(after!.routing!.events.length);
    });

    it("a find-pros job given back waits on the pros still answering, else goes to the next pro", async () => {
      const waiting = await lead("find-pros", "routine", [pro(1), pro(2)]);
      await post(waiting.path, [["action", "accept"]]);
      await post(waiting.path, [
        ["action", "withdraw"],
        ["reason", "cant-make-it"],
      ]);
      const held = await h!.store.leads.get(waiting.lead.id);
      expect(held!.routing!.deliveries.map((d) => d.state)).toEqual(["withdrawn", "waiting"]);
      expect(held!.routing!.escalatedAt).toBeUndefined();

      const alone = await lead("find-pros", "routine", [pro(1), pro(2)]);
      await post(alone.link("rs-2"), [
        ["action", "decline"],
        ["reason", "too-busy"],
      ]);
      await post(alone.path, [["action", "accept"]]);
      await post(alone.path, [
        ["action", "withdraw"],
        ["reason", "not-as-described"],
      ]);
      const moved = await h!.store.leads.get(alone.lead.id);
      expect(moved!.routing!.deliveries.map((d) => [d.businessId, d.state])).toEqual([
        ["rs-1", "withdrawn"],
        ["rs-2", "declined"],
        ["rs-3", "waiting"],
      ]);
      expect(moved!.routing!.events.at(-1)).toMatchObject({ kind: "offered", businessId: "rs-3", reason: "next-pro" });
    });
  });

  describe("POST /respond/:token/call", () => {
    it("is refused until the business accepts, and again once it declined or gave the job back", async () => {
      const { lead: l, path } = await lead("booking");
      const before = await ping(path);
      expect(before.status).toBe(403);
      expect(await before.json()).toMatchObject({
        error: "Only a business that accepted this job can call the customer.",
      });
      await post(path, [["action", "accept"]]);
      expect((await ping(path)).status).toBe(204);
      expect((await delivery(l.id)).calledAt).toEqual(expect.any(String));
      expect((await ping(path)).status).toBe(204);
      await post(path, [
        ["action", "withdraw"],
        ["reason", "other"],
      ]);
      expect((await ping(path)).status).toBe(403);

      const declined = await lead("booking");
      await post(declined.path, [
        ["action", "decline"],
        ["reason", "too-far"],
      ]);
      expect((await ping(declined.path)).status).toBe(403);
      expect((await delivery(declined.lead.id)).calledAt).toBeUndefined();
      expect((await ping(`${declined.path.slice(0, -1)}${declined.path.endsWith("A") ? "B" : "A"}`)).status).toBe(404);
    });
  });

  describe("POST /requests/:leadId/:sig/done", () => {
    const done = (statusPath: string, fields: [string, string][], headers: Record<string, string> = {}) =>
      run(jobDoneHandler(deps()), formRequest(`${statusPath}/done`, fields, headers));

    it("marks the job a pro holds done, once; the status page's own post (Origin: null) is taken", async () => {
      const { lead: l, path, statusPath } = await lead("booking");
      const early = await done(statusPath, [["businessId", "rs-1"]]);
      expect(await expectFlash(h!.store, early, statusPath)).toMatchObject({
        status: 409,
        form: "done",
        problem: DONE_NOTICES.closed,
      });
      await post(path, [["action", "accept"]]);
      // The status page is sent with no-referrer: its form arrives with `Origin: null`.
      const res = await done(statusPath, [["businessId", "rs-1"]], { origin: "null", "sec-fetch-site": "same-origin" });
      expect(await expectFlash(h!.store, res, statusPath)).toMatchObject({
        status: 200,
        form: "done",
        notice: DONE_NOTICES.applied("Pro 1 Trees"),
      });
      const events = (await h!.store.leads.get(l.id))!.routing!.events;
      expect(events.at(-1)).toMatchObject({ kind: "completed", businessId: "rs-1" });
      const again = await done(statusPath, [["businessId", "rs-1"]]);
      expect(await expectFlash(h!.store, again, statusPath)).toMatchObject({ notice: DONE_NOTICES.repeated });
      expect((await h!.store.leads.get(l.id))!.routing!.events).toHaveLength(events.length);

      const none = await done(statusPath, [["businessId", ""]]);
      expect(await expectFlash(h!.store, none, statusPath)).toMatchObject({
        status: 422,
        problem: DONE_NOTICES.choose,
      });
    });

    it("a changed status link changes nothing", async () => {
      const { lead: l, path, statusPath } = await lead("booking");
      await post(path, [["action", "accept"]]);
      const before = await h!.store.leads.get(l.id);
      const forged = `${statusPath.slice(0, -1)}${statusPath.endsWith("A") ? "B" : "A"}`;
      const res = await done(forged, [["businessId", "rs-1"]]);
      expect(await expectFlash(h!.store, res, forged)).toMatchObject({ status: 404 });
      expect(await h!.store.leads.get(l.id)).toEqual(before);
    });
  });
});
