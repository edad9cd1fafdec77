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
 *
 * The owner's pages' posts (/owner/...) are fuzzed the same way with their forms' real field
 * names, a real, changed, forged or missing session cookie, real and near-miss sign-in links
 * and SMS codes, wrong methods, content types and origins. (The pages themselves are Astro
 * pages; GET never reaches these functions.) Every answer must be a 303 back to an owner page
 * (post/redirect/get, never JSON), whose form flash, when it has one, was stored for that
 * page; and a refused post (its flash says 4xx, or it went back without one and without a
 * session cookie) must leave the owner's business and its reviews as they were.
 */
import fc from "fast-check";
import { Redis as IORedis } from "ioredis";
import type { z } from "zod";
import {
  ASSESSMENT_ENDPOINT,
  AUDIT_ENDPOINT,
  BOOKING_ENDPOINT,
  QUOTE_ENDPOINT,
} from "../../netlify/lib/lead-endpoints.ts";
import type { LeadEndpoint } from "../../netlify/lib/leads.types.ts";
import { FIND_PROS_ENDPOINT } from "../../netlify/lib/find-pros.ts";
import { reviewsHandler } from "../../netlify/lib/directory-reviews.ts";
import { businessBySlugHandler, featuredHandler } from "../../netlify/lib/directory.ts";
import { businessesHandler } from "../../netlify/lib/directory-search.ts";
import { chatHandler } from "../../netlify/lib/assistant/handler.ts";
import { respondCallHandler, respondHandler } from "../../netlify/lib/delivery/handlers.ts";
import { initialRouting } from "../../netlify/lib/delivery/routing.ts";
import { signerFor } from "../../netlify/lib/delivery/signing.ts";
import { leadSchema, type LeadType } from "../../src/lib/schemas/lead.ts";
import { FLASH_PARAM, PROBLEM_PARAM } from "../../src/lib/schemas/flash.ts";
import { Review } from "../../src/lib/schemas/review.ts";
import type { Review as StoredReview } from "../../src/lib/schemas/review.ts";
import {
  ORIGIN,
  directoryDeps,
  functionsHarness,
  ownedBusiness,
  testBusiness,
  toEntries,
  validAssessment,
  validAudit,
  validBooking,
  validFindPros,
  validQuote,
  validReview,
  type FunctionsHarness,
  TINY_PNG,
} from "./functions.ts";
import { parseEnv } from "../../src/lib/env.ts";
import { ownerProfileHandler } from "../../netlify/lib/owners/profile.ts";
import { ownerCredentialsHandler } from "../../netlify/lib/owners/credentials.ts";
import { ownerReviewsHandler } from "../../netlify/lib/owners/reviews.ts";
import { ownerPhotosHandler } from "../../netlify/lib/owners/photos.ts";
import { addBusinessHandler, claimHandler } from "../../netlify/lib/owners/forms.ts";
import { codeHandler, signInHandler, signOutHandler } from "../../netlify/lib/owners/sign-in.ts";
import { createOwnerSession } from "../../netlify/lib/owners/session.ts";
import { issueCode, issueSignInLink } from "../../netlify/lib/owners/tokens.ts";
import { keyspace } from "../../netlify/lib/store/keys.ts";
import { CLOSING_HOLIDAYS } from "../../src/lib/holidays.ts";

export const FUZZ_BUSINESS = "fz-1";
export const FUZZ_BUSINESS_SLUG = "fuzz-business-one";
/** The business the fuzz owner runs (its own, so profile saves never touch the lead targets' business). */
export const FUZZ_OWNER_BUSINESS = "fz-own";
const FUZZ_OWNER_SLUG = "fuzz-owner-business";
const FUZZ_OWNER_EMAIL = "owner@fuzz-owner.test";

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
  /** A page endpoint (the owner's): every answer with a body is an HTML page, never JSON. */
  page?: boolean;
  /** The body is bytes kept as a latin1 string (a multipart post with a photo in it). */
  latin1?: boolean;
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
/** A path segment sent raw (may be normalized by URL parsing) or percent-encoded. */
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
 * fills in ANSWER_TOKEN), one character off, or junk. Every answer is a page.
 */
const ANSWER_TOKEN = "{answer-token}";
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
);

// ---------------------------------------------------------------------------------------
// The owner's pages (/owner/...): HTML pages and form posts, most behind a session cookie.

/**
 * Placeholders the runner swaps per case: the owner's real session cookie ("{owner-cookie}",
 * or "{owner-cookie}~N" with one character changed), a fresh real sign-in token and SMS code
 * id (same suffix), the code itself, a review of the owner's business and one of its photos.
 */
