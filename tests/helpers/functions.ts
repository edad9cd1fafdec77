/**
 * Plumbing for the lead-function suites: a real-Redis store per file under its own prefix,
 * handlers wired to it (and to an in-memory photo store), request builders and valid
 * payloads. Handlers are called directly with real Request objects.
 */
import { createStore, type Store } from "../../netlify/lib/store/index.ts";
import { memoryPhotoStore } from "../../netlify/lib/blobs.ts";
import type { LeadEndpoint } from "../../netlify/lib/leads.types.ts";
import { leadHandler, type LeadDeps, type LeadHandler } from "../../netlify/lib/leads.ts";
import type { DirectoryDeps } from "../../netlify/lib/directory.ts";
import type { BusinessInput } from "../../src/lib/schemas/business.ts";
import { addOwner, createOwnerSession } from "../../netlify/lib/owners/session.ts";
import type { Env } from "../../src/lib/env.ts";
import { deleteKeysWithPrefix, resolveTestRedisUrl, uniquePrefix } from "./redis.ts";
import { parseEnv } from "../../src/lib/env.ts";
import { REFERENCE_PATTERN } from "../../src/lib/receipt.ts";
import { FLASH_ID, type Flash } from "../../src/lib/schemas/flash.ts";
import { expect } from "vitest";

export const ORIGIN = "http://127.0.0.1:8888";

export interface FunctionsHarness {
  url: string;
  store: Store;
  photos: ReturnType<typeof memoryPhotoStore>;
  /** A handler for the endpoint on this store; override deps (env, store, now) per test. */
  handler<T>(endpoint: LeadEndpoint<T>, deps?: LeadDeps): LeadHandler;
  teardown(): Promise<void>;
}

/** Null when no Redis answers outside CI (the suite then skips, like the store suites). */
export async function functionsHarness(label: string): Promise<FunctionsHarness | null> {
  const url = await resolveTestRedisUrl();
  if (!url) return null;
  const store = createStore({ transport: "redis", url, prefix: uniquePrefix(`fn-${label}`) });
  const photos = memoryPhotoStore();
  return {
    url,
    store,
    photos,
    handler: (endpoint, deps = {}) =>
      leadHandler(endpoint, {
        store: () => store,
        photos: () => photos,
        env: parseEnv({ RATE_LIMIT_PER_MINUTE: "1000" }),
        ...deps,
      }),
    async teardown() {
      await store.close();
      await deleteKeysWithPrefix(url, store.prefix);
    },
  };
}

let ipCounter = 0;
/** A fresh client IP so per-IP limits never leak between tests. */
export function nextIp(): { ip: string } {
  ipCounter += 1;
  return { ip: `203.0.113.${ipCounter % 250}:${process.pid}:${ipCounter}` };
}

