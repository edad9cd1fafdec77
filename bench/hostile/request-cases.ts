/**
 * The requests of the hostile-requests bench: generated page requests (/directory and its
 * filters, business pages, other pages), the known problem cases, and raw-socket requests no
 * HTTP client would send.
 */
import fc from "fast-check";
import { FUZZ_BUSINESS, FUZZ_BUSINESS_SLUG } from "../../tests/helpers/fuzz.ts";
import { DIRECTORY_PARAMS } from "../../src/lib/directory-url.ts";
import { BIZ } from "./shared.ts";

/** One request to send, labelled with the endpoint it reaches. */
export interface Sent {
  label: string;
  method: string;
  path: string;
  how: "http" | "raw";
}
export type Case = Sent & { headers: Record<string, string>; body?: string };

/** The endpoint a path reaches (for the per-endpoint counts). */
export function endpointOf(p: string): string {
  const pathname = p.split("?")[0]!;
  const routes: [RegExp, string][] = [
    [/^\/api\/businesses\/?$/, "/api/businesses"],
    [/^\/api\/businesses\/featured\/?$/, "/api/businesses/featured"],
    [/^\/api\/businesses\/slug\/./, "/api/businesses/slug/:slug"],
    [/^\/api\/businesses\/[^/]+\/reviews\/?$/, "/api/businesses/:id/reviews"],
    [/^\/api\/(quote|audit|assessment|find-pros|booking-request|chat|health)\/?$/, "/api/$1"],
    [/^\/api\//, "/api/* (no function)"],
    [/^\/directory\/?$/, "/directory"],
    [/^\/directory\/./, "/directory/:slug"],
    [/^\/sitemap/, "/sitemap*"],
  ];
  for (const [re, name] of routes) {
    const m = re.exec(pathname);
    if (m) return name.replace("$1", m[1] ?? "");
  }
  return "other pages";
}

/** Percent-encodes what no HTTP client puts on the wire raw (controls, space, non-ASCII); keeps the rest, broken escapes included. */
export function wirePath(p: string): string {
  let out = "";
  for (const ch of p) {
    const code = ch.codePointAt(0)!;
    out +=
      code <= 0x20 || code >= 0x7f
        ? [...Buffer.from(ch, "utf8")].map((b) => `%${b.toString(16).toUpperCase().padStart(2, "0")}`).join("")
        : ch;
  }
  return out;
}

/** The fuzz cases name a business the embedded store does not hold: point them at a seed one. */
export const reseat = (s: string) => s.replaceAll(FUZZ_BUSINESS_SLUG, BIZ.slug).replaceAll(FUZZ_BUSINESS, BIZ.id);

// Page requests: /directory with its filters, business pages, other pages.
const PROTO = ["__proto__", "constructor", "prototype", "toString", "hasOwnProperty", "valueOf"];
const nasty = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.string({ unit: "binary", maxLength: 30 }),
  fc.constantFrom(
    "<script>alert(1)</script>",
    '"><svg onload=alert(1)>',
    "../../etc/passwd",
    "%",
    "%zz",
    "%E0%A4%A",
    "%c0%ae",
    "%00",
    "\u0000",
    "\uD800",
    "-1",
    "0",
    "1e309",
    "NaN",
    "99999999999999999999",
    "houston",
    "Austin",
    "78701",
    "tree-removal",
    "true",
    "rating",
    "distance",
  ),
  fc.integer({ min: 1_000, max: 9_000 }).map((n) => "x".repeat(n)),
);
const DIRECTORY_KEYS = [...DIRECTORY_PARAMS, ...PROTO];
const pageMethod = fc.oneof(
  { weight: 12, arbitrary: fc.constant("GET") },
  { weight: 2, arbitrary: fc.constant("HEAD") },
  { weight: 2, arbitrary: fc.constantFrom("POST", "PUT", "DELETE", "PATCH", "OPTIONS", "TRACE", "PROPFIND") },
);
/** A query of known and prototype keys, some repeated, encoded or sent raw. */
const pageQuery = fc
  .tuple(fc.array(fc.tuple(fc.constantFrom(...DIRECTORY_KEYS), nasty), { maxLength: 6 }), fc.boolean())
  .map(([pairs, raw]) =>
    pairs.length === 0
      ? ""
      : "?" +
        (raw
          ? pairs.map(([k, v]) => `${k}=${v}`).join("&")
          : new URLSearchParams(pairs as [string, string][]).toString()),
  );