const OWNER_COOKIE = "{owner-cookie}";
const SIGN_IN_TOKEN = "{sign-in-token}";
const CODE_ID = "{code-id}";
const SMS_CODE = "{sms-code}";
const REVIEW_ID = "{review-id}";
const OWNER_PHOTO = "{owner-photo}";
const OWNER_PLACEHOLDERS = /\{(owner-cookie|sign-in-token|code-id|sms-code|review-id|owner-photo)\}(?:~(\d+))?/g;

const ownerCookie = fc.oneof(
  { weight: 8, arbitrary: fc.constant(`tl_owner=${OWNER_COOKIE}`) },
  { weight: 1, arbitrary: fc.nat(60).map((at) => `tl_owner=${OWNER_COOKIE}~${at}`) },
  { weight: 1, arbitrary: fc.constant(`tl_owner=x; tl_owner=${OWNER_COOKIE}; other=1`) },
  { weight: 1, arbitrary: fc.constant(null) },
  {
    weight: 1,
    arbitrary: fc.oneof(
      fc.constantFrom(
        "tl_owner=",
        "tl_owner=abc.def",
        `tl_owner=${"A".repeat(32)}.${"B".repeat(22)}`,
        `tl_owner=${"A".repeat(32)}.${"B".repeat(22)}; tl_owner=${"C".repeat(32)}.${"D".repeat(22)}`,
        "tl_owner=__proto__",
      ),
      nastyString.map((s) => `tl_owner=${s}`),
    ),
  },
);
/** Where an owner post comes from: this site mostly, sometimes another site's page. */
const ownerOrigin = fc.oneof(
  { weight: 8, arbitrary: fc.constant<Record<string, string>>({ origin: ORIGIN }) },
  { weight: 1, arbitrary: fc.constant<Record<string, string>>({}) },
  {
    weight: 2,
    arbitrary: fc.constantFrom<Record<string, string>>(
      { origin: "https://evil.example" },
      { origin: "null" },
      { origin: "http://127.0.0.1:8888.evil.example" },
      { "sec-fetch-site": "cross-site" },
      { "sec-fetch-site": "same-site" },
      { origin: "not a url" },
    ),
  },
);
const ownerAccept = fc.oneof(
  { weight: 6, arbitrary: fc.constant("text/html,application/xhtml+xml") },
  { weight: 1, arbitrary: fc.constant(undefined) },
  { weight: 2, arbitrary: fc.constantFrom("application/json", "application/vnd.api+json, text/html", "*/*") },
);
/** The owner functions take posts only (config.method): a page's GET and HEAD are the Astro page's. */
const ownerWriteMethod = fc.oneof(
  { weight: 8, arbitrary: fc.constant("POST") },
  { weight: 1, arbitrary: fc.constantFrom("PUT", "DELETE", "PATCH", "OPTIONS") },
);

type Entries = [string, string][];
/** One form mutation: a field gone, junk in it, repeated, or an unknown or prototype key. */
const formMutation = (fields: string[]): fc.Arbitrary<(e: Entries) => Entries> =>
  fc.oneof(
    fc.constantFrom(...fields).map((f) => (e: Entries) => e.filter(([k]) => k !== f)),
    fc
      .tuple(fc.constantFrom(...fields), nastyString)
      .map(([f, v]) => (e: Entries) => [...e.filter(([k]) => k !== f), [f, v] as [string, string]]),
    fc
      .tuple(fc.constantFrom(...fields), junkValue)
      .map(([f, v]) => (e: Entries) => [
        ...e.filter(([k]) => k !== f),
        [f, JSON.stringify(v) ?? "undefined"] as [string, string],
      ]),
    fc
      .tuple(fc.constantFrom(...fields), fc.array(nastyString, { minLength: 1, maxLength: 3 }))
      .map(([f, vs]) => (e: Entries) => [...e, ...vs.map((v) => [f, v] as [string, string])]),
    fc
      .tuple(fc.oneof(fc.string({ maxLength: 10 }), fc.constantFrom(...PROTO_KEYS)), nastyString)
      .map(([k, v]) => (e: Entries) => [...e, [k, v] as [string, string]]),
  );

const OWNER_BODY_TYPES = [
  "urlencoded",
  "urlencoded",
  "urlencoded",
  "urlencoded",
  "urlencoded",
  "urlencoded",
  "urlencoded",
  "multipart",
  "json",
  "text",
  "none",
  "charset",
] as const;

