/**
 * npm run bench:directory
 *
 * Directory query latency at 1k, 10k and 100k businesses on the real Redis (REDIS_URL or
 * 127.0.0.1:6379). Each size is bulk-loaded under its own key prefix with exactly the
 * repository's key layout (indexPlan), queried through the repository, then deleted.
 * Prints p50/p95 per query kind and size, the 100k/1k ratio (target <= 1.5) and the Redis
 * round trips each kind costs; writes bench/results/directory.json. It measures; it never
 * fails a build.
 *
 * Near-me rows: every synthetic business sits at a real US ZIP centroid. The first 1,000
 * are in the four Texas metros (ZIPs within 40 miles of their centres: about the number of
 * tree services those areas really have), and growth beyond that covers the rest of the
 * country (ZIPs over 100 miles from them), the way a directory grows past its first metros:
 * Round Rock does not get a hundred times more tree services. So the rows show what a
 * search costs as the directory grows, with the businesses inside the radius held alike
 * (their count per query is printed). Queries: a metro ZIP + radius + service + open now,
 * and a ZIP with nearest first. See docs/directory.md.
 *
 * Options: BENCH_SIZES=1000,10000 BENCH_SAMPLES=500
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { connect, type Socket } from "node:net";
import { Redis as IORedis } from "ioredis";
import { CITIES } from "../src/lib/options.ts";
import { Business } from "../src/lib/schemas/business.ts";
import { createStore, DEFAULT_PREFIX, type Store } from "../netlify/lib/store/index.ts";
import { keyspace } from "../netlify/lib/store/keys.ts";
import { indexPlan, nearPlan } from "../netlify/lib/store/repos/businesses.ts";
import zipcodes from "zipcodes";
import { findPlace } from "../src/lib/geo/places.ts";
import { distanceMiles } from "../src/lib/geo/distance.ts";
import { OPEN_24_HOURS } from "../src/lib/hours.ts";
import { PRO_SERVICES } from "../src/lib/options.ts";

const REDIS_URL = process.env.REDIS_URL || "redis://127.0.0.1:6379";
const SIZES = (process.env.BENCH_SIZES ?? "1000,10000,100000").split(",").map(Number);
const SAMPLES = Number(process.env.BENCH_SAMPLES ?? 500);
const WARMUP = 30;
const BASE_PREFIX = `${process.env.REDIS_KEY_PREFIX ?? DEFAULT_PREFIX}bench:${process.pid}:`;

// --- synthetic directory -------------------------------------------------------------------

/** Deterministic PRNG so every run and size draws the same kind of data. */
function rng(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (n: number) => Math.floor(next() * n);
  const pick = <T>(list: readonly T[]): T => list[int(list.length)]!;
  const some = <T>(list: readonly T[], min: number, max: number): T[] => {
    const copy = [...list];
    const n = min + int(max - min + 1);
    for (let i = copy.length - 1; i > 0; i--) {
      const j = int(i + 1);
      [copy[i], copy[j]] = [copy[j]!, copy[i]!];
    }
    return copy.slice(0, n);
  };
  return { next, int, pick, some };
}

