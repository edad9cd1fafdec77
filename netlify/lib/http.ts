/**
 * Request handling for every API function, written once: `endpoint(spec, deps, work)` runs
 *
 *   [gate (admin): store (503), then the gate's own refusal] -> method (405 + Allow) ->
 *   route params (404) -> content type (415) -> cross-site (403) -> store (503) ->
 *   per-IP limit (429) -> body size and parsing (413/400) -> work
 *
 * and answers whatever the work throws: an HttpError with its status, a failed store call
 * (storeCall) with 503 and the endpoint's "unavailable" text, anything else (a bug) with 500
 * and a log line that names the error's class and frames, never its message. Content type,
 * cross-site and the limit concern writes only (a request with a body). Refusals before the
 * content type is known are JSON; after it, an endpoint that renders pages answers a
 * browser's form post with one. The request/response parts it uses live in http-*.ts and
 * are exported from here too.
 */
import { env as currentEnv, type Env } from "../../src/lib/env.ts";
import { BODY_MEDIA_TYPES, bodyKind, parseBody, wantsPage, type BodyKind, type ParsedBody } from "./http-body.ts";
import {
  CROSS_SITE_ERROR,
  clientIp,
  isCrossSite,
  routeParams,
  type FunctionContext,
  type RouteParams,
} from "./http-request.ts";
import { HttpError, bugReport, errorName, jsonError } from "./http-responses.ts";
import { redirectWithFlash } from "./form-flash.ts";
import { enforceRateLimit } from "./ratelimit.ts";
import { StoreError } from "./store/errors.ts";
import { getStore, type Store } from "./store/index.ts";

export * from "./http-body.ts";
export * from "./http-request.ts";
export * from "./http-responses.ts";

export type { Env };
export type Method = "GET" | "HEAD" | "POST" | "PATCH";
export type Handler = (req: Request, context?: FunctionContext | null) => Promise<Response>;

/** Seams for tests and local scripts; production reads the shared store, the environment (env.ts) and the clock. */
export interface EndpointDeps {
  store?: () => Store;
  /** The configuration (tests: parseEnv({ ... })); default env(), read per request. */
  env?: Env;
  now?: () => number;
}

export const STORE_UNAVAILABLE = "The store is unavailable right now. Please try again in a moment.";
export const BUG_ERROR = "Something went wrong on our side. Please try again.";

export interface EndpointSpec<R extends string, K extends BodyKind, O extends boolean> {
  /** Log prefix: "[lead] quote", "[directory] featured". */
  log: string;
  methods: readonly Method[];
  /** The route's `:params` (the same path as the function's config.path), checked before anything else. */
  route?: { path: R; valid(value: string): boolean; notFound: string };
  /** The body kinds a write may send, each with its size cap; others get 415. */
  body?: Readonly<Record<K, number>>;
  /** The 413 text for a body of a kind over its cap (a photo form's multipart: the photo is too large); default the limit in words. */
  tooLarge?: Readonly<Partial<Record<K, string>>>;
  /** The 415 text when the accepted kinds are not all to be advertised. */
  accepts?: string;
  /** Refuse writes a browser sent from another site (403). */
  sameSiteOnly?: boolean;
  /** Work without a store (null) instead of answering 503. */
  optionalStore?: O;
  /** Runs first, with the store; a response it returns is the answer (the admin's token check). */
  gate?(call: Call<never, Store, never>): Promise<Response | undefined>;
  /** Writes per minute per client address, counted under `name`. */
  rateLimit?: { name: string; perMinute(env: Env): number };
  /** The 503 text (default STORE_UNAVAILABLE). */
  unavailable?: string;
  /** The 500 text (default BUG_ERROR). */
  bug?: string;
  /** Headers set on every answer. */
  headers?: Readonly<Record<string, string>>;
  /**
   * The page a browser's form post goes back to when it is refused (post/redirect/get): the
   * answer is 303 to it with a form flash holding the status and the message (form-flash.ts).
   * Takes precedence over `page`; GETs and JSON bodies still get JSON errors.
   */
  formPage?(req: Request): string;
  /**
   * Answer every error with `page`, GETs too (an endpoint that is itself a page, not an API),
   * and form posts that ask for JSON; only a JSON body gets JSON errors.
   */
  pagesOnly?: boolean;
}

export interface Call<P extends string, S, K extends BodyKind> {
  req: Request;
  context: FunctionContext | null | undefined;
  store: S;
  env: Env;
  now: () => number;
  params: Readonly<Record<P, string>>;
  /** The parsed body of a write; null for GET and HEAD. */
  body: Extract<ParsedBody, { kind: K }> | null;
  /** Answer with a page: a browser's form post to an endpoint that renders pages. */
  html: boolean;
}

/** A handler, and the route it reads params from (a test keeps it equal to config.path). */
export type Endpoint = Handler & { route?: string };

