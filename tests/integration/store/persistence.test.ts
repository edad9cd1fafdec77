/**
 * The embedded store on disk: data survives a restart, concurrent instances (Netlify's local
 * runtime runs each request in its own worker) see each other's writes and never lose one,
 * and the seed runs once on first start.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { createStore, type Store } from "../../../netlify/lib/store/index.ts";

const dir = mkdtempSync(join(tmpdir(), "treeline-store-"));
const open: Store[] = [];
afterAll(async () => {
  await Promise.all(open.map((s) => s.close()));
  rmSync(dir, { recursive: true, force: true });
});

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
    expect(JSON.parse(readFileSync(file, "utf8")).format).toBe("treeline-embedded/1");
  });

  it("lets concurrent instances see each other's writes without losing any", async () => {
    const file = join(dir, "shared", "store.json");
    const a = embedded(file);
    const b = embedded(file);
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
    // Two instances starting together must not both seed.
    const [x, y] = [embedded(file, seedFile), embedded(file, seedFile)];
    await Promise.all([x.ready(), y.ready()]);
    expect((await x.businesses.list()).total).toBe(2);
    expect(await y.businesses.get("p-1")).toMatchObject({ reviewCount: 1, rating: "5.0" });
    await x.reviews.add("p-1", { customerName: "Later", rating: 3 });

    const restarted = embedded(file, seedFile);
    expect(await restarted.businesses.get("p-1")).toMatchObject({ reviewCount: 2, rating: "4.0" });
    expect((await restarted.reviews.list("p-1")).map((r) => r.customerName)).toEqual(["Later", "A"]);
  });

  it("stays in memory without a file", async () => {
    const a = createStore({ transport: "embedded" });
    const b = createStore({ transport: "embedded" });
    open.push(a, b);
    await a.businesses.upsert(business(1));
    expect(await b.businesses.get("p-1")).toBeNull();
  });
});
