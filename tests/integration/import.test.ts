/**
 * The business import end to end, on the embedded store and on a real Redis: docs/import-example.csv
 * as a dry run (its rejects, nothing written), applied (the rest loaded, the directory purged),
 * applied again (nothing changes); the imported businesses are found by search and near 83702,
 * unclaimed and without reviews. Then `npm run import` itself (scripts/import.ts) against both.
 */
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { runImport } from "../../netlify/lib/import/run.ts";
import { createStore, type Store } from "../../netlify/lib/store/index.ts";
import { zipPoint } from "../../src/lib/geo/places.ts";
import { deleteKeysWithPrefix, resolveTestRedisUrl, uniquePrefix } from "../helpers/redis.ts";

const EXAMPLE = "docs/import-example.csv";
const csv = readFileSync(EXAMPLE, "utf8");
const redisUrl = await resolveTestRedisUrl();
const run = promisify(execFile);

const transports: { name: string; open(): Store | null }[] = [
  { name: "embedded", open: () => createStore({ transport: "embedded", prefix: "treeline:test:import:" }) },
  {
    name: "redis",
    open: () => (redisUrl ? createStore({ transport: "redis", url: redisUrl, prefix: uniquePrefix("import") }) : null),
  },
];

const opened: Store[] = [];
afterAll(async () => {
  for (const store of opened) {
    await store.close();
    if (store.kind === "redis" && redisUrl) await deleteKeysWithPrefix(redisUrl, store.prefix);
  }
});

describe.each(transports)("importing docs/import-example.csv ($name)", ({ name, open }) => {
  const store = open();
  if (store) opened.push(store);

  it.skipIf(!store)("dry run lists the rejects, apply loads the rest, a second apply changes nothing", async () => {
    const s = store!;
    const purges: string[][] = [];
    const purge = async (tags: string[]) => void purges.push(tags);

    const dry = await runImport(s, csv, { apply: false });
    if (!dry.ok) throw new Error(dry.error);
    expect(dry.plan.rejected.map((r) => [r.line, r.reasons.join("; ")])).toEqual([
      [7, "ZIP 99999 does not exist"],
      [8, expect.stringMatching(/^unknown service "Hedge Trimming"/)],
      [9, "ZIP 83702 is in ID, not WA"],
    ]);
    expect(dry.plan.merged).toEqual([{ line: 6, into: 2, why: ["phone", "name and ZIP"] }]);
    expect(dry.summary).toMatchObject({ rows: 8, rejected: 3, merged: 1, new: 4, updated: 0, changes: 4 });
    expect(await s.businesses.count()).toBe(0);

    const applied = await runImport(s, csv, { apply: true, purge });
    if (!applied.ok) throw new Error(applied.error);
    expect(applied.applied).toEqual({ written: 4, remaining: 0, failed: [], purged: true });
    expect(purges).toEqual([["directory"]]);
    expect(await s.businesses.count()).toBe(4);

    const again = await runImport(s, csv, { apply: true, purge });
    if (!again.ok) throw new Error(again.error);
    expect(again.summary).toMatchObject({ new: 0, updated: 0, unchanged: 4, changes: 0 });
    expect(again.applied?.written).toBe(0);
    expect(purges).toHaveLength(1);
  });

  it.skipIf(!store)("imported businesses are found by search and near 83702, unclaimed, without reviews", async () => {
    const s = store!;
    const found = await s.businesses.list({ search: "treasure valley" });
    expect(found.data.map((b) => b.name)).toEqual(["Treasure Valley Tree Care"]);
    const boise = found.data[0]!;
    // The duplicate on line 6 filled the e-mail and added a service; the first row's hours stayed.
    expect(boise).toMatchObject({
      city: "Boise",
      state: "ID",
      zipCode: "83702",
      phone: "(208) 555-0141",
      email: "office@treasurevalleytree.example.com",
      services: ["Tree Removal", "Tree Trimming", "Stump Grinding", "Storm Cleanup"],
      timeZone: "America/Boise",
      isFeatured: false,
      isSample: false,
      rating: "0.0",
      reviewCount: 0,
      licenseNumber: "ID-ARB-20417",
    });
    expect(boise.businessHours).toMatchObject({ monday: "7:00 AM - 6:00 PM", saturday: "8:00 AM - 12:00 PM" });
    expect(boise.businessHours.sunday).toBeUndefined();
    expect(boise.credentials).toBeUndefined();

    const point = zipPoint("83702")!;
    const near = await s.businesses.list({ near: point, radius: 25, sort: "distance" });
    expect(near.data.map((b) => b.name)).toEqual([
      "Treasure Valley Tree Care",
      "Foothills Arbor Works",
      "Gem State Storm Crew",
    ]);
    const byAppointment = near.data.find((b) => b.name === "Foothills Arbor Works")!;
    expect(byAppointment).toMatchObject({ byAppointment: true, businessHours: {} });
    expect((await s.businesses.list({ near: point, radius: 25, service: "Storm Cleanup" })).total).toBe(2);
    expect((await s.businesses.list({ near: point, radius: 25, emergency: true })).data.map((b) => b.name)).toEqual([
      "Gem State Storm Crew",
    ]);

    for (const b of (await s.businesses.list({ limit: 50 })).data) {
      expect(await s.reviews.count(b.id)).toBe(0);
      expect(await s.owners.list(b.id)).toEqual([]);
    }
  });

  it.skipIf(!store)(`updates what a changed file changes, and nothing else (${name})`, async () => {
    const s = store!;
    const changed = csv.replace("Mon-Fri 8 AM - 5 PM", "Mon-Sat 8 AM - 5 PM");
    const result = await runImport(s, changed, { apply: true, purge: async () => {} });
    if (!result.ok) throw new Error(result.error);
    expect(result.plan.changes.filter((c) => c.kind === "updated")).toMatchObject([
      { name: "Cascade Tree Service", fields: ["hours"] },
    ]);
    expect((await s.businesses.getBySlug("cascade-tree-service-portland"))?.businessHours.saturday).toBe(
      "8:00 AM - 5:00 PM",
    );
  });
});

