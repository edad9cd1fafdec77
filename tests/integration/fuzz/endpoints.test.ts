/** A fixed-seed sample of the endpoint fuzzer (`npm run bench:fuzz` runs >= 10,000 cases). */
import { afterAll, describe, expect, it } from "vitest";
import { FUZZ_OWNER_BUSINESS, formatCounts, fuzzRig, runFuzz, type FuzzRig } from "../../helpers/fuzz.ts";
import { redirectWithFlash } from "../../../netlify/lib/form-flash.ts";

const rig = await fuzzRig("fuzz");
const canary = await fuzzRig("fuzz-canary");

describe.skipIf(!rig)("fuzzing the public endpoints and the owner's pages (fixed seed)", () => {
  afterAll(async () => {
    await rig?.teardown();
    await canary?.teardown();
  });

  it("never answers 5xx, answers 4xx as JSON errors (owner pages: 303 back to the page, a refusal changing nothing), stores only valid leads and each valid one once", async () => {
    const stats = await runFuzz(rig!, { seed: 20261122, numRuns: 1000 });
    console.info(
      `[fuzz] ${stats.cases} cases, ${stats.validSubmissions} valid (${stats.replays} replayed), ${stats.storedLeads} leads and ${stats.storedReviews} reviews stored\n${formatCounts(stats)}`,
    );
    expect(stats.failures).toEqual([]);
    expect(stats.validSubmissions).toBeGreaterThan(10);
    expect(stats.storedLeads).toBeGreaterThanOrEqual(stats.validSubmissions);
  }, 25_000);

  it("catches a handler that answers 5xx, a non-JSON 4xx and a lead stored without a 201 (canary)", async () => {
    const quote = canary!.handlers["POST /api/quote"];
    let n = 0;
    canary!.handlers["POST /api/quote"] = async (req, context) => {
      n++;
      if (n === 1) return new Response("boom", { status: 500 });
      if (n === 2) return new Response("nope", { status: 400, headers: { "content-type": "text/plain" } });
      if (n === 3) {
        await canary!.h.store.leads.create("quote", { name: 42 }, { sourcePage: "/" });
        return Response.json({ error: "bad" }, { status: 400 });
      }
      return quote(req, context);
    };
    const stats = await runFuzz(canary!, { seed: 1, numRuns: 120 });
    const all = stats.failures.join("\n");
    expect(all).toMatch(/5xx/);
    expect(all).toMatch(/not JSON/);
    expect(all).toMatch(/does not validate/);
    expect(all).toMatch(/never answered 201/);
  }, 25_000);

  it("catches an owner post that answers 5xx, a JSON refusal or a refused post that changed the listing (canary)", async () => {
    const owner = await fuzzRig("fuzz-owner-canary");
    try {
      // The profile and credentials posts share one broken handler: the first three writes misbehave.
      let n = 0;
      const broken =
        (real: FuzzRig["handlers"][string]): FuzzRig["handlers"][string] =>
        async (req, context) => {
          if (req.method !== "POST") return real(req, context);
          n++;
          if (n === 1) return new Response("boom", { status: 500 });
          if (n === 2) return Response.json({ error: "bad" }, { status: 400 });
          if (n === 3) {
            const store = owner!.h.store;
            const business = (await store.businesses.get(FUZZ_OWNER_BUSINESS))!;
            await store.businesses.upsert({ ...business, description: "Changed by a refused post." });
            const path = new URL(req.url).pathname;
            return redirectWithFlash(store, { path, status: 422, problem: "No" });
          }
          return real(req, context);
        };
      owner!.handlers["/owner/profile"] = broken(owner!.handlers["/owner/profile"]!);
      owner!.handlers["/owner/credentials"] = broken(owner!.handlers["/owner/credentials"]!);
      const stats = await runFuzz(owner!, { seed: 3, numRuns: 200 });
      const all = stats.failures.join("\n");
      expect(n).toBeGreaterThanOrEqual(3);
      expect(all).toMatch(/\/owner\/(profile|credentials) .*5xx/);
      expect(all).toMatch(/not a 303 to its page/);
      expect(all).toMatch(/a refused post changed the listing/);
    } finally {
      await owner?.teardown();
    }
  }, 25_000);
});