/** The entries as a body of `type` (multipart and JSON are wrong for most owner forms: 415). */
async function ownerBody(
  type: (typeof OWNER_BODY_TYPES)[number],
  entries: Entries,
  files: { name: string; bytes: Uint8Array<ArrayBuffer>; type: string }[] = [],
): Promise<{ headers: Record<string, string>; body: string }> {
  switch (type) {
    case "urlencoded":
      return {
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams(entries).toString(),
      };
    case "charset":
      return {
        headers: { "content-type": "application/x-www-form-urlencoded; charset=utf-16" },
        body: new URLSearchParams(entries).toString(),
      };
    case "multipart": {
      const form = new FormData();
      for (const [k, v] of entries) form.append(k, v);
      for (const f of files) form.append(f.name, new Blob([f.bytes], { type: f.type }), "photo.bin");
      // Kept byte for byte as a latin1 string (a photo is not UTF-8); sent as bytes again.
      const req = new Request(ORIGIN, { method: "POST", body: form });
      const bytes = Buffer.from(await req.arrayBuffer());
      return { headers: { "content-type": req.headers.get("content-type")! }, body: bytes.toString("latin1") };
    }
    case "json":
      return { headers: { "content-type": "application/json" }, body: JSON.stringify(Object.fromEntries(entries)) };
    case "text":
      return { headers: { "content-type": "text/plain" }, body: new URLSearchParams(entries).toString() };
    case "none":
      return { headers: {}, body: new URLSearchParams(entries).toString() };
  }
}

/** A form post to an owner page: valid-looking entries, then mutations. */
function ownerFormCase(o: {
  target: string;
  path: fc.Arbitrary<string>;
  valid: fc.Arbitrary<Entries>;
  fields: string[];
  session: boolean;
  bodyTypes?: readonly (typeof OWNER_BODY_TYPES)[number][];
  files?: fc.Arbitrary<{ name: string; bytes: Uint8Array<ArrayBuffer>; type: string }[]>;
}): fc.Arbitrary<Promise<FuzzCase>> {
  return fc
    .record({
      path: o.path,
      method: ownerWriteMethod,
      entries: o.valid,
      // A third of the posts go as the form sends them (the success paths), the rest mutated.
      muts: fc.oneof(
        { weight: 1, arbitrary: fc.constant([]) },
        { weight: 2, arbitrary: fc.array(formMutation(o.fields), { minLength: 1, maxLength: 3 }) },
      ),
      type: fc.constantFrom(...(o.bodyTypes ?? OWNER_BODY_TYPES)),
      cookie: o.session ? ownerCookie : fc.oneof(fc.constant(null), ownerCookie),
      origin: ownerOrigin,
      accept: ownerAccept,
      files: o.files ?? fc.constant<{ name: string; bytes: Uint8Array<ArrayBuffer>; type: string }[]>([]),
    })
    .map(async ({ path, method, entries, muts, type, cookie, origin, accept, files }) => {
      for (const m of muts) entries = m(entries);
      const b = await ownerBody(type, entries, files);
      const headers: Record<string, string> = { ...b.headers, ...origin };
      if (accept) headers.accept = accept;
      if (cookie) headers.cookie = cookie;
      return {
        target: o.target,
        method,
        path,
        headers,
        body: b.body,
        html: true,
        page: true,
        latin1: type === "multipart",
      };
    });
}

const WEEKDAY_NAMES = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"];
const clock = fc.oneof(
  {
    weight: 9,
    arbitrary: fc
      .tuple(fc.integer({ min: 0, max: 23 }), fc.integer({ min: 0, max: 59 }))
      .map(([h, m]) => `${String(h).padStart(2, "0")}:${String(m).padStart(2, "0")}`),
  },
  { weight: 1, arbitrary: fc.constantFrom("", "24:00", "7:00 AM", "08:00:30", "99:99", "-1:00") },
);
const isoDay = fc
  .date({ min: new Date("1990-01-01T00:00:00Z"), max: new Date("2199-12-31T00:00:00Z"), noInvalidDate: true })
  .map((d) => d.toISOString().slice(0, 10));
const futureDay = fc
  .date({ min: new Date("2030-01-01T00:00:00Z"), max: new Date("2199-12-31T00:00:00Z"), noInvalidDate: true })
  .map((d) => d.toISOString().slice(0, 10));
const someOf = <T>(items: readonly T[], max = items.length) => fc.subarray([...items], { maxLength: max });

const profileEntries: fc.Arbitrary<Entries> = fc
  .record({
    description: fc.oneof(fc.lorem({ maxCount: 30 }), fc.string({ maxLength: 200 })),
    services: someOf(["Tree Trimming", "Tree Removal", "Stump Grinding", "Emergency Service", "Tree Pruning"]),
    areas: fc.array(fc.constantFrom("Austin", "Round Rock", "Cedar Park", "  ", "Pflugerville"), { maxLength: 5 }),
    website: fc.constantFrom("", "https://oak.example.com", "http://x.example/a?b=c"),
    phone: fc.constantFrom("", "(512) 555-0100", "+1 512 555 0100", "512.555.0100 x12"),
    days: fc.array(fc.tuple(fc.constantFrom("open", "open", "closed", "24h"), clock, clock), {
      minLength: 7,
      maxLength: 7,
    }),
    holidays: someOf(CLOSING_HOLIDAYS),
    closed: fc.array(fc.tuple(isoDay, fc.oneof(fc.constant(""), fc.lorem({ maxCount: 3 }))), { maxLength: 4 }),
  })
  .map((r) => {
    const e: Entries = [
      ["description", r.description],
      ...r.services.map((s): [string, string] => ["services", s]),
      ["serviceAreas", r.areas.join("\n")],
      ["website", r.website],
      ["phone", r.phone],
    ];
    WEEKDAY_NAMES.forEach((d, i) => {
      const [mode, open, close] = r.days[i]!;
      e.push([`${d}.mode`, mode], [`${d}.open`, open], [`${d}.close`, close]);
    });
    for (const h of r.holidays) e.push(["closedHolidays", h]);
    for (const [date, note] of r.closed) e.push(["closedDate", date], ["closedNote", note]);
    return e;
  });
