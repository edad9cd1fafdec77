/**
 * Property-based fuzzing of the public endpoints through the real handlers and a real
 * Redis (shared by tests/integration/fuzz/*.test.ts and `npm run bench:fuzz`).
 *
 * Every case is a hostile or valid request; `runFuzz` checks per response that nothing
 * answers 5xx and that every JSON 4xx carries a string `error` (form posts without
 * `Accept: application/json` get the no-JS HTML page, which must not echo markup), then
 * scans the store: every stored lead and review validates against its schema, nothing is
 * stored that was not answered 201, and every valid submission is stored exactly once
 * (an Idempotency-Key per valid case; some are replayed and must return the same id).
 */
import fc from "fast-check";
import { Redis as IORedis } from "ioredis";
import type { z } from "zod";
import {
  ASSESSMENT_ENDPOINT,
  AUDIT_ENDPOINT,
  BOOKING_ENDPOINT,
  QUOTE_ENDPOINT,
  type LeadEndpoint,
} from "../../netlify/lib/leads.ts";
import { FIND_PROS_ENDPOINT } from "../../netlify/lib/find-pros.ts";
import { businessBySlugHandler, featuredHandler, reviewsHandler } from "../../netlify/lib/directory.ts";
import { businessesHandler } from "../../netlify/lib/directory-search.ts";
import { chatHandler } from "../../netlify/lib/assistant/handler.ts";
import { respondCallHandler, respondHandler, statusHandler } from "../../netlify/lib/delivery/handlers.ts";
import { initialRouting } from "../../netlify/lib/delivery/routing.ts";
import { signerFor } from "../../netlify/lib/delivery/signing.ts";
import { leadSchema, type LeadType } from "../../src/lib/schemas/lead.ts";
import { Review } from "../../src/lib/schemas/business.ts";
import type { Review as StoredReview } from "../../src/lib/schemas/business.ts";
import {
  ORIGIN,
  directoryDeps,
  functionsHarness,
  testBusiness,
  toEntries,
  validAssessment,
  validAudit,
  validBooking,
  validFindPros,
  validQuote,
  validReview,
  type FunctionsHarness,
} from "./functions.ts";
import { parseEnv } from "../../src/lib/env.ts";

export const FUZZ_BUSINESS = "fz-1";
export const FUZZ_BUSINESS_SLUG = "fuzz-business-one";

type Handler = (req: Request, context?: { ip?: string; params?: Record<string, string> } | null) => Promise<Response>;

interface LeadTarget {
  kind: "lead";
  name: string;
  path: string;
  endpoint: LeadEndpoint<unknown>;
  valid: () => Record<string, unknown>;
}
const LEADS: LeadTarget[] = [
  { kind: "lead", name: "POST /api/quote", path: "/api/quote", endpoint: QUOTE_ENDPOINT, valid: validQuote },
  { kind: "lead", name: "POST /api/audit", path: "/api/audit", endpoint: AUDIT_ENDPOINT, valid: validAudit },
  {
    kind: "lead",
    name: "POST /api/assessment",
    path: "/api/assessment",
    endpoint: ASSESSMENT_ENDPOINT,
    valid: validAssessment,
  },
  {
    kind: "lead",
    name: "POST /api/find-pros",
    path: "/api/find-pros",
    endpoint: FIND_PROS_ENDPOINT,
    valid: validFindPros,
  },
  {
    kind: "lead",
    name: "POST /api/booking-request",
    path: "/api/booking-request",
    endpoint: BOOKING_ENDPOINT,
    valid: () => validBooking(FUZZ_BUSINESS),
  },
];

/** One generated request. */
export interface FuzzCase {
  target: string;
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string;
  /** Netlify-style path params (the slug/id route), when the case sends them. */
  params?: Record<string, string>;
  /** A valid submission: must be stored exactly once under `idempotencyKey`. */
  valid?: { type: LeadType; idempotencyKey: string; replay: boolean };
  validReview?: boolean;
  /** The answer may be HTML (a form post without Accept: application/json). */
  html?: boolean;
}

// ---------------------------------------------------------------------------------------
// Arbitraries

const XSS = [
  "<script>alert(1)</script>",
  '<img src=x onerror="alert(1)">',
  "javascript:alert(1)",
  '"><svg onload=alert(1)>',
];
const TRAVERSAL = [
  "../../etc/passwd",
  "..%2F..%2Fetc%2Fpasswd",
  "%2e%2e%2f%2e%2e%2f",
  "..\\..\\windows",
  "%00",
  "%",
  "%E0%A4%A",
  "a/../b",
  "....//",
  "%252e%252e",
  "*",
  "[",
  "fz-1\r\nx",
];
const PROTO_KEYS = [
  "__proto__",
  "constructor",
  "prototype",
  "toString",
  "hasOwnProperty",
  "_started",
  "company_website",
  "_idempotencyKey",
  "_source",
];