// Each run starts Node, tsx and the store: seconds each on a busy two-core machine.
describe.concurrent("npm run import (scripts/import.ts)", { timeout: 120_000 }, () => {
  const cli = (env: Record<string, string>, ...args: string[]) =>
    run(process.execPath, ["--import", "tsx", "scripts/import.ts", EXAMPLE, ...args], {
      env: { ...process.env, NODE_ENV: "production", ...env },
      timeout: 60_000,
    }).then(({ stdout }) => stdout);

  it.skipIf(!redisUrl)(
    "on Redis: a dry run lists the rejects and writes nothing; --apply twice writes once",
    async () => {
      const prefix = uniquePrefix("import-cli");
      const env = { REDIS_URL: redisUrl!, REDIS_KEY_PREFIX: prefix };
      try {
        const dry = await cli(env);
        expect(dry).toContain('line 7 "Sawtooth Tree Co": ZIP 99999 does not exist');
        expect(dry).toContain('line 8 "Mile High Hedge & Tree": unknown service "Hedge Trimming"');
        expect(dry).toContain('line 9 "Inland Empire Arborists": ZIP 83702 is in ID, not WA');
        expect(dry).toContain("Dry run: nothing was written. Run again with --apply to write 4 changes.");
        expect(await cli(env, "--apply")).toContain("Applied: 4 changes written.");
        const second = await cli(env, "--apply");
        expect(second).toContain("0 new, 0 updated, 4 unchanged");
        expect(second).toContain("Applied: 0 changes written.");
      } finally {
        await deleteKeysWithPrefix(redisUrl!, prefix);
      }
    },
  );

  it("on the embedded store: writes to the data folder `npm start` reads", async () => {
    const dir = mkdtempSync(join(tmpdir(), "treeline-import-"));
    const env = { TREELINE_DATA_DIR: dir, REDIS_URL: "", UPSTASH_REDIS_REST_URL: "", TREELINE_EMBEDDED_PERSIST: "1" };
    try {
      expect(await cli(env, "--apply")).toContain("Applied: 4 changes written.");
      expect(await cli(env, "--apply")).toContain("Applied: 0 changes written.");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
