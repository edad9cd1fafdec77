/**
 * What every handler of the operator's API behind /admin shares. Each runs the same gate
 * first (then the steps every endpoint takes, http.ts):
 *
 *   ADMIN_TOKEN unset (503) -> store (503) -> failed-sign-in lockout (429) ->
 *   per-IP limit (429) -> bearer token (401) -> method (405) -> id (404) ->
 *   content type (415) -> query/body (400) -> work
 *
 * Answers are JSON with `cache-control: no-store` (CSV for the export), never cached by the
 * CDN and never indexed. Logs name ids and types only: no lead or review content.
 */
import { z } from "../../../src/lib/zod.ts";
import { ADMIN_RATE_LIMITED } from "../../../src/lib/admin.ts";
import { fieldErrors } from "../../../src/lib/schemas/forms.ts";
import type { DirectoryDeps } from "../directory.ts";
import {
  HttpError,
  KB,
  STORE_UNAVAILABLE,
  clientIp,
  storeCall,
  type Endpoint,
  type EndpointSpec,
  type FunctionContext,
  type Method,
} from "../http.ts";
import type { NotifyDeps } from "../notify/index.ts";
import { parseQuery } from "../query.ts";
import { enforceRateLimit } from "../ratelimit.ts";
import { ADMIN_HEADERS, authorize } from "./auth.ts";

export const ADMIN_UNAVAILABLE = STORE_UNAVAILABLE;
export const ADMIN_QUERY_ERROR = "Please check the request.";

/**
 * Seams for tests and local scripts; production uses the defaults. The directory's, because
 * moderating a review purges the same CDN copies as posting one, plus the notifier's.
 */
export interface AdminDeps extends DirectoryDeps {
  /** The notifier's seams, for the outbox's "retry now". */
  notify?: NotifyDeps;
}

export type AdminContext = FunctionContext;
export type AdminHandler = Endpoint;

/** One admin endpoint: the token gate, admin headers on every answer, JSON bodies of up to 8 KB. */
export function adminSpec(label: string, methods: readonly Method[]) {
  return {
    log: `[admin] ${label}`,
    methods,
    body: { json: 8 * KB },
    headers: ADMIN_HEADERS,
    gate: ({ req, store, context, env, now }) =>
      storeCall(async () => {
        const client = clientIp(req, context);
        const auth = await authorize(req, store, client, env);
        if (!auth.ok) return auth.response;
        // Counted after the lockout check, so a locked-out guesser does not also use up the limit.
        await enforceRateLimit(store, "admin", client, env.ADMIN_RATE_LIMIT_PER_MINUTE, now, ADMIN_RATE_LIMITED);
        return undefined;
      }),
  } satisfies EndpointSpec<never, "json", false>;
}

/** The query, or the 400 with its fields. */
export function readQuery<S extends z.ZodObject>(schema: S, req: Request): z.output<S> {
  const query = parseQuery(schema, req);
  if (!query.ok) throw new HttpError(400, ADMIN_QUERY_ERROR, { extra: { fields: query.fields } });
  return query.data;
}

/** A JSON body read by `schema`, or the 400 with its fields. */
export function readPatch<S extends z.ZodType>(schema: S, body: { value: unknown } | null): z.output<S> {
  const parsed = schema.safeParse(body?.value);
  if (!parsed.success) throw new HttpError(400, ADMIN_QUERY_ERROR, { extra: { fields: fieldErrors(parsed.error) } });
  return parsed.data;
}