/** Strings a form field should never choke on. */
const nastyString = fc.oneof(
  fc.string(),
  fc.string({ unit: "binary", maxLength: 60 }),
  fc.string({ unit: fc.integer({ min: 0, max: 0x1f }).map((c) => String.fromCharCode(c)), maxLength: 20 }),
  fc.constantFrom(
    ...XSS,
    ...TRAVERSAL,
    "\u0000",
    "\uFEFF",
    "\uD800",
    "\u202Eevil",
    "𝕋𝕣𝕖𝕖",
    " ",
    "",
    "null",
    "NaN",
    "-1",
    "1e309",
  ),
  fc.integer({ min: 1_000, max: 40_000 }).map((n) => "x".repeat(n)),
);

/** Any JSON-ish value, nested, with prototype-pollution keys in objects. */
const junkValue: fc.Arbitrary<unknown> = fc.letrec<{ v: unknown }>((tie) => ({
  v: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    nastyString,
    fc.integer(),
    fc.double(),
    fc.boolean(),
    fc.constant(null),
    fc.array(tie("v"), { maxLength: 4 }),
    fc.dictionary(fc.oneof(fc.string({ maxLength: 8 }), fc.constantFrom(...PROTO_KEYS)), tie("v"), { maxKeys: 4 }),
  ),
})).v;

type Mutation = (payload: Record<string, unknown>) => void;
const mutation = (fields: string[]): fc.Arbitrary<Mutation> =>
  fc.oneof(
    fc.constantFrom(...fields).map((f) => (p: Record<string, unknown>) => void delete p[f]),
    fc.tuple(fc.constantFrom(...fields), junkValue).map(
      ([f, v]) =>
        (p: Record<string, unknown>) =>
          void (p[f] = v),
    ),
    fc.tuple(fc.constantFrom(...fields), nastyString).map(
      ([f, v]) =>
        (p: Record<string, unknown>) =>
          void (p[f] = v),
    ),
    fc.tuple(fc.oneof(fc.string({ maxLength: 10 }), fc.constantFrom(...PROTO_KEYS)), junkValue).map(
      ([k, v]) =>
        (p: Record<string, unknown>) =>
          void Object.defineProperty(p, k, { value: v, enumerable: true, writable: true, configurable: true }),
    ),
  );

/** Form entries for any payload, junk included: a value that is not a string is its JSON. */
const formEntries = (payload: Record<string, unknown>) =>
  toEntries(payload, (v) => (typeof v === "string" ? v : (JSON.stringify(v) ?? "undefined")));

const ENCODINGS = [
  "json",
  "json",
  "json",
  "broken-json",
  "raw-json-proto",
  "form-json",
  "form-html",
  "multipart-json",
  "text",
  "none",
  "array",
  "scalar",
] as const;

/** Serialises a payload the way the encoding says. */
function encode(
  encoding: (typeof ENCODINGS)[number],
  payload: Record<string, unknown>,
  cut: number,
): { headers: Record<string, string>; body: string | FormData; html?: boolean } {
  const json = JSON.stringify(payload);
  switch (encoding) {
    case "json":
      return { headers: { "content-type": "application/json" }, body: json };
    case "broken-json":
      return {
        headers: { "content-type": "application/json; charset=utf-8" },
        body: json.slice(0, Math.max(0, Math.min(json.length - 1, cut))),
      };
    case "raw-json-proto":
      return {
        headers: { "content-type": "application/json" },
        body: `{"__proto__":{"polluted":true,"isAdmin":true},"constructor":{"prototype":{"x":1}},${json.slice(1)}`,
      };
    case "form-json":
    case "form-html": {
      const entries = formEntries(payload as Record<string, unknown>);
      const headers: Record<string, string> = { "content-type": "application/x-www-form-urlencoded" };
      if (encoding === "form-json") headers.accept = "application/json";
      return { headers, body: new URLSearchParams(entries).toString(), html: encoding === "form-html" };
    }
    case "multipart-json": {
      const form = new FormData();
      for (const [k, v] of formEntries(payload as Record<string, unknown>)) form.append(k, v);
      return { headers: { accept: "application/json" }, body: form };
    }
    case "text":
      return { headers: { "content-type": "text/plain" }, body: json };
    case "none":
      return { headers: {}, body: json };
    case "array":
      return { headers: { "content-type": "application/json" }, body: JSON.stringify([payload]) };
    case "scalar":
      return { headers: { "content-type": "application/json" }, body: cut % 2 ? "null" : '"just a string"' };
  }
}