const PLACES = ["Balcones", "Bayou", "Lone Star", "Alamo", "Trinity", "Brazos", "Pecan", "Live Oak", "Cypress", "Mesquite", "Hill Country", "Gulf Coast", "Blackland", "Riverbend", "Canyon", "Cedar Park", "Heights", "Westlake", "Bluebonnet", "Red River", "Oak Cliff", "Medina", "Guadalupe", "Pedernales", "Colorado", "San Marcos", "Buda", "Katy", "Plano", "Frisco", "Round Rock", "Leander", "Spring", "Cypress Creek", "Memorial", "Lakeway", "Boerne", "Helotes", "Seguin", "Kyle"];
const SUFFIXES = ["Tree Service", "Tree Care", "Arbor Co.", "Arborists", "Tree Experts", "Tree & Stump", "Canopy Works", "Tree Pros", "Limb & Stump", "Tree Company", "Urban Forestry", "Tree Surgeons"];
const SERVICES = ["Tree Removal", "Tree Trimming", "Stump Grinding", "Emergency Service", "Tree Pruning", "Lot Clearing", "Storm Cleanup", "Tree Health Assessment", "Cabling & Bracing"];
const SPECIALTIES = ["Heritage oaks", "Oak wilt prevention", "Oak wilt treatment", "Crane-assisted removal", "Palm trimming", "Pecan and oak care", "Cedar clearing", "Mesquite and huisache clearing", "Hurricane response", "Hail storm response", "Root zone care", "Deep-root fertilization", "Young tree structural pruning", "Crape myrtle pruning", "Forestry mulching", "Brush haul-off", "Permit-ready removals", "Historic district trees", "Japanese maples", "Bald cypress care", "Same-week stump grinding", "Commercial properties", "HOA clearance trims", "Bilingual crew (English/Spanish)", "Drought recovery", "Magnolia and sweetgum removal", "Cottonwood removal", "Cabling and lightning protection"];
const SENTENCES = [
  "Family-owned and operated since {year}, we look after {species} across {city}.",
  "Our ISA-certified arborists handle everything from careful {work} to full crane removals.",
  "We specialise in {species} and {species2}, with same-week scheduling for most jobs.",
  "Every crew carries full liability insurance and cleans up every last twig before leaving.",
  "Storm damage? Our 24/7 emergency team is on site fast, day or night.",
  "We grind stumps below grade, haul the chips and leave the lawn ready for seed.",
  "Free written estimates, honest pricing and no surprise fees.",
  "From young tree structural pruning to hazardous removals near homes and power lines.",
  "We treat oak wilt, prune in the safe season and paint every wound the same day.",
  "Serving homeowners, HOAs and commercial properties throughout {city} and nearby towns.",
  "Bilingual crews, clear communication and work guaranteed in writing.",
  "Lot clearing, brush mulching and fence-line clearing for builders and ranch owners.",
];
const SPECIES = ["live oaks", "post oaks", "pecans", "cedar elms", "magnolias", "bald cypress", "crape myrtles", "palms", "mesquites", "red oaks", "sycamores", "cottonwoods", "hackberries", "Ashe junipers"];
const WORK = ["pruning", "canopy thinning", "crown raising", "deadwood removal", "view pruning", "cabling"];

const Profile = Business.omit({ rating: true, reviewCount: true });

/** Every US ZIP centroid, in a fixed order. */
const US_ZIPS = Object.values(zipcodes.codes)
  // A few entries carry placeholder coordinates; keep the ones on US soil.
  .filter((z) => z.country === "US" && /^\d{5}$/.test(z.zip) && z.latitude > 17 && z.latitude < 72 && z.longitude > -180 && z.longitude < -64)
  .sort((a, b) => (a.zip < b.zip ? -1 : 1));
const METRO_CENTRES = CITIES.map((c) => findPlace(c.label)!);
const milesToMetro = (z: { latitude: number; longitude: number }) => Math.min(...METRO_CENTRES.map((m) => distanceMiles(m, { lat: z.latitude, lng: z.longitude })));
/** The four metros, where the first 1,000 businesses are. */
const METRO_ZIPS = US_ZIPS.filter((z) => milesToMetro(z) <= 40);
/** Everywhere else, where growth goes. */
const ELSEWHERE_ZIPS = US_ZIPS.filter((z) => milesToMetro(z) > 100);
const METRO_BUSINESSES = 1000;
const DAYS = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"] as const;
const HOURS = [
  Object.fromEntries(DAYS.map((d) => [d, d === "sunday" ? "" : d === "saturday" ? "8:00 AM - 12:00 PM" : "7:00 AM - 6:00 PM"])),
  Object.fromEntries(DAYS.map((d) => [d, "6:00 AM - 10:00 PM"])),
  Object.fromEntries(DAYS.map((d) => [d, d === "friday" || d === "saturday" ? "7:00 AM - 1:00 AM" : "7:00 AM - 7:00 PM"])),
  Object.fromEntries(DAYS.map((d) => [d, OPEN_24_HOURS])),
];