export function endpoint<R extends string = never, K extends BodyKind = never, O extends boolean = false>(
  spec: EndpointSpec<R, K, O>,
  deps: EndpointDeps,
  work: (call: Call<RouteParams<R>, O extends true ? Store | null : Store, K>) => Promise<Response>,
): Endpoint {
  const storeOf = deps.store ?? getStore;
  const now = deps.now ?? Date.now;
  const unavailable = spec.unavailable ?? STORE_UNAVAILABLE;
  const paramsOf = spec.route ? routeParams(spec.route.path) : null;
  const use = spec.methods.filter((m) => m !== "HEAD").join(", ");
  const limits: Partial<Record<BodyKind, number>> = spec.body ?? {};
  const tooLarge: Partial<Record<BodyKind, string>> = spec.tooLarge ?? {};
  const kinds = Object.keys(limits) as BodyKind[];
  const accepts = spec.accepts ?? `Unsupported content type. Send ${listed(kinds.map((k) => BODY_MEDIA_TYPES[k]))}.`;

  function openStore(): Store | null {
    try {
      return storeOf();
    } catch (error) {
      console.error(`${spec.log}: store unavailable (${errorName(error)})`);
      return null;
    }
  }

  const handler: Handler = async (req, context) => {
    const env = deps.env ?? currentEnv();
    let html = spec.pagesOnly === true;
    let store: Store | null = null;
    const writing = req.method !== "GET" && req.method !== "HEAD";
    const fail = async (
      status: number,
      message: string,
      extra: Record<string, unknown> = {},
      headers: Record<string, string> = {},
    ): Promise<Response> => {
      if (html && writing && spec.formPage) {
        // Refusals before the store was needed (405, 415, 403) still keep their flash there.
        store ??= openStore();
        return redirectWithFlash(store, { path: spec.formPage(req), status, problem: message }, headers);
      }
      return jsonError(status, message, extra, headers);
    };

    async function answer(): Promise<Response> {
      if (spec.gate) {
        store = openStore();
        if (!store) return fail(503, unavailable);
        const refused = await spec.gate({ req, context, store, env, now, params: {}, body: null, html });
        if (refused) return refused;
      }
      if (!spec.methods.includes(req.method as Method))
        return fail(405, `Method not allowed. Use ${use}.`, {}, { allow: spec.methods.join(", ") });
      const params = paramsOf?.(req, context) ?? null;
      if (spec.route && (!params || !Object.values<string>(params).every(spec.route.valid)))
        return fail(404, spec.route.notFound);
      let kind: BodyKind | null = null;
      if (writing && spec.body) {
        kind = bodyKind(req);
        if (!kind || limits[kind] === undefined) return fail(415, accepts);
        // A form post to a page (not an API) is answered with pages even when it asks for JSON.
        html = wantsPage(req) || (spec.pagesOnly === true && kind !== "json");
      }
      // Another site's page must not be able to make its visitors' browsers post here.
      if (writing && spec.sameSiteOnly && isCrossSite(req, env.siteUrl)) return fail(403, CROSS_SITE_ERROR);
      store ??= openStore();
      if (!store && !spec.optionalStore) return fail(503, unavailable);
      if (writing && store && spec.rateLimit)
        await enforceRateLimit(store, spec.rateLimit.name, clientIp(req, context), spec.rateLimit.perMinute(env), now);
      const body = kind ? await parseBody(req, kind, limits[kind]!, tooLarge[kind]) : null;
      const call = { req, context, store, env, now, params: params ?? {}, body, html };
      return work(call as Call<RouteParams<R>, O extends true ? Store | null : Store, K>);
    }

    let response: Response;
    try {
      response = await answer();
    } catch (error) {
      if (error instanceof HttpError) response = await fail(error.status, error.message, error.extra, error.headers);
      else if (error instanceof StoreFailure) {
        console.error(`${spec.log}: ${error.step} failed (${errorName(error.cause)})`);
        response = await fail(503, error.message || unavailable);
      } else {
        // Only a bug gets here: the visitor's input is answered with a 4xx above.
        console.error(`${spec.log}: unexpected failure: ${bugReport(error)}`);
        response = await fail(500, spec.bug ?? BUG_ERROR);
      }
    }
    for (const [name, value] of Object.entries(spec.headers ?? {})) response.headers.set(name, value);
    return response;
  };
  return spec.route ? Object.assign(handler, { route: spec.route.path }) : handler;
}

/** "a", "a or b", "a, b or c". */
function listed(items: readonly string[]): string {
  return items.length <= 1 ? (items[0] ?? "") : `${items.slice(0, -1).join(", ")} or ${items.at(-1)}`;
}

/** A store (or photo store) call that failed: the endpoint answers 503 with `message` or its own text. */
class StoreFailure extends Error {
  constructor(
    readonly step: string,
    message: string,
    readonly cause: unknown,
  ) {
    super(message);
    this.name = "StoreFailure";
  }
}

/**
 * The answer an error thrown in a handler gets (an HttpError's status and message, 503 for a
 * failed store call), or null for a bug. For a handler that answers some refusals itself,
 * e.g. back to the form's page with the values typed.
 */
export function refusalOf(
  error: unknown,
  unavailable = STORE_UNAVAILABLE,
): { status: number; message: string; headers: Record<string, string>; log?: string } | null {
  if (error instanceof HttpError) return { status: error.status, message: error.message, headers: error.headers };
  if (error instanceof StoreFailure)
    return {
      status: 503,
      message: error.message || unavailable,
      headers: {},
      log: `${error.step} failed (${errorName(error.cause)})`,
    };
  return null;
}

/**
 * Runs a call to the store (or the photo store). Its failure is an outage, answered 503 and
 * logged as "<step> failed"; the store's own typed errors (not found, conflict) and
 * HttpErrors pass through for the handler or the endpoint to answer.
 */
export async function storeCall<T>(
  run: () => Promise<T>,
  options: { step?: string; message?: string } = {},
): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof StoreError || error instanceof HttpError || error instanceof StoreFailure) throw error;
    throw new StoreFailure(options.step ?? "store", options.message ?? "", error);
  }
}