/** Bodies are materialised to a string (multipart through Request) so a case can be replayed. */
async function bodyText(
  headers: Record<string, string>,
  body: string | FormData,
): Promise<{ headers: Record<string, string>; body: string }> {
  if (typeof body === "string") return { headers, body };
  const req = new Request(ORIGIN, { method: "POST", body });
  return { headers: { ...headers, "content-type": req.headers.get("content-type")! }, body: await req.text() };
}

let keySeq = 0;
const runTag = Math.random().toString(36).slice(2, 8);
const freshKey = () => `fuzz-${runTag}-${process.pid}-${++keySeq}`;
const oldStarted = () => String(Date.now() - 120_000);

const leadCase = (t: LeadTarget): fc.Arbitrary<Promise<FuzzCase>> =>
  fc.oneof(
    // Hostile: a valid payload with mutations, in any encoding, sometimes the wrong method.
    {
      weight: 6,
      arbitrary: fc
        .record({
          muts: fc.array(mutation(Object.keys(t.valid())), { minLength: 1, maxLength: 4 }),
          encoding: fc.constantFrom(...ENCODINGS),
          cut: fc.nat(400),
          method: fc.oneof(
            { weight: 9, arbitrary: fc.constant("POST") },
            { weight: 1, arbitrary: fc.constantFrom("GET", "PUT", "DELETE", "PATCH", "OPTIONS") },
          ),
          started: fc.boolean(),
        })
        .map(async ({ muts, encoding, cut, method, started }) => {
          const payload = t.valid();
          if (started) payload._started = oldStarted();
          for (const m of muts) m(payload);
          const enc = encode(encoding, payload, cut);
          const { headers, body } = await bodyText(enc.headers, enc.body);
          return {
            target: t.name,
            method,
            path: t.path,
            headers,
            body: method === "GET" ? undefined : body,
            html: enc.html,
          };
        }),
    },
    // Pure junk bodies.
    {
      weight: 2,
      arbitrary: fc
        .tuple(
          junkValue,
          fc.constantFrom(
            "application/json",
            "application/x-www-form-urlencoded",
            "application/json; charset=latin1",
            "application/vnd.api+json",
          ),
        )
        .map(async ([junk, type]) => ({
          target: t.name,
          method: "POST",
          path: t.path,
          headers: { "content-type": type, accept: "application/json" },
          body: typeof junk === "string" ? junk : (JSON.stringify(junk) ?? ""),
        })),
    },
    // Valid submissions (JSON or form + Accept JSON), unique key, sometimes replayed.
    {
      weight: 2,
      arbitrary: fc
        .record({
          viaForm: fc.boolean(),
          viaField: fc.boolean(),
          replay: fc.boolean(),
          extra: fc.option(fc.string({ maxLength: 20 })),
        })
        .map(async ({ viaForm, viaField, replay, extra }) => {
          const key = freshKey();
          const payload: Record<string, unknown> = { ...t.valid(), _started: oldStarted() };
          if (extra !== null) payload[`x_${extra}`] = extra; // unknown fields are dropped, not refused
          const headers: Record<string, string> = viaField ? {} : { "idempotency-key": key };
          if (viaField) payload._idempotencyKey = key;
          const enc = viaForm ? encode("form-json", payload, 0) : encode("json", payload, 0);
          const b = await bodyText({ ...enc.headers, ...headers }, enc.body);
          return {
            target: t.name,
            method: "POST",
            path: t.path,
            ...b,
            valid: { type: t.endpoint.type, idempotencyKey: key, replay },
          };
        }),
    },
  );

const numberish = fc.oneof(
  fc.integer({ min: -1e6, max: 1e6 }).map(String),
  fc.constantFrom(
    "-1",
    "0",
    "1e3",
    "1.5",
    "NaN",
    "Infinity",
    "99999999999999999999",
    "0x10",
    " 5 ",
    "",
    "%00",
    "--1",
    "1;DROP",
  ),
  fc.bigInt({ min: -(10n ** 30n), max: 10n ** 30n }).map(String),
  nastyString,
);

const query = (fields: Record<string, fc.Arbitrary<string>>) =>
  fc
    .record(Object.fromEntries(Object.entries(fields).map(([k, a]) => [k, fc.option(a, { nil: undefined })])))
    .map((q) => {
      const params = new URLSearchParams();
      for (const [k, v] of Object.entries(q)) if (v !== undefined) params.append(k, v as string);
      const s = params.toString();
      return s ? `?${s}` : "";
    });