const PROFILE_FIELDS = [
  "description",
  "services",
  "serviceAreas",
  "website",
  "phone",
  "closedHolidays",
  "closedDate",
  "closedNote",
  ...WEEKDAY_NAMES.flatMap((d) => [`${d}.mode`, `${d}.open`, `${d}.close`]),
];

const credentialEntries: fc.Arbitrary<Entries> = fc
  .record({
    licence: fc.option(
      fc.oneof(
        fc.constantFrom(
          ["MD", "LTE", "1234"],
          ["md", "LTE", "lte #01234"],
          ["NJ", "NJTC", "NJTC 849512"],
          ["NJ", "LTCO", "1001"],
          ["LA", "ARB", "2345"],
          ["TX", "OTHER", "TX-12345"],
          ["TX", "LTE", "1"],
          ["ZZ", "OTHER", "1"],
        ),
        fc.tuple(fc.string({ maxLength: 3 }), fc.string({ maxLength: 6 }), fc.string({ maxLength: 20 })),
      ),
    ),
    insurance: fc.option(
      fc.tuple(
        fc.constantFrom("Acme Mutual", "", "Ω Insurance"),
        fc.constantFrom("$1,000,000", "2M", "1.5 million", "500k", "0", "$1,000,000,001", "99999999999999999999"),
        fc.oneof(
          { weight: 4, arbitrary: futureDay },
          { weight: 1, arbitrary: fc.oneof(isoDay, fc.constantFrom("2099-02-30", "2099-13-01", "tomorrow", "")) },
        ),
      ),
    ),
  })
  .map(({ licence, insurance }) => {
    const e: Entries = [];
    if (licence) e.push(["licenceState", licence[0]], ["licenceType", licence[1]], ["licenceNumber", licence[2]]);
    if (insurance)
      e.push(
        ["insuranceCarrier", insurance[0]],
        ["insuranceCover", insurance[1]],
        ["insuranceExpiresOn", insurance[2]],
      );
    return e;
  });
const CREDENTIAL_FIELDS = [
  "licenceState",
  "licenceType",
  "licenceNumber",
  "insuranceCarrier",
  "insuranceCover",
  "insuranceExpiresOn",
];

const replyEntries: fc.Arbitrary<Entries> = fc
  .record({
    reviewId: fc.oneof(
      { weight: 4, arbitrary: fc.constant(REVIEW_ID) },
      { weight: 1, arbitrary: fc.constantFrom("rv_nope", "fz-1", "__proto__", "a".repeat(101)) },
    ),
    intent: fc.constantFrom("reply", "reply", "remove", "REMOVE", "delete"),
    text: fc.oneof(fc.lorem({ maxCount: 20 }), fc.constant(""), fc.string({ maxLength: 2100 })),
  })
  .map((r) => Object.entries(r) as Entries);

/** What an upload may carry: a real tiny PNG, a signature with junk behind it, or no image at all. */
const photoFile = fc.oneof(
  { weight: 5, arbitrary: fc.constant({ name: "photo", bytes: TINY_PNG, type: "image/png" }) },
  fc
    .tuple(
      fc.constantFrom([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], [0xff, 0xd8, 0xff, 0xe0], [0x47, 0x49, 0x46]),
      fc.uint8Array({ maxLength: 200 }),
    )
    .map(([sig, rest]) => ({ name: "photo", bytes: Uint8Array.from([...sig, ...rest]), type: "image/jpeg" })),
  fc
    .uint8Array({ maxLength: 300 })
    .map((bytes) => ({ name: "photo", bytes: Uint8Array.from(bytes), type: "image/png" })),
  fc.constantFrom(
    { name: "photo", bytes: TINY_PNG.slice(0, 40), type: "image/png" },
    { name: "photo", bytes: new Uint8Array(0), type: "application/octet-stream" },
    { name: "remove", bytes: TINY_PNG, type: "image/png" },
  ),
);
const photoEntries: fc.Arbitrary<Entries> = fc.oneof(
  { weight: 3, arbitrary: fc.constant<Entries>([]) },
  { weight: 1, arbitrary: fc.constant<Entries>([["remove", OWNER_PHOTO]]) },
  {
    weight: 1,
    arbitrary: fc
      .oneof(nastyString, fc.constantFrom("/photos/fz-own/nope.webp", "", " "))
      .map((v): Entries => [["remove", v]]),
  },
);