export function jsonRequest(path: string, body: unknown, headers: Record<string, string> = {}): Request {
  return new Request(`${ORIGIN}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
}

/** A JSON PATCH (an operator's or owner's decision on one item). */
export function patchRequest(path: string, body: unknown, headers: Record<string, string> = {}): Request {
  return new Request(`${ORIGIN}${path}`, {
    method: "PATCH",
    headers: { "content-type": "application/json", ...headers },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
}

export function formRequest(
  path: string,
  fields: Iterable<[string, string]>,
  headers: Record<string, string> = {},
): Request {
  return new Request(`${ORIGIN}${path}`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", accept: "text/html", ...headers },
    body: new URLSearchParams([...fields]).toString(),
  });
}

/** Multipart via the platform's own encoder (it sets the boundary). */
export function multipartRequest(path: string, form: FormData, headers: Record<string, string> = {}): Request {
  return new Request(`${ORIGIN}${path}`, { method: "POST", headers, body: form });
}

/** A long-ago `_started`: a human-paced submission. */
export const humanStarted = () => String(Date.now() - 60_000);

export const validQuote = () => ({
  name: "Jane Customer",
  email: "jane@example.com",
  phone: "512-555-0199",
  address: "123 Oak Street, Austin TX",
  serviceType: "tree-removal",
  urgency: "emergency",
  treeDetails: { treeType: "Live oak", height: "40 ft" },
  estimatedCost: "$1 - $2",
});

export const validAudit = () => ({
  name: "Owner Person",
  email: "owner@example.com",
  phone: "512-555-0100",
  companyName: "Branch Masters",
  currentRevenue: "100k-250k",
  yearsInBusiness: "3-5",
  employeeCount: "2-5",
  currentChallenges: ["Finding qualified leads", "Tracking finances"],
  growthGoals: ["Double revenue in 12 months"],
});

export const validAssessment = () => ({ ...validAudit(), phase: "phase-2" });

export const validFindPros = () => ({
  location: "Austin, TX",
  serviceType: "Tree Removal",
  propertyType: "residential",
  description: "Big dead oak over the driveway",
  timeline: "within-week",
  name: "Homer Owner",
  phone: "512-555-0123",
  email: "homer@example.com",
});

/** Flattens a payload into form entries: arrays repeat, nested objects use dotted names; `text` writes each value. */
export function toEntries(
  payload: Record<string, unknown>,
  text: (value: unknown) => string = String,
): [string, string][] {
  const out: [string, string][] = [];
  for (const [key, value] of Object.entries(payload)) {
    if (Array.isArray(value)) for (const v of value) out.push([key, text(v)]);
    else if (value && typeof value === "object")
      for (const [k, v] of Object.entries(value)) out.push([`${key}.${k}`, text(v)]);
    else out.push([key, text(value)]);
  }
  return out;
}

/** A valid 1x1 PNG. */
export const TINY_PNG: Uint8Array<ArrayBuffer> = Uint8Array.from(
  Buffer.from(
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==",
    "base64",
  ),
);

/** A store whose every operation fails, as when Redis is down. */
export function deadStore(alive: Store): Store {
  const fail = async () => {
    throw new Error("connection refused");
  };
  const dead = <T extends object>(repo: T) => Object.fromEntries(Object.keys(repo).map((name) => [name, fail])) as T;
  const deadRedis = new Proxy(alive.redis, {
    get(target, prop) {
      const value = Reflect.get(target, prop);
      // Commands fail; client-side bookkeeping (e.g. addTelemetry) still works, as it would.
      return typeof value === "function" && prop !== "addTelemetry" ? fail : value;
    },
  });
  return {
    ...alive,
    redis: deadRedis,
    ping: async () => false,
    leads: dead(alive.leads),
    messages: dead(alive.messages),
    flashes: dead(alive.flashes),
    businesses: { ...alive.businesses, list: fail },
    owners: dead(alive.owners),
    ownerSessions: dead(alive.ownerSessions),
    ownerSignIns: dead(alive.ownerSignIns),
    claims: dead(alive.claims),
    changes: dead(alive.changes),
    credentialChecks: dead(alive.credentialChecks),
    businessLeads: dead(alive.businessLeads),
    lockouts: dead(alive.lockouts),
    rateLimits: dead(alive.rateLimits),
    chatBudget: dead(alive.chatBudget),
    meta: dead(alive.meta),
    runs: dead(alive.runs),
    leadReports: dead(alive.leadReports),
    calendarFeeds: dead(alive.calendarFeeds),
  } as Store;
}

// ---------------------------------------------------------------------------------------
// Directory (GET /api/businesses..., reviews, bookings)

/**
 * Deps for the directory handlers (and the owner and admin ones built on them: `over` may add
 * their seams, e.g. photos) on the harness's store, with purges recorded instead of sent.
 */
export function directoryDeps<T extends DirectoryDeps = DirectoryDeps>(
  h: FunctionsHarness,
  over: T = {} as T,
): DirectoryDeps & T & { purges: string[][] } {
  const purges: string[][] = [];
  return {
    store: () => h.store,
    env: parseEnv({ RATE_LIMIT_PER_MINUTE: "1000", REVIEW_BUSINESS_LIMIT_PER_HOUR: "1000" }),
    purge: async (tags) => {
      purges.push(tags);
    },
    purges,
    ...over,
  };
}

export function getRequest(path: string, init: RequestInit = {}): Request {
  return new Request(`${ORIGIN}${path}`, { method: "GET", ...init });
}

/** A directory business; `rating`/`reviewCount` only seed the aggregate of a new one. */
export function testBusiness(id: string, over: Partial<BusinessInput> = {}): BusinessInput {
  return {
    id,
    name: `Business ${id}`,
    slug: `business-${id}`,
    description: "General tree care.",
    city: "Austin",
    zipCode: "78701",
    address: "1 Main St",
    phone: "(512) 555-0100",
    isFeatured: false,
    rating: "0.0",
    reviewCount: 0,
    services: ["Tree Trimming"],
    specialties: [],
    serviceAreas: [],
    businessHours: {},
    yearsInBusiness: 5,
    ...over,
  };
}

/**
 * A directory business (testBusiness(id, over)) with an owner signed in by `email`
 * (owner@example.com unless given) at `now`: its id, what was stored and the Cookie header.
 */
export async function ownedBusiness(
  store: Store,
  env: Env,
  id: string,
  over: Partial<BusinessInput> = {},
  { email = "owner@example.com", now = Date.now() }: { email?: string; now?: number } = {},
): Promise<{ id: string; business: BusinessInput; cookie: string }> {
  const business = testBusiness(id, over);
  await store.businesses.upsert(business);
  await addOwner(store, id, email, "email", now);
  const { setCookie } = await createOwnerSession(store, env, { businessId: id, email: email.toLowerCase() }, now);
  return { id, business, cookie: setCookie.split(";", 1)[0]! };
}

let reviewCounter = 0;
/** A valid review; each call has its own e-mail (one review per e-mail per business). */
export const validReview = () => ({
  customerName: "Rita Reviewer",
  customerEmail: `rita+${process.pid}-${++reviewCounter}@example.com`,
  rating: 5,
  title: "Great crew",
  reviewText: "On time and tidy.",
  serviceType: "Tree Trimming",
});

export const validBooking = (businessId: string) => ({
  customerName: "Bob Booker",
  customerEmail: "bob@example.com",
  customerPhone: "512-555-0177",
  serviceType: "Tree Trimming",
  propertyAddress: "42 Pecan Lane, Austin TX",
  description: "Two oaks over the roof.",
  businessId,
});

/** Midday in Texas on `date` ("YYYY-MM-DD"): a clock for the booking date rules. */
export const texasNoon = (date: string) => Date.parse(`${date}T18:00:00Z`);

/** A store whose directory reads and writes fail, as when Redis is down. */
export function brokenDirectory(alive: Store): Store {
  const fail = async () => {
    throw new Error("connection refused");
  };
  const businesses = Object.fromEntries(Object.keys(alive.businesses).map((k) => [k, fail]));
  const reviews = Object.fromEntries(Object.keys(alive.reviews).map((k) => [k, fail]));
  return { ...deadStore(alive), businesses, reviews } as unknown as Store;
}

/** The receipt every stored lead's 201 carries (src/lib/receipt.ts), on an install without an e-mail provider. */
export const receiptReply = (urgency: "emergency" | "urgent" | "routine") => ({
  reference: expect.stringMatching(REFERENCE_PATTERN),
  statusUrl: expect.stringMatching(/^\/requests\/ld_[0-9a-z]+\/[\w-]{22}$/),
  urgency,
  willEmail: false,
});

/**
 * A no-JS post's answer (post/redirect/get): 303 to `path` (a pathname, or a pattern) with a
 * form flash in `?form=`; returns the flash as the page will read it, and the Location.
 */
export async function expectFlash(
  store: Store,
  res: Response,
  path: string | RegExp,
): Promise<Flash & { location: URL }> {
  expect(res.status).toBe(303);
  const location = new URL(res.headers.get("location") ?? "", ORIGIN);
  if (typeof path === "string") expect(location.pathname).toBe(path);
  else expect(location.pathname).toMatch(path);
  const id = location.searchParams.get("form") ?? "";
  expect(id).toMatch(FLASH_ID);
  const flash = await store.flashes.get(id);
  expect(flash, "the flash is stored").not.toBeNull();
  expect(flash!.path).toBe(location.pathname);
  return { ...flash!, location };
}