const readMethod = fc.oneof(
  { weight: 8, arbitrary: fc.constant("GET") },
  { weight: 1, arbitrary: fc.constant("HEAD") },
  { weight: 1, arbitrary: fc.constantFrom("POST", "PUT", "DELETE") },
);
const segment = fc.oneof(
  fc.constantFrom(...TRAVERSAL, FUZZ_BUSINESS, FUZZ_BUSINESS_SLUG, "fz-1/../fz-1", "__proto__", "constructor"),
  fc.string({ maxLength: 30 }),
  fc.string({ unit: "binary", maxLength: 20 }),
);
/** A path segment sent raw (may be normalised by URL parsing) or percent-encoded. */
const pathSegment = fc.tuple(segment, fc.boolean()).map(([s, raw]) => (raw ? s : encodeURIComponent(s)));

const directoryCases: fc.Arbitrary<Promise<FuzzCase>> = fc.oneof(
  fc
    .tuple(
      readMethod,
      query({
        search: nastyString,
        city: fc.oneof(nastyString, fc.constantFrom("austin", "Austin", "all", "San Antonio")),
        limit: numberish,
        offset: numberish,
        extra: nastyString,
      }),
    )
    .map(async ([method, q]) => ({ target: "GET /api/businesses", method, path: `/api/businesses${q}`, headers: {} })),
  fc.tuple(readMethod, query({ limit: numberish })).map(async ([method, q]) => ({
    target: "GET /api/businesses/featured",
    method,
    path: `/api/businesses/featured${q}`,
    headers: {},
  })),
  fc.tuple(readMethod, pathSegment, fc.boolean(), segment).map(async ([method, seg, withParams, raw]) => ({
    target: "GET /api/businesses/slug/:slug",
    method,
    path: `/api/businesses/slug/${seg}`,
    headers: {},
    params: withParams ? { slug: raw } : undefined,
  })),
  fc
    .tuple(
      readMethod,
      fc.oneof(fc.constant(FUZZ_BUSINESS), pathSegment),
      query({ limit: numberish, offset: numberish }),
    )
    .map(async ([method, id, q]) => ({
      target: "GET /api/businesses/:id/reviews",
      method,
      path: `/api/businesses/${id}/reviews${q}`,
      headers: {},
    })),
  // Review posts: mutated, junk, or valid.
  fc
    .record({
      id: fc.oneof({ weight: 4, arbitrary: fc.constant(FUZZ_BUSINESS) }, { weight: 1, arbitrary: pathSegment }),
      muts: fc.array(mutation(Object.keys(validReview()).concat("businessId")), { maxLength: 3 }),
      encoding: fc.constantFrom(...ENCODINGS),
      cut: fc.nat(200),
      valid: fc.boolean(),
    })
    .map(async ({ id, muts, encoding, cut, valid }) => {
      const payload: Record<string, unknown> = validReview();
      if (valid) {
        const body = JSON.stringify(payload);
        return {
          target: "POST /api/businesses/:id/reviews",
          method: "POST",
          path: `/api/businesses/${FUZZ_BUSINESS}/reviews`,
          headers: { "content-type": "application/json" },
          body,
          validReview: true,
        };
      }
      for (const m of muts) m(payload);
      const enc = encode(encoding, payload, cut);
      const b = await bodyText(enc.headers, enc.body);
      return {
        target: "POST /api/businesses/:id/reviews",
        method: "POST",
        path: `/api/businesses/${id}/reviews`,
        ...b,
        // A form post without Accept JSON is the no-JS review form: answered with pages.
        html: enc.html,
      };
    }),
);

const chatMessage = fc.oneof(
  fc.record({ role: fc.constantFrom("user", "assistant"), content: nastyString }),
  fc.record({ role: fc.oneof(nastyString, fc.constantFrom("system", "tool")), content: junkValue }),
  junkValue,
);
const chatCases: fc.Arbitrary<Promise<FuzzCase>> = fc.oneof(
  fc
    .record({
      messages: fc.oneof(fc.array(chatMessage, { maxLength: 40 }), junkValue),
      extra: fc.dictionary(fc.constantFrom(...PROTO_KEYS, "model", "system", "max_tokens"), junkValue, { maxKeys: 3 }),
    })
    .map(async ({ messages, extra }) => ({
      target: "POST /api/chat",
      method: "POST",
      path: "/api/chat",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ ...extra, messages }),
    })),
  fc.tuple(fc.constantFrom(...ENCODINGS), fc.nat(100), readMethod).map(async ([encoding, cut, method]) => {
    const enc = encode(encoding, { messages: [{ role: "user", content: "How much is tree removal?" }] }, cut);
    const b = await bodyText(enc.headers, enc.body);
    // A form post without Accept JSON is the panel's no-JS form: answered with pages, like the lead forms.
    return {
      target: "POST /api/chat",
      method: method === "GET" ? "POST" : method,
      path: "/api/chat",
      ...b,
      html: enc.html,
    };
  }),
);