const claimEntries: fc.Arbitrary<Entries> = fc
  .record({
    name: fc.constantFrom("Mia Maple", "M", "Ωmega Owner"),
    email: fc.constantFrom(
      "owner@fuzz-owner.test",
      "office@fuzz-owner.test",
      "OFFICE@Fuzz-Owner.test ",
      "someone@else.test",
      "not-an-email",
    ),
    phone: fc.constantFrom("", "(512) 555-0142", "555"),
    role: fc.constantFrom("owner", "manager", "employee", "other", "boss"),
    proof: fc.constantFrom("email", "sms", "operator", "pigeon"),
    note: fc.oneof(fc.constant(""), fc.string({ maxLength: 1100 })),
  })
  .map((r) => Object.entries(r) as Entries);

const addEntries: fc.Arbitrary<Entries> = fc
  .record({
    businessName: fc.constantFrom("New Leaf Trees", "N", "Ω Trees"),
    address: fc.constantFrom("1 Main St", "12"),
    city: fc.constantFrom("Austin", "San Antonio", "Gotham", ""),
    state: fc.constantFrom("TX", "tx", "Texas", ""),
    zipCode: fc.constantFrom("78701", "00000", "7870", "78701-1234"),
    phone: fc.constantFrom("(512) 555-0100", "555"),
    businessEmail: fc.constantFrom("office@newleaf.test", "nope"),
    website: fc.constantFrom("", "https://newleaf.test", "javascript:alert(1)"),
    services: someOf(["Tree Trimming", "Tree Removal", "Stump Grinding", "Juggling"]),
    name: fc.constantFrom("Nia Leaf", "N"),
    email: fc.constantFrom("nia@newleaf.test", "@"),
    role: fc.constantFrom("owner", "manager", "chief"),
    note: fc.oneof(fc.constant(""), fc.string({ maxLength: 50 })),
  })
  .map(({ services, ...r }) => [
    ...(Object.entries(r) as Entries),
    ...services.map((s): [string, string] => ["services", s]),
  ]);

const secretPath = (placeholder: string) =>
  fc.oneof(
    { weight: 4, arbitrary: fc.constant(placeholder) },
    { weight: 2, arbitrary: fc.nat(60).map((at) => `${placeholder}~${at}`) },
    { weight: 2, arbitrary: pathSegment },
  );

const ownerCases: fc.Arbitrary<Promise<FuzzCase>> = fc.oneof(
  ownerFormCase({
    target: "/owner/profile",
    path: query({ saved: nastyString, form: nastyString }).map((q) => `/owner/profile${q}`),
    valid: profileEntries,
    fields: PROFILE_FIELDS,
    session: true,
  }),
  ownerFormCase({
    target: "/owner/credentials",
    path: fc.constant("/owner/credentials"),
    valid: credentialEntries,
    fields: CREDENTIAL_FIELDS,
    session: true,
  }),
  ownerFormCase({
    target: "/owner/reviews",
    path: query({ page: numberish, saved: nastyString }).map((q) => `/owner/reviews${q}`),
    valid: replyEntries,
    fields: ["reviewId", "intent", "text"],
    session: true,
  }),
  ownerFormCase({
    target: "/owner/photos",
    path: fc.constant("/owner/photos"),
    valid: photoEntries,
    fields: ["remove", "photo"],
    session: true,
    bodyTypes: [
      "multipart",
      "multipart",
      "multipart",
      "multipart",
      "multipart",
      "multipart",
      "urlencoded",
      "json",
      "none",
    ],
    files: fc.array(photoFile, { maxLength: 2 }),
  }),
  ownerFormCase({
    target: "/owner/claim/:slug",
    path: fc
      .oneof(
        { weight: 4, arbitrary: fc.constantFrom(FUZZ_OWNER_SLUG, FUZZ_BUSINESS_SLUG) },
        { weight: 2, arbitrary: pathSegment },
      )
      .map((s) => `/owner/claim/${s}`),
    valid: claimEntries,
    fields: ["name", "email", "phone", "role", "proof", "note"],
    session: false,
  }),
  ownerFormCase({
    target: "/owner/add",
    path: fc.constant("/owner/add"),
    valid: addEntries,
    fields: [
      "businessName",
      "address",
      "city",
      "state",
      "zipCode",
      "phone",
      "businessEmail",
      "website",
      "services",
      "name",
      "email",
      "role",
      "note",
    ],
    session: false,
  }),
  ownerFormCase({
    target: "/owner/sign-in/:token",
    path: secretPath(SIGN_IN_TOKEN).map((t) => `/owner/sign-in/${t}`),
    valid: fc.oneof(fc.constant<Entries>([]), fc.constant<Entries>([["go", "1"]])),
    fields: ["go", "token"],
    session: false,
  }),
  ownerFormCase({
    target: "/owner/code/:id",
    path: secretPath(CODE_ID).map((t) => `/owner/code/${t}`),
    valid: fc
      .oneof(
        { weight: 3, arbitrary: fc.constant(SMS_CODE) },
        { weight: 2, arbitrary: fc.stringMatching(/^\d{6}$/) },
        { weight: 1, arbitrary: fc.constantFrom(" 1 2 3 4 5 6 ", "12345", "1234567", "١٢٣٤٥٦") },
      )
      .map((code): Entries => [["code", code]]),
    fields: ["code"],
    session: false,
  }),
  ownerFormCase({
    target: "/owner/sign-out",
    path: fc.constant("/owner/sign-out"),
    valid: fc.constant<Entries>([]),
    fields: ["x"],
    session: true,
  }),
);

