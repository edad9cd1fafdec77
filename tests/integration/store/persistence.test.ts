/**
 * The embedded store on disk: data survives a restart, every copy of the store code the local
 * server runs (functions, on-demand pages) shares the server's one backend and loses no
 * concurrent write, the seed runs once on first start, and the single file of earlier
 * versions is carried over once.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it, vi } from "vitest";
import { createStore, lendEmbeddedBackend, type Store } from "../../../netlify/lib/store/index.ts";
import { EmbeddedBackend } from "../../../netlify/lib/store/transports/embedded.ts";
import { openLocalStore } from "../../../netlify/lib/store/local.ts";
import { contentsOf } from "./embedded-contents.ts";

const dir = mkdtempSync(join(tmpdir(), "treeline-store-"));
const open: Store[] = [];
afterAll(async () => {
  await Promise.all(open.map((s) => s.close()));
  rmSync(dir, { recursive: true, force: true });
});

/** A server's backend on `file`, lent to the stores created until `done` is called. */
function lend(file: string) {
  const backend = new EmbeddedBackend({ file });
  lendEmbeddedBackend(backend);
  const borrower = (seedFile?: string) => {
    const store = createStore({ transport: "embedded", prefix: "treeline:", seedFile });
    open.push(store);
    return store;
  };
  return {
    borrower,
    async done() {
      lendEmbeddedBackend(undefined);
      await backend.close();
    },
  };
}

function embedded(file: string, seedFile?: string): Store {
  const store = createStore({ transport: "embedded", prefix: "treeline:", file, seedFile });
  open.push(store);
  return store;
}

const business = (n: number, city = "Austin") => ({
  id: `p-${n}`,
  name: `Persisted Tree ${n}`,
  slug: `persisted-tree-${n}`,
  description: "Pecan pruning specialists.",
  city: city as "Austin",
  zipCode: "78701",
  address: "1 Main St",
  isFeatured: n === 1,
  services: ["Tree Pruning"],
  specialties: [],
  serviceAreas: [],
  businessHours: {},
  yearsInBusiness: 3,
});