/**
 * A lead's links: the real ones (the rig makes a booking offered to the fuzz business and
 * fills in ANSWER_TOKEN and STATUS_PATH), one character off, or junk. Every answer is a page.
 */
const ANSWER_TOKEN = "{answer-token}";
const STATUS_PATH = "{status-path}";
const flip = (text: string, at: number) => text.replace(/\{answer-token\}|\{status-path\}/, (m) => `${m}~${at}`);
const token = fc.oneof(
  { weight: 3, arbitrary: fc.constant(ANSWER_TOKEN) },
  { weight: 2, arbitrary: fc.nat(80).map((at) => flip(ANSWER_TOKEN, at)) },
  { weight: 2, arbitrary: pathSegment },
);
const answerBody = fc.oneof(
  fc
    .record({
      action: fc.oneof(fc.constantFrom("accept", "decline", "call", ""), nastyString),
      window: fc.oneof(nastyString, fc.string({ maxLength: 400 })),
      price: nastyString,
      reason: fc.oneof(fc.constantFrom("too-busy", "other", "__proto__"), nastyString),
    })
    .map((r) => ({ type: "application/x-www-form-urlencoded", body: new URLSearchParams(r).toString() })),
  junkValue.map((v) => ({ type: "application/json", body: JSON.stringify(v) ?? "null" })),
  fc.string({ maxLength: 200 }).map((body) => ({ type: "text/ping", body })),
);
const deliveryCases: fc.Arbitrary<Promise<FuzzCase>> = fc.oneof(
  fc.tuple(readMethod, token, answerBody).map(async ([method, t, b]) => ({
    target: "/respond/:token",
    method,
    path: `/respond/${t}`,
    headers: { "content-type": b.type, origin: ORIGIN },
    body: b.body,
    html: true,
  })),
  fc.tuple(token, fc.string({ maxLength: 20 })).map(async ([t, body]) => ({
    target: "POST /respond/:token/call",
    method: "POST",
    path: `/respond/${t}/call`,
    headers: { "content-type": "text/ping" },
    body,
  })),
  fc
    .oneof(
      fc.constant(STATUS_PATH),
      fc.nat(80).map((at) => flip(STATUS_PATH, at)),
      fc.tuple(pathSegment, pathSegment).map(([a, b]) => `/requests/${a}/${b}`),
    )
    .map(async (path) => ({ target: "GET /requests/:leadId/:sig", method: "GET", path, headers: {}, html: true })),
);

export const fuzzCase: fc.Arbitrary<Promise<FuzzCase>> = fc.oneof(
  ...LEADS.map((t) => ({ weight: 2, arbitrary: leadCase(t) })),
  { weight: 4, arbitrary: directoryCases },
  { weight: 2, arbitrary: chatCases },
  { weight: 2, arbitrary: deliveryCases },
);

// ---------------------------------------------------------------------------------------
// Running

export interface FuzzStats {
  cases: number;
  /** "endpoint -> status -> count". */
  counts: Record<string, Record<string, number>>;
  storedLeads: number;
  storedReviews: number;
  validSubmissions: number;
  replays: number;
  /** No-JS form posts answered with a confirmation page (stored, or a silently dropped bot). */
  htmlSuccesses: number;
  failures: string[];
}

export interface FuzzRig {
  h: FunctionsHarness;
  handlers: Record<string, Handler>;
  /** The fuzz booking (stored by the rig, not by a request) and its real links, for the delivery cases. */
  links: { leadId: string; answerToken: string; statusPath: string };
  teardown(): Promise<void>;
}

