/**
 * Request/response plumbing shared by the API functions: body reading with a hard size
 * cap, content types, client IP, path parameters, same-site paths and the standard headers
 * every answer carries. Nothing here knows about leads.
 */

/** Headers on every API answer: personal data must never sit in a shared cache, and
 * browsers must not second-guess the declared type of an echoed body. */
export const BASE_HEADERS: Readonly<Record<string, string>> = {
  "cache-control": "no-store",
  "x-content-type-options": "nosniff",
};

/**
 * Server-rendered pages need only their inline stylesheet and same-origin form posts;
 * anything else (a script that slipped through escaping) is refused by the browser.
 */
export const HTML_CSP =
  "default-src 'none'; style-src 'unsafe-inline'; img-src 'self' data:; form-action 'self'; base-uri 'none'; frame-ancestors 'none'";

/**
 * The security headers netlify.toml gives every static page, for the pages functions render:
 * Netlify applies `[[headers]]` to files only, so a function's HTML would go without them.
 * Their CSP is HTML_CSP (stricter than the static pages' frame-ancestors policy). A test
 * keeps these equal to netlify.toml's.
 */
export const PAGE_SECURITY_HEADERS: Readonly<Record<string, string>> = {
  "strict-transport-security": "max-age=31536000; includeSubDomains",
  "x-content-type-options": "nosniff",
  "referrer-policy": "strict-origin-when-cross-origin",
  "permissions-policy": "camera=(), microphone=(), geolocation=(self), payment=()",
  "x-frame-options": "DENY",
};

/** An error's class for a log line; its message can quote the visitor's input. */
export const errorName = (error: unknown): string => (error instanceof Error ? error.name : typeof error);

/**
 * A bug's log line: the error class and where it was thrown, not its message, which can
 * quote the visitor's input (validation libraries and JSON errors do).
 */
export function bugReport(error: unknown): string {
  if (!(error instanceof Error)) return typeof error;
  const frames = (error.stack ?? "").split("\n").filter((l) => /^\s+at /.test(l)).slice(0, 5).map((l) => l.trim());
  return [error.name, ...frames].join("\n  ");
}

/** A failure with a status and a public message; the pipeline turns it into a response. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = "HttpError";
  }
}

export function jsonResponse(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { "content-type": "application/json; charset=utf-8", ...BASE_HEADERS, ...headers },
  });
}

export function htmlResponse(html: string, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(html, {
    status,
    headers: {
      "content-type": "text/html; charset=utf-8",
      "content-security-policy": HTML_CSP,
      ...PAGE_SECURITY_HEADERS,
      ...BASE_HEADERS,
      ...headers,
    },
  });
}

/** JSON error body `{ error, ...extra }`: every 4xx/5xx is readable by a JSON client. */
export function jsonError(status: number, error: string, extra: Record<string, unknown> = {}, headers: Record<string, string> = {}): Response {
  return jsonResponse({ error, ...extra }, status, headers);
}

/** "multipart/form-data; boundary=..." -> "multipart/form-data" ("" when absent). */
export function mediaType(req: Request): string {
  return (req.headers.get("content-type") ?? "").split(";", 1)[0]!.trim().toLowerCase();
}

export type BodyKind = "json" | "urlencoded" | "multipart";

export function bodyKind(req: Request): BodyKind | null {
  const type = mediaType(req);
  if (type === "application/json" || /^application\/[a-z0-9.+-]+\+json$/.test(type)) return "json";
  if (type === "application/x-www-form-urlencoded") return "urlencoded";
  if (type === "multipart/form-data") return "multipart";
  return null;
}

/** True when the client asked for JSON explicitly (e.g. a script posting FormData). */
export function acceptsJson(req: Request): boolean {
  return /\bapplication\/(?:[a-z0-9.+-]+\+)?json\b/i.test(req.headers.get("accept") ?? "");
}

/** A browser's form post (no JavaScript) is answered with a page; a script asking for JSON gets JSON. */
export function wantsPage(req: Request): boolean {
  const kind = bodyKind(req);
  return (kind === "urlencoded" || kind === "multipart") && !acceptsJson(req);
}

export const KB = 1024;
/** Every text-only form fits in a few KB; the cap only stops abuse. */
export const TEXT_BODY_LIMIT = 16 * KB;
export const MB = 1024 * KB;
/**
 * The largest body any endpoint accepts (find-pros: a 5 MB photo plus fields and multipart
 * overhead). `npm start`'s server refuses a longer body before reading it.
 */
export const MAX_BODY_LIMIT = 6 * MB;

/** Human form of a byte limit for error messages: "16 KB", "6 MB". */
export function formatBytes(bytes: number): string {
  return bytes >= MB ? `${Math.round(bytes / MB)} MB` : `${Math.round(bytes / KB)} KB`;
}

/**
 * Reads the whole body, refusing (413) as soon as it exceeds `limit`: a declared
 * Content-Length is checked first, and the stream is counted too because chunked
 * uploads declare nothing.
 */
export async function readBody(req: Request, limit: number): Promise<Uint8Array<ArrayBuffer>> {
  const tooLarge = () => new HttpError(413, `The request is too large (limit ${formatBytes(limit)}).`);
  const declared = Number(req.headers.get("content-length") ?? "");
  if (Number.isFinite(declared) && declared > limit) throw tooLarge();
  if (!req.body) return new Uint8Array(0);
  const reader = req.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > limit) {
      await reader.cancel().catch(() => {});
      throw tooLarge();
    }
    chunks.push(value);
  }
  const out = new Uint8Array(total);
  let at = 0;
  for (const chunk of chunks) {
    out.set(chunk, at);
    at += chunk.byteLength;
  }
  return out;
}