describe("embedded store persistence", () => {
  it("keeps businesses, reviews, leads and indexes across a restart", async () => {
    const file = join(dir, "restart", "store.json");
    const first = embedded(file);
    await first.businesses.upsert(business(1));
    await first.businesses.upsert(business(2, "Dallas"));
    await first.reviews.add("p-2", { customerName: "Kim", rating: 4 });
    const { lead } = await first.leads.create(
      "booking",
      { customerName: "Kim" },
      { sourcePage: "/directory/persisted-tree-2", idempotencyKey: "k1" },
    );
    const listed = await first.businesses.list({ search: "pecan" });
    await first.close();

    const second = embedded(file);
    expect(await second.businesses.getBySlug("persisted-tree-2")).toMatchObject({ rating: "4.0", reviewCount: 1 });
    expect(await second.businesses.list({ search: "pecan" })).toEqual(listed);
    expect((await second.businesses.list({ city: "dallas" })).total).toBe(1);
    expect(await second.leads.get(lead.id)).toEqual(lead);
    // The idempotency claim (a key with a TTL) survived too.
    expect(
      (await second.leads.create("booking", { customerName: "Kim" }, { sourcePage: "/", idempotencyKey: "k1" }))
        .duplicate,
    ).toBe(true);
    const header = readFileSync(join(dir, "restart", "store.log.1"), "utf8").split("\n")[0]!;
    expect(JSON.parse(header.slice(9))).toMatchObject({ format: "treeline-embedded/2", kind: "log", log: 1 });
  });

  it("carries the single store.json of earlier versions over once, keys, values and expiries alike", async () => {
    const folder = join(dir, "carried");
    mkdirSync(folder);
    const file = join(folder, "store.json");
    const later = Date.now() + 3_600_000;
    writeFileSync(
      file,
      JSON.stringify({
        format: "treeline-embedded/1",
        savedAt: "2025-01-01T00:00:00.000Z",
        keys: {
          "treeline:s": { type: "string", value: "text" },
          "treeline:h": { type: "hash", value: { a: "1", b: "2" }, expiresAt: later },
          "treeline:set": { type: "set", value: ["x", "y"] },
          "treeline:z": {
            type: "zset",
            value: [
              ["m", 2],
              ["n", 1.5],
            ],
          },
          "treeline:l": { type: "list", value: ["3", "2", "1"] },
          "treeline:gone": { type: "string", value: "expired", expiresAt: Date.now() - 1 },
        },
      }),
    );
    writeFileSync(`${file}.prev`, "{}");
    const expected = {
      "treeline:h": { type: "hash", value: { a: "1", b: "2" }, expiresAt: later },
      "treeline:l": { type: "list", value: ["3", "2", "1"], expiresAt: -1 },
      "treeline:s": { type: "string", value: "text", expiresAt: -1 },
      "treeline:set": { type: "set", value: ["x", "y"], expiresAt: -1 },
      "treeline:z": { type: "zset", value: ["n", "1.5", "m", "2"], expiresAt: -1 },
    };
    const first = new EmbeddedBackend({ file });
    expect(await contentsOf(first)).toEqual(expected);
    await first.command(["SET", "treeline:after", "1"]);
    await first.close();
    expect(readdirSync(folder).sort()).toEqual(["store.json.v1", "store.log.1", "store.snapshot"]);
    // Read once: the next start reads the snapshot and the log, and the old file no more.
    writeFileSync(join(folder, "store.json.v1"), "not read again");
    const second = new EmbeddedBackend({ file });
    expect(await contentsOf(second)).toEqual({
      ...expected,
      "treeline:after": { type: "string", value: "1", expiresAt: -1 },
    });
    await second.close();
  });

  it("carries over the previous save when the old store.json cannot be read", async () => {
    const folder = join(dir, "carried-damaged");
    mkdirSync(folder);
    const file = join(folder, "store.json");
    writeFileSync(file, '{"format":"treeline-embedded/1","keys":{"treeline:a"');
    writeFileSync(
      `${file}.prev`,
      JSON.stringify({
        format: "treeline-embedded/1",
        savedAt: "x",
        keys: { "treeline:a": { type: "string", value: "1" } },
      }),
    );
    const quiet = vi.spyOn(console, "error").mockImplementation(() => {});
    try {
      const backend = new EmbeddedBackend({ file });
      expect(await backend.command(["GET", "treeline:a"])).toBe("1");
      await backend.close();
      expect(quiet).toHaveBeenCalledWith(expect.stringMatching(/store\.json could not be read .*previous save/));
    } finally {
      quiet.mockRestore();
    }
    expect(readdirSync(folder).filter((n) => n.startsWith("store.json.damaged-"))).toHaveLength(1);
    expect(existsSync(`${file}.prev`)).toBe(false);
  });

  it("shares the server's backend with every copy of the store code, losing no concurrent write", async () => {
    const file = join(dir, "shared", "store.json");
    const server = lend(file);
    const a = server.borrower();
    const b = server.borrower();
    await a.businesses.upsert(business(1));
    expect((await b.businesses.get("p-1"))?.name).toBe("Persisted Tree 1");
    await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        (i % 2 ? a : b).reviews.add("p-1", { customerName: `R${i}`, rating: (i % 5) + 1 }),
      ),
    );
    for (const s of [a, b]) {
      expect((await s.businesses.get("p-1"))?.reviewCount).toBe(12);
      expect(await s.reviews.list("p-1")).toHaveLength(12);
    }
    // Closing a borrower leaves the server's backend open.
    await a.close();
    expect((await b.businesses.get("p-1"))?.reviewCount).toBe(12);
    await server.done();
    const c = embedded(file);
    expect((await c.businesses.get("p-1"))?.reviewCount).toBe(12);
  });

  it("seeds itself once, on first start", async () => {
    const file = join(dir, "seeded", "store.json");
    const seedFile = join(dir, "seed.json");
    writeFileSync(
      seedFile,
      JSON.stringify([
        {
          ...business(1),
          reviews: [
            {
              customerName: "A",
              rating: 5,
              title: "",
              reviewText: "",
              serviceType: "",
              isVerified: true,
              createdAt: "2024-01-01T00:00:00Z",
            },
          ],
        },
        { ...business(2), reviews: [] },
      ]),
    );
    // Two copies of the store code starting together must not both seed.
    const server = lend(file);
    const [x, y] = [server.borrower(seedFile), server.borrower(seedFile)];
    await Promise.all([x.ready(), y.ready()]);
    expect((await x.businesses.list()).total).toBe(2);
    expect(await y.businesses.get("p-1")).toMatchObject({ reviewCount: 1, rating: "5.0" });
    await x.reviews.add("p-1", { customerName: "Later", rating: 3 });
    await server.done();

    const restarted = embedded(file, seedFile);
    expect(await restarted.businesses.get("p-1")).toMatchObject({ reviewCount: 2, rating: "4.0" });
    expect((await restarted.reviews.list("p-1")).map((r) => r.customerName)).toEqual(["Later", "A"]);
  });

  it("a caller that only reads, in a loop, does not hold up the log's own work", async () => {
    const file = join(dir, "reading", "store.json");
    const backend = new EmbeddedBackend({ file });
    for (let i = 0; i < 100; i++) await backend.command(["SET", `k${i}`, "v"]);
    // Reads need no I/O: without a turn for the event loop, the compaction's files never open.
    let done = false;
    const compacting = backend.compactNow().then(() => (done = true));
    let reads = 0;
    while (!done) {
      await backend.command(["GET", "k1"]);
      reads++;
    }
    await compacting;
    expect(reads).toBeGreaterThan(0);
    expect(readdirSync(join(dir, "reading"))).toContain("store.snapshot");
    await backend.close();
  });

  it("removes the seeding folders a server killed mid-seed left beside the data file", async () => {
    const data = join(dir, "left-seeding");
    mkdirSync(join(data, ".seeding-abc123"), { recursive: true });
    writeFileSync(join(data, ".seeding-abc123", "store.json"), "half a seed");
    const local = await openLocalStore({
      TREELINE_DATA_DIR: data,
      TREELINE_EMBEDDED_PERSIST: "1",
      TREELINE_AUTO_SEED: "0",
    });
    expect(readdirSync(data).filter((name) => name.startsWith(".seeding-"))).toEqual([]);
    await local.close();
  });

  it("stays in memory without a file", async () => {
    const a = createStore({ transport: "embedded" });
    const b = createStore({ transport: "embedded" });
    open.push(a, b);
    await a.businesses.upsert(business(1));
    expect(await b.businesses.get("p-1")).toBeNull();
  });
});
