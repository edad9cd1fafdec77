/** A fixed-seed sample of the endpoint fuzzer (`npm run bench:fuzz` runs >= 10,000 cases). */
import { afterAll, describe, expect, it } from "vitest";
import { formatCounts, fuzzRig, runFuzz } from "../../helpers/fuzz.ts";

const rig = await fuzzRig("fuzz");
const canary = await fuzzRig("fuzz-canary");

describe.skipIf(!rig)("fuzzing the public endpoints (fixed seed)", () => {
  afterAll(async () => {
    await rig?.teardown();
    await canary?.teardown();
  });

  it("never answers 5xx, answers 4xx as JSON errors, stores only valid leads and each valid one once", async () => {
    const stats = await runFuzz(rig!, { seed: 20261122, numRuns: 600 });
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
});