function syntheticBusiness(n: number, r: ReturnType<typeof rng>) {
  const city = r.pick(CITIES);
  const name = `${r.pick(PLACES)} ${r.pick(SUFFIXES)}`;
  const fill = (s: string) =>
    s
      .replace("{year}", String(1985 + r.int(38)))
      .replace("{species}", r.pick(SPECIES))
      .replace("{species2}", r.pick(SPECIES))
      .replace("{work}", r.pick(WORK))
      .replace(/\{city\}/g, city.label);
  const reviewCount = r.next() < 0.15 ? 0 : 1 + r.int(80);
  const id = `bench-${String(n).padStart(6, "0")}`;
  const zip = r.pick(n < METRO_BUSINESSES ? METRO_ZIPS : ELSEWHERE_ZIPS);
  const hours = r.next() < 0.1 ? HOURS[3]! : r.pick(HOURS.slice(0, 3));
  const profile = Profile.parse({
    id,
    name,
    slug: `${name.toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-|-$/g, "")}-${n}`,
    description: r.some(SENTENCES, 2, 4).map(fill).join(" "),
    city: city.label,
    state: "TX",
    zipCode: zip.zip,
    location: { lat: zip.latitude, lng: zip.longitude },
    address: `${100 + r.int(9000)} ${r.pick(PLACES)} Rd`,
    phone: `(512) 555-${String(r.int(10000)).padStart(4, "0")}`,
    isFeatured: r.next() < 0.08,
    services: r.some(SERVICES, 3, 6),
    specialties: r.some(SPECIALTIES, 1, 3),
    serviceAreas: r.some(PLACES, 2, 5),
    images: [],
    businessHours: hours,
    emergency247: hours === HOURS[3] || r.next() < 0.1,
    yearsInBusiness: 1 + r.int(40),
  });
  const sum = reviewCount > 0 ? ((30 + r.int(21)) / 10) * reviewCount : 0;
  return { profile, sum, count: reviewCount };
}

/**
 * A write-only Redis connection speaking raw RESP. ioredis spends more time encoding the
 * bulk load's ~15M arguments than Redis spends executing them; building the protocol text
 * directly halves the load time. Every reply here is a simple one (+OK, :n or -ERR).
 */
class BulkWriter {
  private socket!: Socket;
  private chunk = "";
  private pending = 0;
  private tail = "";
  private readonly errors: string[] = [];
  private waiter: (() => void) | null = null;

  static async open(url: string): Promise<BulkWriter> {
    const w = new BulkWriter();
    const u = new URL(url);
    w.socket = connect({ host: u.hostname || "127.0.0.1", port: Number(u.port || 6379) });
    await new Promise<void>((resolve, reject) => w.socket.once("connect", resolve).once("error", reject));
    w.socket.setEncoding("utf8");
    w.socket.on("data", (data: string) => w.onData(data));
    if (u.password) w.send(u.username ? ["AUTH", decodeURIComponent(u.username), decodeURIComponent(u.password)] : ["AUTH", decodeURIComponent(u.password)]);
    const db = u.pathname.replace("/", "");
    if (db) w.send(["SELECT", db]);
    return w;
  }

  send(args: readonly (string | number)[]): void {
    let out = `*${args.length}\r\n`;
    for (const a of args) {
      const s = typeof a === "string" ? a : String(a);
      out += `$${Buffer.byteLength(s)}\r\n${s}\r\n`;
    }
    this.chunk += out;
    this.pending++;
  }

  /** Writes what is buffered once it is big enough, waiting for the socket to drain. */
  async maybeWrite(force = false): Promise<void> {
    if (!force && this.chunk.length < 1 << 20) return;
    const ok = this.socket.write(this.chunk);
    this.chunk = "";
    if (!ok) await new Promise((r) => this.socket.once("drain", r));
  }

