/**
 * What a request says about where it comes from: the client's address, whether a browser
 * sent it from another site, same-site page paths, and the `:name` segments of its route.
 */

/** What Netlify passes a function as its second argument, as far as our handlers care. */
export interface FunctionContext {
  ip?: string;
  params?: Record<string, string | undefined>;
  /** Keeps the function alive for work after the response (notifications, cache purges). */
  waitUntil?(promise: Promise<unknown>): void;
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

/** The `:name` segments of a route: "/api/admin/leads/:id" -> "id". */
export type RouteParams<R extends string> = R extends `${string}:${infer P}/${infer Rest}`
  ? P | RouteParams<`/${Rest}`>
  : R extends `${string}:${infer P}`
    ? P
    : never;

const PARAM = /:([A-Za-z_]\w*)/g;

/**
 * Reads the `:name` segments of `route` ("/api/businesses/:id/reviews"): Netlify's
 * `context.params` where it has them, else the route matched against the URL (tests and
 * scripts call handlers without params). Values are percent-decoded; null when the path
 * does not fit or a value is broken encoding, since then it names nothing.
 */
export function routeParams<R extends string>(
  route: R,
): (req: Request, context?: FunctionContext | null) => Record<RouteParams<R>, string> | null {
  const names = [...route.matchAll(PARAM)].map((m) => m[1]!);
  const literal = route.split(PARAM).filter((_, i) => i % 2 === 0);
  const pattern = new RegExp(
    `^${literal.map((part) => part.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&")).join("([^/]+)")}/?$`,
  );
  return (req, context) => {
    const match = pattern.exec(new URL(req.url).pathname);
    const out: Record<string, string> = {};
    for (const [i, name] of names.entries()) {
      const raw = context?.params?.[name] ?? match?.[i + 1];
      if (raw === undefined) return null;
      try {
        out[name] = decodeURIComponent(raw);
      } catch {
        return null;
      }
    }
    return out as Record<RouteParams<R>, string>;
  };
}

/** Runs after the response on Netlify; awaited elsewhere (tests, local scripts). */
export async function afterResponse(
  context: FunctionContext | null | undefined,
  work: Promise<unknown>,
): Promise<void> {
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
export function sameSitePath(
  value: string | null | undefined,
  requestUrl: string,
  siteOrigin?: string,
): string | undefined {
  const raw = (value ?? "").trim();
  // eslint-disable-next-line no-control-regex -- refusing control characters is the point
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