export async function fuzzRig(label: string): Promise<FuzzRig | null> {
  const h = await functionsHarness(label);
  if (!h) return null;
  const env = parseEnv({
    RATE_LIMIT_PER_MINUTE: "0",
    CHAT_RATE_LIMIT_PER_MINUTE: "0",
    REVIEW_BUSINESS_LIMIT_PER_HOUR: "0",
  });
  const deps = directoryDeps(h, { env });
  await h.store.businesses.upsert(
    testBusiness(FUZZ_BUSINESS, {
      slug: FUZZ_BUSINESS_SLUG,
      services: ["Tree Trimming", "Tree Removal"],
      isFeatured: true,
    }),
  );
  const handlers: Record<string, Handler> = {
    "GET /api/businesses": businessesHandler(deps),
    "GET /api/businesses/featured": featuredHandler(deps),
    "GET /api/businesses/slug/:slug": businessBySlugHandler(deps),
    "GET /api/businesses/:id/reviews": reviewsHandler(deps),
    "POST /api/businesses/:id/reviews": reviewsHandler(deps),
    "POST /api/chat": chatHandler({ store: () => h.store, env }),
  };
  for (const t of LEADS) handlers[t.name] = h.handler(t.endpoint, { env, notify: async () => undefined });
  const delivery = {
    store: () => h.store,
    env,
    notify: { fetch: (() => Promise.reject(new Error("offline"))) as typeof fetch },
    purge: async () => {},
  };
  handlers["/respond/:token"] = respondHandler(delivery);
  handlers["POST /respond/:token/call"] = respondCallHandler(delivery);
  handlers["GET /requests/:leadId/:sig"] = statusHandler(delivery);
  // One booking offered to the fuzz business, so the real links reach real pages.
  const { lead } = await h.store.leads.create(
    "booking",
    { ...validBooking(FUZZ_BUSINESS), businessName: "Fuzz", businessSlug: FUZZ_BUSINESS_SLUG },
    {
      sourcePage: "/",
      urgency: "routine",
      routing: initialRouting(
        [{ businessId: FUZZ_BUSINESS, name: "Fuzz", slug: FUZZ_BUSINESS_SLUG }],
        "routine",
        Date.now(),
      ),
    },
  );
  const signer = await signerFor(h.store, env);
  const links = {
    leadId: lead.id,
    answerToken: signer.answerPath(lead.id, FUZZ_BUSINESS, Date.now() + 86_400_000).slice("/respond/".length),
    statusPath: signer.statusPath(lead.id),
  };
  return { h, handlers, links, teardown: () => h.teardown() };
}

let ipSeq = 0;
const CASE_TIMEOUT_MS = 5_000;
const MARKUP = /<script>alert\(1\)|<img src=x onerror|<svg onload/i;