export const fuzzCase: fc.Arbitrary<Promise<FuzzCase>> = fc.oneof(
  ...LEADS.map((t) => ({ weight: 2, arbitrary: leadCase(t) })),
  { weight: 4, arbitrary: directoryCases },
  { weight: 2, arbitrary: chatCases },
  { weight: 2, arbitrary: deliveryCases },
  { weight: 10, arbitrary: ownerCases },
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
  /** The fuzz owner of FUZZ_OWNER_BUSINESS: what the owner cases' placeholders become. */
  owner: {
    /** The session cookie's value (id.signature), for "{owner-cookie}". */
    cookie: string;
    /** A new session's cookie value: sign-out cases end it, not the shared one. */
    freshCookie(): Promise<string>;
    /** A new one-time sign-in token for the owner. */
    signInToken(): Promise<string>;
    /** A new SMS code for the owner: its id (the page's address) and the code. */
    code(): Promise<{ id: string; code: string }>;
    /** A review of the owner's business. */
    reviewId: string;
    /** What a refused post must leave as it was: the business and its reviews, as stored. */
    snapshot(): Promise<string>;
    /** One of the business's photos, if it has any. */
    photo(): Promise<string | undefined>;
  };
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
  // The owner's pages, for a business of its own with a signed-in owner and one review.
  const owned = await ownedBusiness(
    h.store,
    env,
    FUZZ_OWNER_BUSINESS,
    {
      name: "Fuzz Owner Trees",
      slug: FUZZ_OWNER_SLUG,
      email: "office@fuzz-owner.test",
      phone: "(512) 555-0142",
      images: [],
    },
    { email: FUZZ_OWNER_EMAIL },
  );
  /** The tl_owner cookie's value, from its `name=value` pair. */
  const cookieValue = (pair: string) => pair.slice("tl_owner=".length);
  const ownerDeps = { store: () => h.store, env, purge: async () => {}, photos: () => h.photos };
  const authDeps = { store: () => h.store, env, notify: delivery.notify };
  handlers["/owner/profile"] = ownerProfileHandler(ownerDeps);
  handlers["/owner/credentials"] = ownerCredentialsHandler(ownerDeps);
  handlers["/owner/reviews"] = ownerReviewsHandler(ownerDeps);
  handlers["/owner/photos"] = ownerPhotosHandler(ownerDeps);
  handlers["/owner/claim/:slug"] = claimHandler(authDeps);
  handlers["/owner/add"] = addBusinessHandler(authDeps);
  handlers["/owner/sign-in/:token"] = signInHandler(authDeps);
  handlers["/owner/code/:id"] = codeHandler(authDeps);
  handlers["/owner/sign-out"] = signOutHandler(authDeps);
  const session = async () =>
    cookieValue(
      (
        await createOwnerSession(h.store, env, { businessId: FUZZ_OWNER_BUSINESS, email: FUZZ_OWNER_EMAIL }, Date.now())
      ).setCookie.split(";", 1)[0]!,
    );
  const review = await h.store.reviews.add(FUZZ_OWNER_BUSINESS, validReview(), {
    createdAt: new Date().toISOString(),
  });
  const grant = { businessId: FUZZ_OWNER_BUSINESS, email: FUZZ_OWNER_EMAIL, claimId: "cl_fuzzfuzzfuzzfuzzfuzz" };
  const owner: FuzzRig["owner"] = {
    cookie: cookieValue(owned.cookie),
    freshCookie: session,
    signInToken: async () => (await issueSignInLink(h.store, { ...grant, via: "email" }, Date.now())).token,
    code: () => issueCode(h.store, { ...grant, via: "sms" }, Date.now()),
    reviewId: review.id,
    snapshot: async () =>
      JSON.stringify([
        await h.store.businesses.get(FUZZ_OWNER_BUSINESS),
        await h.store.redis.hgetall(keyspace(h.store.prefix).reviews(FUZZ_OWNER_BUSINESS)),
      ]),
    photo: async () => (await h.store.businesses.get(FUZZ_OWNER_BUSINESS))?.images[0],
  };
  handlers["POST /respond/:token/call"] = respondCallHandler(delivery);
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
  return { h, handlers, links, owner, teardown: () => h.teardown() };
}

