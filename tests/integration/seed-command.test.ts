/**
 * `npm run seed` (scripts/seed-command.ts): the sample directory goes into the embedded store
 * as before, into Redis or Upstash only with --sample; without it the command refuses, exits
 * non-zero, writes nothing and says how to import real businesses.
 */
import { execFile } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { createStore, type Store } from "../../netlify/lib/store/index.ts";
import { parseEnv } from "../../src/lib/env.ts";
import { IMPORT_COMMAND, IMPORT_DOC, parseSeedArgs, runSeed, seedRefusal } from "../../scripts/seed-command.ts";

const run = promisify(execFile);

function seedFile(): string {
  const file = join(mkdtempSync(join(tmpdir(), "seed-")), "businesses.json");
  const business = {
    id: "s-001",
    name: "Sample Oak Care",
    slug: "sample-oak-care",
    description: "A sample.",
    city: "Austin",
    state: "TX",
    zipCode: "78701",
    address: "1 Main St",
    isFeatured: false,
    services: ["Tree Trimming"],
    specialties: [],
    serviceAreas: ["Austin"],
    businessHours: {},
    yearsInBusiness: 3,
    isSample: true,
    reviews: [
      {
        customerName: "A.",
        rating: 5,
        title: "Good",
        reviewText: "They trimmed the cedar elm.",
        serviceType: "Tree Trimming",
        // Whatever a file says, a sample review is never stored as Verified.
        isVerified: true,
        createdAt: "2025-01-01T00:00:00Z",
      },
    ],
  };
  writeFileSync(file, JSON.stringify([business]));
  return file;
}

function capture() {
  const out: string[] = [];
  const err: string[] = [];
  return { out, err, log: (l: string) => out.push(l), error: (l: string) => err.push(l) };
}

/** A server store as the command sees it; any use but its kind and description fails the test. */
function serverStore(kind: "redis" | "upstash"): Store {
  return new Proxy({ kind, description: `${kind} at db.example:6379` } as Store, {
    get(target, prop) {
      if (prop in target || prop === "then") return target[prop as keyof Store];
      throw new Error(`the refused seed touched store.${String(prop)}`);
    },
  });
}

describe("npm run seed", () => {
  it("reads --sample and a file; refuses unknown options", () => {
    expect(parseSeedArgs([])).toEqual({ sample: false });
    expect(parseSeedArgs(["--sample", "x.json"])).toEqual({ sample: true, file: "x.json" });
    expect(parseSeedArgs(["--force"])).toMatchObject({ error: expect.stringContaining("--force") });
    expect(parseSeedArgs(["a.json", "b.json"])).toMatchObject({ error: expect.any(String) });
  });

  it("refuses Redis and Upstash without --sample, naming the import; the embedded store and --sample go ahead", () => {
    for (const kind of ["redis", "upstash"] as const) {
      const refused = seedRefusal(kind, "the store", { sample: false });
      expect(refused).toContain(IMPORT_COMMAND);
      expect(refused).toContain(IMPORT_DOC);
      expect(refused).toContain("npm run seed -- --sample");
      expect(seedRefusal(kind, "the store", { sample: true })).toBeNull();
    }
    expect(seedRefusal("embedded", "the store", { sample: false })).toBeNull();
  });

  it("against a server store without --sample: exit code 1, nothing written, how to import", async () => {
    for (const kind of ["redis", "upstash"] as const) {
      const io = capture();
      const code = await runSeed([seedFile()], { store: serverStore(kind), config: parseEnv({}), ...io });
      expect(code).toBe(1);
      expect(io.out).toEqual([]);
      expect(io.err.join("\n")).toMatch(/refused: the seed is the sample directory/);
      expect(io.err.join("\n")).toContain("npm run import -- ");
    }
  });

  it("seeds the embedded store, notes sample data, and stores no review as Verified", async () => {
    const store = createStore({ transport: "embedded" });
    try {
      const io = capture();
      const code = await runSeed([seedFile()], { store, config: parseEnv({}), ...io });
      expect(io.err).toEqual([]);
      expect(code).toBe(0);
      expect(io.out.join("\n")).toMatch(/1 businesses, 1 reviews added.*1 are sample listings/);
      expect(await store.businesses.get("s-001")).toMatchObject({ isSample: true, reviewCount: 1 });
      expect((await store.reviews.list("s-001")).map((r) => r.isVerified)).toEqual([false]);
      expect(await store.meta.seeding()).toMatchObject({ sample: true });
    } finally {
      await store.close();
    }
  });

  it("with --sample, a server store is seeded too (the CDN purged when configured)", async () => {
    const store = createStore({ transport: "embedded" });
    // The same store dressed as a server one: --sample lets the demo in.
    const dressed = new Proxy(store, { get: (t, p) => (p === "kind" ? "redis" : t[p as keyof Store]) });
    const purged: string[][] = [];
    try {
      const io = capture();
      const code = await runSeed(["--sample", seedFile()], {
        store: dressed,
        config: parseEnv({}),
        purge: async (tags) => void purged.push(tags),
        ...io,
      });
      expect(io.err).toEqual([]);
      expect(code).toBe(0);
      expect(purged).toEqual([["directory"]]);
      expect(await store.businesses.count()).toBe(1);
    } finally {
      await store.close();
    }
  });

  it("the command itself: REDIS_URL set and no --sample exits non-zero with the import's command", async () => {
    const failed = await run(process.execPath, ["--import", "tsx", "scripts/seed.ts"], {
      env: { ...process.env, REDIS_URL: "redis://127.0.0.1:6379", REDIS_KEY_PREFIX: `seed-refusal-${process.pid}:` },
    }).then(
      () => null,
      (e: { code: number; stderr: string }) => e,
    );
    expect(failed?.code).toBe(1);
    expect(failed?.stderr).toContain("npm run import -- ");
    expect(failed?.stderr).toContain("--sample");
  }, 30_000);
});