/** Sends one case and checks the per-response invariants; returns a failure text or null. */
async function send(
  rig: FuzzRig,
  c: FuzzCase,
  stats: FuzzStats,
  ids: Map<string, string>,
  replied: Set<string>,
  reviews201: { n: number },
): Promise<string | null> {
  // The delivery cases' placeholders: the real link, or the real link with one character changed.
  const real = (link: string, at?: string) =>
    at === undefined
      ? link
      : link.slice(0, Number(at) % link.length) + "~" + link.slice((Number(at) % link.length) + 1);
  c = {
    ...c,
    path: c.path
      .replace(/\{answer-token\}(?:~(\d+))?/, (_m, at?: string) => real(rig.links.answerToken, at))
      .replace(/\{status-path\}(?:~(\d+))?/, (_m, at?: string) => real(rig.links.statusPath, at)),
  };
  let req: Request;
  try {
    req = new Request(`${ORIGIN}${c.path}`, {
      method: c.method,
      headers: c.headers,
      body: c.method === "GET" || c.method === "HEAD" ? undefined : c.body,
    });
  } catch {
    return null; // the client could not even build it (an invalid header or URL): nothing reaches a server
  }
  const handler = rig.handlers[c.target];
  // A handler that never settles is a finding too (and would otherwise end the run silently).
  let timer: ReturnType<typeof setTimeout> | undefined;
  const hung = new Promise<"hung">((resolve) => (timer = setTimeout(() => resolve("hung"), CASE_TIMEOUT_MS)));
  const answered = (async () => {
    const res = await handler(req, { ip: `198.51.100.${++ipSeq % 250}`, ...(c.params ? { params: c.params } : {}) });
    return { res, text: await res.text() };
  })();
  const outcome = await Promise.race([answered, hung]).finally(() => clearTimeout(timer));
  if (outcome === "hung")
    return `${c.target} ${c.method} ${c.path.slice(0, 120)}: no answer within ${CASE_TIMEOUT_MS} ms (${JSON.stringify(c.headers)} ${JSON.stringify(c.body?.slice(0, 300))})`;
  const { res, text } = outcome;
  (stats.counts[c.target] ??= {})[res.status] = (stats.counts[c.target]?.[res.status] ?? 0) + 1;
  const where = `${c.target} ${c.method} ${c.path.slice(0, 120)} -> ${res.status}`;
  if (res.status >= 500) return `${where}: 5xx ${text.slice(0, 200)}`;
  const type = res.headers.get("content-type") ?? "";
  if (res.status >= 400) {
    if (c.html && type.startsWith("text/html")) {
      if (MARKUP.test(text)) return `${where}: HTML error page echoes markup`;
    } else {
      if (!type.includes("application/json")) return `${where}: 4xx is ${type || "untyped"}, not JSON`;
      let body: unknown;
      try {
        body = JSON.parse(text);
      } catch {
        return `${where}: 4xx body is not JSON`;
      }
      const error = (body as { error?: unknown })?.error;
      if (typeof error !== "string" || error.length === 0) return `${where}: 4xx without a string error`;
    }
  }
  if (c.html && res.status === 200 && MARKUP.test(text)) return `${where}: confirmation page echoes markup`;
  // A no-JS form post answers its confirmation page (no id in it); the audit allows for these.
  if (c.html && res.status === 200 && type.startsWith("text/html") && LEADS.some((t) => t.name === c.target))
    stats.htmlSuccesses++;
  if (res.status === 201 && c.target.startsWith("POST /api/businesses")) reviews201.n++;
  // The no-JS review form's success is its 200 confirmation page (the endpoint answers a form
  // post with pages): a stored review too.
  if (res.status === 200 && c.target === "POST /api/businesses/:id/reviews") reviews201.n++;
  if (res.status === 201 && !c.target.startsWith("POST /api/businesses")) {
    const id = (JSON.parse(text) as { id?: unknown }).id;
    if (typeof id !== "string") return `${where}: 201 without an id`;
    replied.add(id);
  }
  if (c.validReview && res.status !== 201) return `${where}: a valid review was refused: ${text.slice(0, 200)}`;
  if (c.valid) {
    if (res.status !== 201) return `${where}: a valid submission was refused: ${text.slice(0, 300)}`;
    const id = (JSON.parse(text) as { id: string }).id;
    stats.validSubmissions++;
    ids.set(`${c.valid.type}:${c.valid.idempotencyKey}`, id);
    if (c.valid.replay) {
      stats.replays++;
      const again = await handler(
        new Request(`${ORIGIN}${c.path}`, { method: c.method, headers: c.headers, body: c.body }),
        { ip: `198.51.100.${++ipSeq % 250}` },
      );
      const second = (await again.json()) as { id?: string };
      if (again.status !== 201 || second.id !== id)
        return `${where}: replay with the same key answered ${again.status} ${second.id} (first ${id})`;
    }
  }
  return null;
}

const SCHEMAS: Record<LeadType, z.ZodType> = {
  quote: leadSchema(QUOTE_ENDPOINT.schema),
  audit: leadSchema(AUDIT_ENDPOINT.schema),
  assessment: leadSchema(ASSESSMENT_ENDPOINT.schema),
  "find-pros": leadSchema(FIND_PROS_ENDPOINT.schema),
  booking: leadSchema(BOOKING_ENDPOINT.schemaAt!(Date.now)),
};