let ipSeq = 0;
const CASE_TIMEOUT_MS = 5_000;
const MARKUP = /<script>alert\(1\)|<img src=x onerror|<svg onload/i;

/** One character of `text` changed to another one its alphabet allows (a near miss, not junk). */
const nearMiss = (text: string, at: number) => {
  const i = at % text.length;
  return text.slice(0, i) + (text[i] === "A" ? "B" : "A") + text.slice(i + 1);
};

/**
 * Fills an owner case's placeholders: the session cookie (a fresh session for a sign-out, so
 * the shared one lives on), a new sign-in token or SMS code per case, the code itself, a
 * review and a photo of the owner's business. "~N" changes one character of the value.
 */
async function ownerPlaceholders(rig: FuzzRig, c: FuzzCase): Promise<FuzzCase> {
  const all = [c.path, c.body ?? "", ...Object.values(c.headers)].join("\n");
  const has = (name: string) => all.includes(`{${name}}`) || all.includes(`%7B${name}%7D`);
  const values: Record<string, string> = {};
  if (has("owner-cookie"))
    values["owner-cookie"] = c.target === "/owner/sign-out" ? await rig.owner.freshCookie() : rig.owner.cookie;
  if (has("sign-in-token")) values["sign-in-token"] = await rig.owner.signInToken();
  if (has("code-id") || has("sms-code")) {
    const { id, code } = await rig.owner.code();
    values["code-id"] = id;
    values["sms-code"] = code;
  }
  if (has("review-id")) values["review-id"] = rig.owner.reviewId;
  if (has("owner-photo"))
    values["owner-photo"] = (await rig.owner.photo()) ?? `/photos/${FUZZ_OWNER_BUSINESS}/none.webp`;
  const fill = (text: string, encode = false) =>
    text
      .replace(/%7B([a-z-]+)%7D/gi, (m, name: string) =>
        values[name] === undefined ? m : encode ? encodeURIComponent(values[name]) : values[name],
      )
      .replace(OWNER_PLACEHOLDERS, (m, name: string, at?: string) => {
        const value = values[name];
        if (value === undefined) return m;
        return at === undefined ? value : nearMiss(value, Number(at));
      });
  return {
    ...c,
    path: fill(c.path),
    body: c.body === undefined ? undefined : fill(c.body, true),
    headers: Object.fromEntries(Object.entries(c.headers).map(([k, v]) => [k, fill(v)])),
  };
}

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
  if (c.page) c = await ownerPlaceholders(rig, c);
  let req: Request;
  try {
    req = new Request(`${ORIGIN}${c.path}`, {
      method: c.method,
      headers: c.headers,
      body:
        c.method === "GET" || c.method === "HEAD" || c.body === undefined
          ? undefined
          : c.latin1
            ? Buffer.from(c.body, "latin1")
            : c.body,
    });
  } catch {
    return null; // the client could not even build it (an invalid header or URL): nothing reaches a server
  }
  const handler = rig.handlers[c.target]!;
  const writes = c.method !== "GET" && c.method !== "HEAD";
  // A handler that never settles is a finding too (and would otherwise end the run silently).
  let timer: ReturnType<typeof setTimeout> | undefined;
  const hung = new Promise<"hung">((resolve) => (timer = setTimeout(() => resolve("hung"), CASE_TIMEOUT_MS)));
  const answered = (async () => {
    // Owner cases each come from their own address: the per-address limits and the sign-in
    // lockout would otherwise turn most of them into 429s.
    const ip = c.page ? `192.0.2.${++ipSeq % 250}:${process.pid}:${ipSeq}` : `198.51.100.${++ipSeq % 250}`;
    const before = c.page && writes ? await rig.owner.snapshot() : null;
    const res = await handler(req, { ip, ...(c.params ? { params: c.params } : {}) });
    const text = await res.text();
    return { res, text, before, after: before === null ? null : await rig.owner.snapshot() };
  })();
  const outcome = await Promise.race([answered, hung]).finally(() => clearTimeout(timer));
  if (outcome === "hung")
    return `${c.target} ${c.method} ${c.path.slice(0, 120)}: no answer within ${CASE_TIMEOUT_MS} ms (${JSON.stringify(c.headers)} ${JSON.stringify(c.body?.slice(0, 300))})`;
  const { res, text, before, after } = outcome;
  (stats.counts[c.target] ??= {})[res.status] = (stats.counts[c.target]?.[res.status] ?? 0) + 1;
  const where = `${c.target} ${c.method} ${c.path.slice(0, 120)} -> ${res.status}`;
  if (res.status >= 500) return `${where}: 5xx ${text.slice(0, 200)}`;
  const type = res.headers.get("content-type") ?? "";
  if (c.page) {
    // Post/redirect/get: every answer is a 303 back to an owner page, without a body.
    const sent = `(${JSON.stringify(c.headers).slice(0, 300)} ${JSON.stringify(c.body?.slice(0, 300))})`;
    const location = res.headers.get("location") ?? "";
    if (res.status !== 303)
      return `${where}: answered ${type || "untyped"} ${res.status}, not a 303 to its page ${sent}`;
    if (text !== "") return `${where}: a redirect with a body ${sent}`;
    if (!/^\/owner(\/|\?|$)/.test(location)) return `${where}: redirected off the owner pages to ${location} ${sent}`;
    const to = new URL(location, ORIGIN);
    if (to.searchParams.get(PROBLEM_PARAM) === "unavailable")
      return `${where}: the page's flash could not be stored ${sent}`;
    const id = to.searchParams.get(FLASH_PARAM);
    const flash = id === null ? null : await rig.h.store.flashes.get(id);
    if (id !== null && (!flash || flash.path !== to.pathname))
      return `${where}: ?form=${id} names no flash for ${to.pathname} ${sent}`;
    if (flash && flash.status >= 500) return `${where}: 303 to a ${flash.status} page: ${flash.problem ?? ""} ${sent}`;
    const outcome = `303 ${flash ? flash.status : "-"}`;
    stats.counts[c.target]![outcome] = (stats.counts[c.target]![outcome] ?? 0) + 1;
    // Refused: its flash says so, or (no session, no such business) it went back to the very page
    // it came from without a flash and without starting a session.
    const refused = flash
      ? flash.status >= 400
      : to.pathname === new URL(req.url).pathname && !res.headers.has("set-cookie");
    if (refused && before !== after) return `${where}: a refused post changed the listing ${sent}`;
    return null;
  }
  if (res.status >= 400) {
    if (c.html && type.startsWith("text/html")) {
      if (MARKUP.test(text)) return `${where}: HTML error page echoes markup`;
    } else {
      if (!type.includes("application/json"))
        return `${where}: 4xx is ${type || "untyped"}, not JSON (${JSON.stringify(c.headers).slice(0, 300)} ${JSON.stringify(c.body?.slice(0, 300))})`;
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
  if (res.status === 303) {
    // A no-JS post (post/redirect/get): on to a page of this site, with a flash it can read.
    const location = res.headers.get("location") ?? "";
    if (!/^\/(?![/\\])/.test(location)) return `${where}: 303 to ${JSON.stringify(location)}, not a site path`;
    const url = new URL(location, ORIGIN);
    if (url.searchParams.has("problem")) return `${where}: 303 without its flash (${location})`;
    const flashId = url.searchParams.get("form");
    const flash = flashId ? await rig.h.store.flashes.get(flashId) : null;
    if (flashId && !flash) return `${where}: 303 to a flash that is not stored`;
    if (flash && flash.status >= 500) return `${where}: 303 to a ${flash.status} page: ${flash.problem ?? ""}`;
    // A no-JS lead goes on to its confirmation (the lead's id in the path); the audit allows for these.
    if (/^\/requests\/[^/]+\/[^/]+\/received$/.test(url.pathname) && LEADS.some((t) => t.name === c.target))
      stats.htmlSuccesses++;
    // The no-JS review form's success is the 303 to its thanks: a stored review too.
    if (flash?.status === 200 && flash.notice && c.target === "POST /api/businesses/:id/reviews") reviews201.n++;
  }
  if (res.status === 201 && c.target.startsWith("POST /api/businesses")) reviews201.n++;
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
  /^(biz:|idx:|rev:|reviews:(all|owner)$|lead:ld|lead:idem:(quote|audit|assessment|find-pros|booking):[0-9a-f]{32}$|leads:|outbox|ratelimit:|meta$|health:probe$|chat|budget|ref:TL-[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{2}$|msg:ld_|msgs$|msgs:lead:ld_|clock$|owner:(sess|link|code|fail|codefail):[\w-]+$|owner:biz:[^\s:]+@[^\s:]+$|owned$|runs:[\w-]+$|sends:last$|claim:cl_[a-z0-9]{20}$|msg:cl_[a-z0-9]{20}~owner-(sign-in|code)~(email|sms)$|msgs:lead:cl_[a-z0-9]{20}$|claims(:pending)?$|change:|changes$|credentials:pending$|flash:[\w-]{22}$|reports(:doc|:count)?$)/;

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