const utf8 = new TextDecoder("utf-8", { fatal: true });

/** Strict UTF-8 decode; bytes that are not text are a client error, not a crash. */
export function decodeText(bytes: Uint8Array): string {
  try {
    return utf8.decode(bytes);
  } catch {
    throw new HttpError(400, "The request body is not valid UTF-8 text.");
  }
}

/**
 * The body as a plain JSON object. JSON.parse stores a `__proto__` key as an own property
 * (it never swaps a prototype) and the schemas copy only their declared keys, so such keys
 * go nowhere. No reviver: it recurses per level and deep nesting would overflow the stack.
 */
export function parseJsonObject(text: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new HttpError(400, "The request body is not valid JSON.");
  }
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    throw new HttpError(400, "The request body must be a JSON object.");
  }
  return value as Record<string, unknown>;
}

/** Parses a buffered multipart body with the platform's own parser. */
export async function parseMultipart(bytes: Uint8Array<ArrayBuffer>, contentType: string): Promise<FormData> {
  try {
    return await new Response(bytes, { headers: { "content-type": contentType } }).formData();
  } catch {
    throw new HttpError(400, "The form data could not be read.");
  }
}

/**
 * The visitor's address, from the connection only: Netlify's context, or the header
 * Netlify's edge (and `npm start`'s server) overwrites with the socket's address. Never
 * X-Forwarded-For, which the client writes. Null when neither is known: such a request
 * gets no per-client identity at all rather than one bucket shared with every other.
 */
export function clientIp(req: Request, context?: { ip?: string } | null): string | null {
  const fromContext = context?.ip?.trim();
  if (fromContext) return fromContext;
  return req.headers.get("x-nf-client-connection-ip")?.trim() || null;
}

/** The 403 text for a form or JSON post another site made a browser send. */
export const CROSS_SITE_ERROR =
  "This form was sent from another website, so we did not accept it. Please fill it in on our own site.";

/**
 * True when a browser says this request comes from another site. The Origin decides when
 * present: anything but the request's own origin (as this server received it) or
 * `siteOrigin` is foreign, and so is an opaque "null". Without one, `Sec-Fetch-Site:
 * cross-site` (or `same-site`: a sibling subdomain is another site too) decides. A request
 * with neither header is not a browser's cross-site post (curl, server-to-server, tests).
 */
export function isCrossSite(req: Request, siteOrigin?: string): boolean {
  const origin = req.headers.get("origin")?.trim();
  if (origin) {
    if (origin === "null") return true;
    const own = new Set<string>();
    for (const candidate of [req.url, siteOrigin]) {
      try {
        if (candidate) own.add(new URL(candidate).origin);
      } catch {
        // An unparseable configured origin just doesn't widen the allow-list.
      }
    }
    try {
      return !own.has(new URL(origin).origin);
    } catch {
      return true;
    }
  }
  const fetchSite = req.headers.get("sec-fetch-site")?.trim().toLowerCase();
  return fetchSite === "cross-site" || fetchSite === "same-site";
}

/** What Netlify passes a function as its second argument, as far as our handlers care. */
export interface FunctionContext {
  ip?: string;
  params?: Record<string, string | undefined>;
  waitUntil?(promise: Promise<unknown>): void;
}

/**
 * The `:name` path segment: Netlify's params first, then the first group of `pattern` on the
 * URL (tests and local servers pass no params). Broken percent-encoding names nothing.
 */
export function pathParam(req: Request, context: FunctionContext | null | undefined, name: string, pattern: RegExp): string | undefined {
  const raw = context?.params?.[name] ?? pattern.exec(new URL(req.url).pathname)?.[1];
  if (raw === undefined) return undefined;
  try {
    return decodeURIComponent(raw);
  } catch {
    return undefined;
  }
}

/** Runs after the response on Netlify; awaited elsewhere (tests, local scripts). */
export async function afterResponse(context: FunctionContext | null | undefined, work: Promise<unknown>): Promise<void> {
  if (context?.waitUntil) context.waitUntil(work);
  else await work;
}

const SAFE_PATH = /^\/(?!\/)[A-Za-z0-9\-._~%!$&'()*+,;=:@/]*$/;
const MAX_PATH = 300;

/**
 * A same-site path from a form's `_source` or the Referer, or undefined. Absolute URLs
 * count only when they point at this request's origin (or `siteOrigin`); query and hash
 * are dropped because they can carry personal data.
 */
export function sameSitePath(value: string | null | undefined, requestUrl: string, siteOrigin?: string): string | undefined {
  const raw = (value ?? "").trim();
  if (!raw || raw.length > 2000 || raw.includes("\\") || /[\u0000-\u001f\u007f]/.test(raw)) return undefined;
  // Relative references would resolve against /api/...; only root paths and full URLs mean a page.
  if (!raw.startsWith("/") && !/^https?:\/\//i.test(raw)) return undefined;
  let url: URL;
  let base: URL;
  try {
    base = new URL(requestUrl);
    url = new URL(raw, base);
  } catch {
    return undefined;
  }
  const origins = new Set([base.origin]);
  if (siteOrigin) {
    try {
      origins.add(new URL(siteOrigin).origin);
    } catch {
      // An unparseable configured origin just doesn't widen the allow-list.
    }
  }
  if (!origins.has(url.origin)) return undefined;
  const path = url.pathname;
  return path.length <= MAX_PATH && SAFE_PATH.test(path) ? path : undefined;
}