  /** Waits for every reply; throws on the first Redis error. */
  async finish(): Promise<void> {
    await this.maybeWrite(true);
    if (this.pending > 0) await new Promise<void>((r) => (this.waiter = r));
    this.socket.end();
    if (this.errors.length) throw new Error(`bulk load: ${this.errors.length} errors, first: ${this.errors[0]}`);
  }

  private onData(data: string): void {
    const text = this.tail + data;
    let start = 0;
    for (let end = text.indexOf("\r\n"); end >= 0; end = text.indexOf("\r\n", start)) {
      if (text[start] === "-") this.errors.push(text.slice(start + 1, end));
      this.pending--;
      start = end + 2;
    }
    this.tail = text.slice(start);
    if (this.pending === 0 && this.waiter) this.waiter();
  }
}

/** Bulk load in the repository's layout (indexPlan), one big ZADD per chunk of an index key. */
async function bulkLoad(url: string, prefix: string, size: number): Promise<{ slugs: string[] }> {
  const keys = keyspace(prefix);
  const r = rng(42);
  const writer = await BulkWriter.open(url);
  // Postings hold business numbers only (compact SMI arrays); ids and scores are looked up.
  const postings = new Map<string, number[]>();
  // Location sets (nearPlan): member numbers per key, scores per business.
  const near = new Map<string, number[]>();
  const geohash = new Float64Array(size);
  const nearMembers: string[] = new Array(size);
  const ids: string[] = new Array(size);
  const order = new Float64Array(size);
  const banded = new Float64Array(size);
  const slugs: string[] = new Array(size);
  const CHUNK = 2000;
  // Ascending score order within a command is Redis's cheapest skiplist insert path.
  const zadd = async (key: string, members: number[], scores: Float64Array, names: string[] = ids) => {
    members.sort((a, b) => scores[a]! - scores[b]!);
    for (let i = 0; i < members.length; i += CHUNK) {
      const args: (string | number)[] = ["ZADD", key];
      for (let j = i; j < Math.min(i + CHUNK, members.length); j++) args.push(scores[members[j]!]!, names[members[j]!]!);
      writer.send(args);
      await writer.maybeWrite();
    }
  };

  for (let n = 0; n < size; n++) {
    const { profile, sum, count } = syntheticBusiness(n, r);
    const plan = indexPlan(profile, sum, count);
    writer.send([
      "HSET", keys.business(profile.id),
      "doc", JSON.stringify(profile), "slug", profile.slug, "rank", plan.rank, "feat", profile.isFeatured ? "1" : "0",
      "sum", String(sum), "count", count, "terms", JSON.stringify(plan.terms), "tv", "1",
    ]);
    await writer.maybeWrite();
    const located = nearPlan(profile, keys)!;
    writer.send(["HSET", keys.business(profile.id), "near", JSON.stringify(located.state)]);
    geohash[n] = located.score;
    nearMembers[n] = located.member;
    for (const key of located.sets) {
      let list = near.get(key);
      if (!list) near.set(key, (list = []));
      list.push(n);
    }
    ids[n] = profile.id;
    slugs[n] = profile.slug;
    order[n] = plan.order;
    banded[n] = plan.banded;
    for (const term of plan.terms) {
      let list = postings.get(term);
      if (!list) postings.set(term, (list = []));
      list.push(n);
      // Ship full chunks now so Redis inserts while this loop keeps generating.
      if (list.length === CHUNK) {
        await zadd(keys.term(term), list, banded);
        postings.set(term, []);
      }
    }
  }
  for (let i = 0; i < size; i += CHUNK) {
    const args: string[] = ["HSET", keys.slugs];
    for (let n = i; n < Math.min(i + CHUNK, size); n++) args.push(slugs[n]!, ids[n]!);
    writer.send(args);
  }
  const everyone = Array.from({ length: size }, (_, n) => n);
  await zadd(keys.all, [...everyone], order);
  await zadd(keys.geo, everyone, banded);
  for (const [term, members] of postings) if (members.length) await zadd(keys.term(term), members, banded);
  for (const [key, members] of near) await zadd(key, members, geohash, nearMembers);
  writer.send(["SET", keys.version, "1"]);
  await writer.finish();
  return { slugs };
}