const pageSegment = fc
  .tuple(
    fc.oneof(
      fc.constantFrom(BIZ.slug, "%zz", "%c0%ae", "%E0%A4%A", "..", "%2e%2e", "__proto__", "constructor", "a/../b"),
      fc.string({ maxLength: 30 }),
    ),
    fc.boolean(),
  )
  .map(([s, raw]) => (raw ? s : encodeURIComponent(s)));
export const pageCase: fc.Arbitrary<Case> = fc
  .tuple(
    pageMethod,
    fc.oneof(
      { weight: 5, arbitrary: fc.constant("/directory") },
      { weight: 3, arbitrary: pageSegment.map((s) => `/directory/${s}`) },
      {
        weight: 2,
        arbitrary: fc
          .tuple(fc.constantFrom("", "blog/", "services/", "business-growth/"), pageSegment)
          .map(([dir, s]) => `/${dir}${s}`),
      },
      { weight: 1, arbitrary: fc.constantFrom("/", "/about", "/sitemap-index.xml", "/sitemap-directory-0.xml") },
    ),
    pageQuery,
  )
  .map(([method, p, q]) => ({
    label: endpointOf(p),
    method,
    path: p + q,
    how: "http" as const,
    headers: (method === "POST" || method === "PUT"
      ? { "content-type": "application/x-www-form-urlencoded" }
      : {}) as Record<string, string>,
    body: method === "POST" || method === "PUT" ? "q=oak" : undefined,
  }));

/** Known problem cases, sent as they are. */
export function knownCases(): Case[] {
  const get = (p: string, method = "GET") => ({
    label: endpointOf(p),
    method,
    path: p,
    how: "http" as const,
    headers: {},
  });
  const cases = [
    ...[
      "/directory/%zz",
      "/directory/%",
      "/directory/%E0%A4%A",
      "/%c0%ae",
      "/%c0%ae%c0%ae/%c0%ae%c0%ae/etc/passwd",
      "/%zz",
      "/%00",
      "/blog/%zz",
      "/services/%E0%A4%A",
      "/sitemap-directory-%zz.xml",
      "/api/businesses/%E0%A4%A",
      "/api/businesses/%zz/reviews",
      "/api/businesses/slug/%E0%A4%A",
      "/api/businesses/slug/%zz",
      "/api/businesses/slug/%c0%ae%c0%ae",
      "/api/%zz",
      "/directory?city=%zz",
      "/directory?q=%E0%A4%A",
      "/api/businesses?search=%zz",
      "/api/businesses?city=%E0%A4%A",
    ].map((p) => get(p)),
  ];
  const targets = [
    "/",
    "/directory",
    `/directory/${BIZ.slug}`,
    "/api/businesses",
    "/api/businesses/featured",
    "/api/health",
    `/api/businesses/slug/${BIZ.slug}`,
    `/api/businesses/${BIZ.id}/reviews`,
    "/api/quote",
  ];
  for (const t of targets) {
    for (const key of ["constructor", "__proto__", "toString", "hasOwnProperty", "valueOf", "__proto__[polluted]"])
      cases.push(get(`${t}?${key}=1`));
    cases.push(get(`${t}?__proto__=x&constructor=y&toString=z&hasOwnProperty=w`));
    for (const method of ["TRACE", "PROPFIND", "MKCOL", "COPY", "MOVE", "LOCK", "SEARCH", "PURGE", "OPTIONS", "PATCH"])
      cases.push(get(t, method));
  }
  for (const p of [
    "/api/businesses?search=a&search=b",
    "/api/businesses?limit=1&limit=2",
    "/api/businesses?city=austin&city=houston",
    "/api/businesses?near=78701&near=x",
    "/api/businesses/featured?limit=1&limit=x",
    `/api/businesses/${BIZ.id}/reviews?offset=1&offset=-1`,
    "/directory?city=a&city=b",
    "/directory?city=houston&city=austin",
    "/directory?page=1&page=2",
    "/directory?q=a&q=b",
    "/directory?near=78701&near=77002&radius=10&radius=x",
    `/directory/${BIZ.slug}?x=1&x=2`,
  ])
    cases.push(get(p));
  return cases;
}