/** Known key shapes under the prefix; anything else means input leaked into the keyspace. */
const KEY_SHAPES =
  /^(biz:|idx:|rev:|reviews:(all|owner)$|lead:ld|lead:idem:(quote|audit|assessment|find-pros|booking):[0-9a-f]{32}$|leads:|outbox|ratelimit:|meta$|health:probe$|chat|budget|ref:TL-[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{2}$|msg:ld_|msgs$|msgs:lead:ld_|clock$)/;

/** Reads every stored lead and review and checks them against the schemas and the replies. */
async function audit(
  rig: FuzzRig,
  stats: FuzzStats,
  ids: Map<string, string>,
  replied: Set<string>,
  reviews201: number,
): Promise<string[]> {
  const problems: string[] = [];
  const { store, url } = rig.h;
  const stored = new Set<string>();
  const unanswered: string[] = [];
  let cursor: string | null = null;
  do {
    const page = await store.leads.list(undefined, { cursor, limit: 100 });
    for (const lead of page.items) {
      stored.add(lead.id);
      const parsed = SCHEMAS[lead.type as LeadType]?.safeParse(lead);
      if (!parsed?.success)
        problems.push(
          `stored lead ${lead.id} (${lead.type}) does not validate: ${parsed?.error.message.slice(0, 300)}`,
        );
      if (!replied.has(lead.id) && lead.id !== rig.links.leadId) unanswered.push(lead.id);
    }
    cursor = page.nextCursor;
  } while (cursor);
  stats.storedLeads = stored.size;
  if (unanswered.length > stats.htmlSuccesses)
    problems.push(
      `${unanswered.length} stored leads were never answered 201 (only ${stats.htmlSuccesses} form posts got a confirmation page): ${unanswered.slice(0, 5).join(", ")}`,
    );
  for (const [key, id] of ids) if (!stored.has(id)) problems.push(`valid submission ${key} (${id}) is not stored`);
  if (new Set(ids.values()).size !== ids.size) problems.push("two idempotency keys share a lead id");

  const reviews: StoredReview[] = [];
  for (let offset = 0; ; offset += 200) {
    const page = await store.reviews.list(FUZZ_BUSINESS, { limit: 200, offset });
    reviews.push(...page);
    if (page.length < 200) break;
  }
  stats.storedReviews = reviews.length;
  for (const r of reviews) {
    const parsed = Review.safeParse(r);
    if (!parsed.success)
      problems.push(`stored review ${r.id} does not validate: ${parsed.error.message.slice(0, 300)}`);
  }
  if (reviews.length !== reviews201) problems.push(`${reviews.length} reviews stored but ${reviews201} answered 201`);

  const client = new IORedis(url);
  try {
    let scan = "0";
    do {
      const [next, keys] = await client.scan(
        scan,
        "MATCH",
        `${store.prefix.replace(/[*?[\]\\]/g, "\\$&")}*`,
        "COUNT",
        1000,
      );
      scan = next;
      for (const key of keys) {
        const rest = key.slice(store.prefix.length);
        if (!KEY_SHAPES.test(rest) || /\p{Cc}|__proto__/u.test(rest))
          problems.push(`unexpected key ${JSON.stringify(rest).slice(0, 120)}`);
      }
    } while (scan !== "0");
  } finally {
    client.disconnect();
  }
  return problems;
}

/** Runs `numRuns` cases with `seed` and audits the store; never throws on a finding. */
export async function runFuzz(
  rig: FuzzRig,
  options: { seed: number; numRuns: number; onProgress?: (n: number) => void },
): Promise<FuzzStats> {
  const stats: FuzzStats = {
    cases: 0,
    counts: {},
    storedLeads: 0,
    storedReviews: 0,
    validSubmissions: 0,
    replays: 0,
    htmlSuccesses: 0,
    failures: [],
  };
  const ids = new Map<string, string>();
  const replied = new Set<string>();
  const reviews201 = { n: 0 };
  // The handlers log every write; keep the run quiet but turn a logged bug into a finding.
  const saved = { info: console.info, warn: console.warn, error: console.error };
  console.info = () => {};
  console.warn = () => {};
  console.error = (...args: unknown[]) => {
    const line = args.map(String).join(" ");
    if (/unexpected failure/.test(line) && stats.failures.length < 50)
      stats.failures.push(`logged: ${line.slice(0, 300)}`);
  };
  try {
    await fc.assert(
      fc.asyncProperty(fuzzCase, async (made) => {
        const c = await made;
        stats.cases++;
        if (stats.cases % 1000 === 0) options.onProgress?.(stats.cases);
        const failure = await send(rig, c, stats, ids, replied, reviews201);
        if (failure && stats.failures.length < 50) stats.failures.push(failure);
        return true; // record, don't shrink: a run reports every finding at once
      }),
      { seed: options.seed, numRuns: options.numRuns, endOnFailure: true },
    );
  } finally {
    Object.assign(console, saved);
  }
  stats.failures.push(...(await audit(rig, stats, ids, replied, reviews201.n)));
  if (({} as Record<string, unknown>).polluted !== undefined || ({} as Record<string, unknown>).isAdmin !== undefined)
    stats.failures.push("Object.prototype was polluted");
  return stats;
}

/** The counts as a table: endpoint, then each status and its count. */
export function formatCounts(stats: FuzzStats): string {
  const rows = Object.entries(stats.counts).sort(([a], [b]) => a.localeCompare(b));
  const lines = rows.map(([target, byStatus]) => {
    const total = Object.values(byStatus).reduce((a, b) => a + b, 0);
    const statuses = Object.entries(byStatus)
      .sort(([a], [b]) => Number(a) - Number(b))
      .map(([s, n]) => `${s}:${n}`)
      .join("  ");
    return `${target.padEnd(34)} ${String(total).padStart(6)}  ${statuses}`;
  });
  return [`${"endpoint".padEnd(34)} ${"cases".padStart(6)}  status:count`, ...lines].join("\n");
}