async function deletePrefix(client: IORedis, prefix: string): Promise<void> {
  let cursor = "0";
  do {
    const [next, found] = await client.scan(cursor, "MATCH", `${prefix}*`, "COUNT", 5000);
    cursor = next;
    if (found.length) await client.unlink(...found);
  } while (cursor !== "0");
}

// --- measurement ---------------------------------------------------------------------------

type Kind = "search: 1 word" | "search: 2+ words" | "city / page" | "featured" | "slug lookup" | "near: ZIP+radius+service+open" | "near: ZIP, nearest first";
const KINDS: Kind[] = ["search: 1 word", "search: 2+ words", "city / page", "featured", "slug lookup", "near: ZIP+radius+service+open", "near: ZIP, nearest first"];
/** Where near-me searches start: suburbs and cores of the four metros. */
const NEAR_ZIPS = ["78664", "78660", "78701", "78745", "77494", "77002", "77380", "75024", "75201", "76010", "78130", "78209"].map((z) => findPlace(z)!);
const COLD: Kind = "search: 2+ words";

const ONE_WORD = ["oak", "stump", "crane", "pecan", "emergency", "cedar", "trim", "arbor", "hurric", "palm", "mulch", "remov", "magnolia", "hoa", "bilingual", "cypress"];
const MULTI_WORD = ["oak wilt", "stump grinding", "storm cleanup", "tree removal", "live oak", "crane removal", "emergency tree", "pecan pruning"];

