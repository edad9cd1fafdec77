/**
 * The synthetic directory the benchmarks load into real Redis (bench:directory, bench:scale):
 * deterministic businesses at real US ZIP centroids in exactly the repository's key layout
 * (indexPlan), bulk-loaded over raw RESP, and deleted again by prefix. The first 1,000 sit in
 * the four Texas metros and growth beyond that covers the rest of the country (see
 * bench/directory.ts and docs/directory.md).
 */
import { connect, type Socket } from "node:net";
import { Redis as IORedis } from "ioredis";
import zipcodes from "zipcodes";
import { CITIES, PRO_SERVICES } from "../src/lib/options.ts";
import { Business } from "../src/lib/schemas/business.ts";
import { findPlace } from "../src/lib/geo/places.ts";
import { distanceMiles } from "../src/lib/geo/distance.ts";
import { OPEN_24_HOURS } from "../src/lib/hours.ts";
import { mulberry32 } from "../scripts/random.ts";
import { keyspace } from "../netlify/lib/store/keys.ts";
import { nearPlan } from "../netlify/lib/store/repos/business-near.ts";
import { indexPlan } from "../netlify/lib/store/repos/business-writes.ts";

// --- synthetic directory -------------------------------------------------------------------

/** Deterministic PRNG so every run and size draws the same kind of data. */
export function rng(seed: number) {
  const next = mulberry32(seed);
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

const PLACES = [
  "Balcones",
  "Bayou",
  "Lone Star",
  "Alamo",
  "Trinity",
  "Brazos",
  "Pecan",
  "Live Oak",
  "Cypress",
  "Mesquite",
  "Hill Country",
  "Gulf Coast",
  "Blackland",
  "Riverbend",
  "Canyon",
  "Cedar Park",
  "Heights",
  "Westlake",
  "Bluebonnet",
  "Red River",
  "Oak Cliff",
  "Medina",
  "Guadalupe",
  "Pedernales",
  "Colorado",
  "San Marcos",
  "Buda",
  "Katy",
  "Plano",
  "Frisco",
  "Round Rock",
  "Leander",
  "Spring",
  "Cypress Creek",
  "Memorial",
  "Lakeway",
  "Boerne",
  "Helotes",
  "Seguin",
  "Kyle",
];
const SUFFIXES = [
  "Tree Service",
  "Tree Care",
  "Arbor Co.",
  "Arborists",
  "Tree Experts",
  "Tree & Stump",
  "Canopy Works",
  "Tree Pros",
  "Limb & Stump",
  "Tree Company",
  "Urban Forestry",
  "Tree Surgeons",
];
// The directory's service names, plus one a real listing may add that the search form does not offer.
const SERVICES = [...PRO_SERVICES.map((s) => s.value), "Cabling & Bracing"];
const SPECIALTIES = [
  "Heritage oaks",
  "Oak wilt prevention",
  "Oak wilt treatment",
  "Crane-assisted removal",
  "Palm trimming",
  "Pecan and oak care",
  "Cedar clearing",
  "Mesquite and huisache clearing",
  "Hurricane response",
  "Hail storm response",
  "Root zone care",
  "Deep-root fertilization",
  "Young tree structural pruning",
  "Crape myrtle pruning",
  "Forestry mulching",
  "Brush haul-off",
  "Permit-ready removals",
  "Historic district trees",
  "Japanese maples",
  "Bald cypress care",
  "Same-week stump grinding",
  "Commercial properties",
  "HOA clearance trims",
  "Bilingual crew (English/Spanish)",
  "Drought recovery",
  "Magnolia and sweetgum removal",
  "Cottonwood removal",
  "Cabling and lightning protection",
];
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
const SPECIES = [
  "live oaks",
  "post oaks",
  "pecans",
  "cedar elms",
  "magnolias",
  "bald cypress",
  "crape myrtles",
  "palms",
  "mesquites",
  "red oaks",
  "sycamores",
  "cottonwoods",
  "hackberries",
  "Ashe junipers",
];
const WORK = ["pruning", "canopy thinning", "crown raising", "deadwood removal", "view pruning", "cabling"];

const Profile = Business.omit({ rating: true, reviewCount: true });

/** Every US ZIP centroid, in a fixed order. */
const US_ZIPS = Object.values(zipcodes.codes)
  // A few entries carry placeholder coordinates; keep the ones on US soil.
  .filter(
    (z) =>
      z.country === "US" &&
      /^\d{5}$/.test(z.zip) &&
      z.latitude > 17 &&
      z.latitude < 72 &&
      z.longitude > -180 &&
      z.longitude < -64,
  )
  .sort((a, b) => (a.zip < b.zip ? -1 : 1));
const METRO_CENTRES = CITIES.map((c) => findPlace(c.label)!);
const milesToMetro = (z: { latitude: number; longitude: number }) =>
  Math.min(...METRO_CENTRES.map((m) => distanceMiles(m, { lat: z.latitude, lng: z.longitude })));
/** The four metros, where the first 1,000 businesses are. */
const METRO_ZIPS = US_ZIPS.filter((z) => milesToMetro(z) <= 40);
/** Everywhere else, where growth goes. */
const ELSEWHERE_ZIPS = US_ZIPS.filter((z) => milesToMetro(z) > 100);
const METRO_BUSINESSES = 1000;
const DAYS = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"] as const;
const HOURS = [
  Object.fromEntries(
    DAYS.map((d) => [d, d === "sunday" ? "" : d === "saturday" ? "8:00 AM - 12:00 PM" : "7:00 AM - 6:00 PM"]),
  ),
  Object.fromEntries(DAYS.map((d) => [d, "6:00 AM - 10:00 PM"])),
  Object.fromEntries(
    DAYS.map((d) => [d, d === "friday" || d === "saturday" ? "7:00 AM - 1:00 AM" : "7:00 AM - 7:00 PM"]),
  ),
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
    slug: `${name
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, "-")
      .replace(/^-|-$/g, "")}-${n}`,
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
    if (u.password)
      w.send(
        u.username
          ? ["AUTH", decodeURIComponent(u.username), decodeURIComponent(u.password)]
          : ["AUTH", decodeURIComponent(u.password)],
      );
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
export async function bulkLoad(url: string, prefix: string, size: number): Promise<{ slugs: string[] }> {
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
      for (let j = i; j < Math.min(i + CHUNK, members.length); j++)
        args.push(scores[members[j]!]!, names[members[j]!]!);
      writer.send(args);
      await writer.maybeWrite();
    }
  };

  for (let n = 0; n < size; n++) {
    const { profile, sum, count } = syntheticBusiness(n, r);
    const plan = indexPlan(profile, sum, count);
    writer.send([
      "HSET",
      keys.business(profile.id),
      "doc",
      JSON.stringify(profile),
      "slug",
      profile.slug,
      "rank",
      plan.rank,
      "feat",
      profile.isFeatured ? "1" : "0",
      "sum",
      String(sum),
      "count",
      count,
      "terms",
      JSON.stringify(plan.terms),
      "tv",
      "1",
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

export async function deletePrefix(client: IORedis, prefix: string): Promise<void> {
  let cursor = "0";
  do {
    const [next, found] = await client.scan(cursor, "MATCH", `${prefix}*`, "COUNT", 5000);
    cursor = next;
    if (found.length) await client.unlink(...found);
  } while (cursor !== "0");
}

/**
 * A Redis connection that remembers the prefixes a bench loaded and deletes them at the end,
 * also on Ctrl-C, so an interrupted run leaves nothing behind.
 */
export function benchKeys(url: string) {
  const admin = new IORedis(url);
  const loaded: string[] = [];
  const cleanUp = async () => {
    for (const prefix of loaded.splice(0)) await deletePrefix(admin, prefix);
  };
  process.on("SIGINT", () => void cleanUp().finally(() => process.exit(130)));
  return { admin, loaded, cleanUp };
}