/** Raw requests no HTTP client would send; `PORT` stands for the server's port in Host. */
export const RAW: [string, string][] = [
  ["TRACK", "TRACK / HTTP/1.1\r\nHost: HOST\r\n\r\n"],
  ["TRACK", "TRACK /api/businesses HTTP/1.1\r\nHost: HOST\r\n\r\n"],
  ["CONNECT host:port", "CONNECT 127.0.0.1:22 HTTP/1.1\r\nHost: 127.0.0.1:22\r\n\r\n"],
  ["CONNECT path", "CONNECT /api/businesses HTTP/1.1\r\nHost: HOST\r\n\r\n"],
  ["CONNEC", "CONNEC / HTTP/1.1\r\nHost: HOST\r\n\r\n"],
  ["G\\0T", "G\0T / HTTP/1.1\r\nHost: HOST\r\n\r\n"],
  ["lowercase get", "get / HTTP/1.1\r\nHost: HOST\r\n\r\n"],
  ["BREW (unknown method)", "BREW /api/quote HTTP/1.1\r\nHost: HOST\r\n\r\n"],
  ["HTTP/2.0 line", "GET / HTTP/2.0\r\nHost: HOST\r\n\r\n"],
  ["HTTP/0.9", "GET /\r\n\r\n"],
  ["HTTP/1.0 no Host", "GET /directory HTTP/1.0\r\n\r\n"],
  ["foreign Host", "GET /api/health HTTP/1.1\r\nHost: evil.example\r\n\r\n"],
  ["two Hosts", "GET /api/health HTTP/1.1\r\nHost: HOST\r\nHost: evil.example\r\n\r\n"],
  ["absolute-form target", "GET http://evil.example/api/health HTTP/1.1\r\nHost: HOST\r\n\r\n"],
  ["absolute-form own host", "GET http://HOST/directory HTTP/1.1\r\nHost: HOST\r\n\r\n"],
  ["asterisk target", "OPTIONS * HTTP/1.1\r\nHost: HOST\r\n\r\n"],
  ["raw UTF-8 path", "GET /directory/caf\u00c3\u00a9 HTTP/1.1\r\nHost: HOST\r\n\r\n"],
  ["raw UTF-8 query", "GET /directory?q=\u00c3\u00a9t\u00c3\u00a9 HTTP/1.1\r\nHost: HOST\r\n\r\n"],
  ["space in target", "GET /directory?q=a b HTTP/1.1\r\nHost: HOST\r\n\r\n"],
  ["control char in target", "GET /api/businesses?search=\u0001 HTTP/1.1\r\nHost: HOST\r\n\r\n"],
  ["header without colon", "GET / HTTP/1.1\r\nHost: HOST\r\nNoColonHere\r\n\r\n"],
  ["obs-fold header", "GET / HTTP/1.1\r\nHost: HOST\r\nX-A: a\r\n b\r\n\r\n"],
  ["32 KB header", `GET / HTTP/1.1\r\nHost: HOST\r\nX-Big: ${"a".repeat(32_768)}\r\n\r\n`],
  ["bare LF lines", "GET /api/health HTTP/1.1\nHost: HOST\n\n"],
  [
    "CL + TE (smuggling)",
    "POST /api/quote HTTP/1.1\r\nHost: HOST\r\nContent-Type: application/json\r\nContent-Length: 4\r\nTransfer-Encoding: chunked\r\n\r\n2\r\n{}\r\n0\r\n\r\n",
  ],
  [
    "bad chunk size",
    "POST /api/quote HTTP/1.1\r\nHost: HOST\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n",
  ],
  ["negative Content-Length", "POST /api/quote HTTP/1.1\r\nHost: HOST\r\nContent-Length: -1\r\n\r\n{}"],
  ["two Content-Lengths", "POST /api/quote HTTP/1.1\r\nHost: HOST\r\nContent-Length: 2\r\nContent-Length: 3\r\n\r\n{}"],
  ["huge Content-Length", "POST /api/quote HTTP/1.1\r\nHost: HOST\r\nContent-Length: 99999999999\r\n\r\n{}"],
  ["Content-Length on GET", "GET /api/businesses HTTP/1.1\r\nHost: HOST\r\nContent-Length: 2\r\n\r\n{}"],
  [
    "Expect: 100-continue",
    "POST /api/quote HTTP/1.1\r\nHost: HOST\r\nExpect: 100-continue\r\nContent-Length: 2\r\n\r\n{}",
  ],
  ["NUL in header value", "GET / HTTP/1.1\r\nHost: HOST\r\nX-A: a\0b\r\n\r\n"],
];