function operations(store: Store, slugs: string[], r: ReturnType<typeof rng>): Record<Kind, () => Promise<unknown>> {
  const city = () => (r.next() < 0.5 ? r.pick(CITIES).value : undefined);
  return {
    "search: 1 word": () => store.businesses.list({ search: r.pick(ONE_WORD), city: city(), offset: r.pick([0, 0, 12]) }),
    "search: 2+ words": () => store.businesses.list({ search: r.pick(MULTI_WORD), city: city(), offset: r.pick([0, 0, 12]) }),
    "city / page": () =>
      store.businesses.list({ city: r.next() < 0.8 ? r.pick(CITIES).value : undefined, featured: r.next() < 0.2, offset: 12 * r.int(4) }),
    featured: () => (r.next() < 0.5 ? store.businesses.featured() : store.businesses.list({ featured: true })),
    "slug lookup": () => store.businesses.getBySlug(r.pick(slugs)),
    "near: ZIP+radius+service+open": () =>
      store.businesses.list({ near: r.pick(NEAR_ZIPS), radius: r.pick([10, 25, 50]), service: r.pick(PRO_SERVICES).value, openNow: true, offset: r.pick([0, 0, 12]) }),
    "near: ZIP, nearest first": () => store.businesses.list({ near: r.pick(NEAR_ZIPS), radius: 25, sort: "distance" }),
  };
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;

interface Stats {
  p50: number;
  p95: number;
}

function stats(all: number[]): Stats {
  const sorted = [...all].sort((a, b) => a - b);
  return { p50: percentile(sorted, 50), p95: percentile(sorted, 95) };
}

/**
 * Samples every size and kind round-robin (not one block per size or kind), so drift on a
 * shared machine (CPU frequency, neighbours, GC) lands on all of them alike.
 */
async function measure(
  bySize: Map<number, Record<Kind, () => Promise<unknown>>>,
  samples: number,
): Promise<Map<number, Record<Kind, number[]>>> {
  const out = new Map<number, Record<Kind, number[]>>();
  for (const size of bySize.keys()) out.set(size, Object.fromEntries(KINDS.map((k) => [k, [] as number[]])) as Record<Kind, number[]>);
  for (let i = 0; i < samples; i++) {
    for (const [size, ops] of bySize) {
      for (const kind of KINDS) {
        const before = roundTrips.get(size)!.count;
        const t = performance.now();
        const answer = await ops[kind]();
        out.get(size)![kind].push(performance.now() - t);
        const total = (answer as { total?: unknown } | null)?.total;
        if (kind.startsWith("near") && typeof total === "number") {
          const seen = (matched.get(size)![kind] ??= { sum: 0, n: 0 });
          seen.sum += total;
          seen.n++;
        }
        const trips = roundTrips.get(size)!;
        const n = trips.count - before;
        const seen = (trips.byKind[kind] ??= { min: n, max: n });
        seen.min = Math.min(seen.min, n);
        seen.max = Math.max(seen.max, n);
      }
    }
  }
  return out;
}

/** Matches per near-me query (businesses inside the radius passing the filters), averaged. */
const matched = new Map<number, Partial<Record<Kind, { sum: number; n: number }>>>();

/** Requests each store sent to Redis (one per command, pipeline or transaction: a round trip each). */
const roundTrips = new Map<number, { count: number; byKind: Partial<Record<Kind, { min: number; max: number }>> }>();
function countRoundTrips(size: number, store: Store): void {
  const counter = { count: 0, byKind: {} };
  roundTrips.set(size, counter);
  matched.set(size, {});
  // The client's requester is where every command, pipeline and MULTI leaves for Redis.
  const client = (store.redis as unknown as { client: { request: (req: unknown) => Promise<unknown> } }).client;
  const request = client.request.bind(client);
  client.request = (req) => {
    counter.count++;
    return request(req);
  };
}

// The bulk load leaves a lot of garbage; collect it before timing instead of during.
setFlagsFromString("--expose_gc");
const gc = runInNewContext("gc") as () => void;

// --- main ----------------------------------------------------------------------------------

const results: Record<number, Record<string, Stats> & { loadSeconds: number }> = {};
const admin = new IORedis(REDIS_URL);
const loaded: string[] = [];
const cleanUp = async () => {
  for (const prefix of loaded.splice(0)) await deletePrefix(admin, prefix);
};
process.on("SIGINT", () => void cleanUp().finally(() => process.exit(130)));

const stores: Store[] = [];
let redisMemory = "?";
try {
  await admin.ping();
  console.log(`[bench] Redis ${REDIS_URL.replace(/\/\/[^@]*@/, "//***@")}, sizes ${SIZES.join(", ")}, ${SAMPLES} samples per query kind and size`);
  // All sizes live side by side and are measured in the same time window.
  const ops = new Map<number, Record<Kind, () => Promise<unknown>>>();
  const loadSeconds = new Map<number, number>();
  for (const size of SIZES) {
    const prefix = `${BASE_PREFIX}${size}:`;
    loaded.push(prefix);
    const started = performance.now();
    const { slugs } = await bulkLoad(REDIS_URL, prefix, size);
    loadSeconds.set(size, (performance.now() - started) / 1000);
    console.log(`[bench] ${size} businesses loaded in ${loadSeconds.get(size)!.toFixed(1)} s`);
    const store = createStore({ transport: "redis", url: REDIS_URL, prefix });
    stores.push(store);
    countRoundTrips(size, store);
    ops.set(size, operations(store, slugs, rng(7)));
  }
  redisMemory = /used_memory_human:(\S+)/.exec(await admin.info("memory"))?.[1] ?? "?";
  gc();
  await measure(ops, WARMUP);
  const timings = await measure(ops, SAMPLES);
  // Multi-word searches right after a directory write (cache miss): informational.
  const cold = new Map<number, number[]>(SIZES.map((s) => [s, []]));
  for (let i = 0; i < Math.min(SAMPLES, 60); i++) {
    for (const size of SIZES) {
      await admin.incr(keyspace(`${BASE_PREFIX}${size}:`).version);
      const t = performance.now();
      await ops.get(size)![COLD]();
      cold.get(size)!.push(performance.now() - t);
    }
  }
  for (const size of SIZES) {
    const row: Record<string, Stats> = Object.fromEntries(KINDS.map((k) => [k, stats(timings.get(size)![k])]));
    row[`${COLD} (cache miss)`] = stats(cold.get(size)!);
    results[size] = Object.assign(row, { loadSeconds: loadSeconds.get(size)! });
  }
} finally {
  await Promise.all(stores.map((s) => s.close()));
  await cleanUp();
  admin.disconnect();
}

// --- report --------------------------------------------------------------------------------

const sizes = SIZES.filter((s) => results[s]);
const small = sizes[0]!;
const large = sizes[sizes.length - 1]!;
const rows = [...KINDS, `${COLD} (cache miss)`];
const ms = (v: number) => v.toFixed(2).padStart(7);
const tripsText = (kind: string) => {
  const all = sizes.map((s) => roundTrips.get(s)?.byKind[kind as Kind]).filter((t): t is { min: number; max: number } => !!t);
  if (all.length === 0) return "";
  const min = Math.min(...all.map((t) => t.min));
  const max = Math.max(...all.map((t) => t.max));
  return min === max ? String(min) : `${min}-${max}`;
};
const header = `${"query".padEnd(32)}${sizes.map((s) => `${`${s / 1000}k p50`.padStart(9)}${`p95`.padStart(8)}`).join("")}   ratio ${large / 1000}k/${small / 1000}k (p50 / p95)   round trips`;
console.log(`\n${header}\n${"-".repeat(header.length)}`);
const ratios: { kind: string; p50: number; p95: number }[] = [];
for (const kind of rows) {
  const a = results[small]![kind]!;
  const b = results[large]![kind]!;
  const ratio = { kind, p50: b.p50 / a.p50, p95: b.p95 / a.p95 };
  ratios.push(ratio);
  const cells = sizes.map((s) => `  ${ms(results[s]![kind]!.p50)} ${ms(results[s]![kind]!.p95)}`).join("");
  console.log(`${kind.padEnd(32)}${cells}   ${`${ratio.p50.toFixed(2)} / ${ratio.p95.toFixed(2)}`.padEnd(22)}${tripsText(kind)}`);
}
const headline = ratios.filter((r) => !r.kind.includes("cache miss"));
const overall = { p50: Math.max(...headline.map((r) => r.p50)), p95: Math.max(...headline.map((r) => r.p95)) };
const ok = overall.p50 <= 1.5 && overall.p95 <= 1.5;
console.log(`\nworst ratio ${large / 1000}k/${small / 1000}k over the request-path queries: p50 ${overall.p50.toFixed(2)}, p95 ${overall.p95.toFixed(2)} (target <= 1.5: ${ok ? "met" : "NOT met"})`);
console.log("times in ms per repository call, sequential, including the round trips to Redis; 'cache miss' = first multi-word search after a directory write (grows with the smallest posting list)");
console.log("round trips = requests to Redis per call (a pipeline or MULTI is one), min-max over every sample at every size; near-me: the first 1k businesses in the four metros, growth elsewhere in the US (see the header comment)");
for (const kind of KINDS.filter((k) => k.startsWith("near"))) {
  const avg = sizes.map((s) => {
    const m = matched.get(s)?.[kind];
    return `${s / 1000}k ${m && m.n ? (m.sum / m.n).toFixed(0) : "?"}`;
  });
  console.log(`matches per query, ${kind}: ${avg.join(", ")}`);
}
console.log(`load: ${sizes.map((s) => `${s / 1000}k ${results[s]!.loadSeconds.toFixed(1)} s`).join(", ")}; Redis memory with all sizes loaded: ${redisMemory}`);

mkdirSync("bench/results", { recursive: true });
writeFileSync(
  "bench/results/directory.json",
  JSON.stringify(
    {
      date: new Date().toISOString(),
      redis: REDIS_URL.replace(/\/\/[^@]*@/, "//***@"),
      samples: SAMPLES,
      results,
      ratios,
      overall,
      roundTrips: Object.fromEntries(sizes.map((s) => [s, roundTrips.get(s)?.byKind])),
    },
    null,
    2,
  ),
);
