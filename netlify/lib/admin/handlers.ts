/**
 * The operator's API behind /admin. Every handler runs the same gate first:
 *
 *   ADMIN_TOKEN unset (503) -> store (503) -> failed-sign-in lockout (429) ->
 *   per-IP limit (429) -> bearer token (401) -> method (405) -> query/body (400) -> work
 *
 * Answers are JSON with `cache-control: no-store` (CSV for the export), never cached by the
 * CDN and never indexed. Logs name ids and types only: no lead or review content.
 */
import { z } from "../../../src/lib/zod.ts";
import {
  AdminLeadsQuery,
  ADMIN_RATE_LIMITED,
  AdminReviewsQuery,
  LeadPatch,
  ReviewPatch,
  isLeadId,
  isReviewId,
  type AdminReview,
} from "../../../src/lib/admin.ts";
import { fieldErrors } from "../../../src/lib/schemas/forms.ts";
import { LEAD_TYPES, type LeadType } from "../../../src/lib/schemas/lead.ts";
import { DIRECTORY_TAG, businessTag, netlifyPurge, purgeQuietly, type DirectoryDeps } from "../directory.ts";
import { BASE_HEADERS, HttpError, afterResponse, bodyKind, bugReport, clientIp, decodeText, errorName, jsonError, jsonResponse, parseJsonObject, pathParam, readBody, KB, type FunctionContext } from "../http.ts";
import { channelsOf, drainOutbox, notifyConfig, type NotifyDeps } from "../notify/index.ts";
import { parseQuery } from "../query.ts";
import { checkRateLimit } from "../ratelimit.ts";
import { keyspace } from "../store/keys.ts";
import { getStore, type Store } from "../store/index.ts";
import { ADMIN_HEADERS, authorize } from "./auth.ts";
import { csvHeader, csvRows } from "./csv.ts";

export const ADMIN_UNAVAILABLE = "The store is unavailable right now. Please try again in a moment.";
export const ADMIN_QUERY_ERROR = "Please check the request.";
export const LEAD_NOT_FOUND = "Lead not found";
export const REVIEW_NOT_FOUND = "Review not found";
/** Requests per minute per IP across the admin API (a busy operator clicks fast, a script more). */
export const DEFAULT_ADMIN_RATE_LIMIT = 120;
/** The export reads the newest leads up to this many (a spreadsheet, not a backup). */
export const CSV_MAX_ROWS = 50_000;
const CSV_PAGE = 100;

/**
 * Seams for tests and local scripts; production uses the defaults. The directory's, because
 * moderating a review purges the same CDN copies as posting one, plus the notifier's.
 */
export interface AdminDeps extends DirectoryDeps {
  /** The notifier's seams, for the outbox's "retry now". */
  notify?: NotifyDeps;
}

export type AdminContext = FunctionContext;

export type AdminHandler = (req: Request, context?: AdminContext | null) => Promise<Response>;

interface Call {
  req: Request;
  store: Store;
  context?: AdminContext | null;
  env: Record<string, string | undefined>;
}

const ok = (body: unknown, status = 200) => jsonResponse(body, status, ADMIN_HEADERS);
const fail = (status: number, error: string, extra: Record<string, unknown> = {}, headers: Record<string, string> = {}) =>
  jsonError(status, error, extra, { ...ADMIN_HEADERS, ...headers });

function adminRateLimit(env: Record<string, string | undefined>): number {
  const n = Number(env.ADMIN_RATE_LIMIT_PER_MINUTE?.trim() || DEFAULT_ADMIN_RATE_LIMIT);
  return Number.isInteger(n) && n >= 0 ? n : DEFAULT_ADMIN_RATE_LIMIT;
}

/** The gate and the error mapping around one endpoint's work. */
function adminHandler(label: string, methods: readonly string[], deps: AdminDeps, work: (call: Call) => Promise<Response>): AdminHandler {
  const storeOf = deps.store ?? getStore;
  const env = deps.env ?? process.env;
  const now = deps.now ?? Date.now;
  return async (req, context) => {
    let store: Store;
    try {
      store = storeOf();
    } catch (error) {
      console.error(`[admin] ${label}: store unavailable (${errorName(error)})`);
      return fail(503, ADMIN_UNAVAILABLE);
    }
    try {
      const client = clientIp(req, context);
      const auth = await authorize(req, store, client, env);
      // Counted after the lockout check, so a locked-out guesser does not also use up the limit.
      if (!auth.ok) return auth.response;
      const limited = await checkRateLimit(store, "admin", client, adminRateLimit(env), now);
      if (!limited.ok) return fail(429, ADMIN_RATE_LIMITED, {}, { "retry-after": String(limited.retryAfterSeconds) });
      if (!methods.includes(req.method)) return fail(405, `Method not allowed. Use ${methods.join(", ")}.`, {}, { allow: methods.join(", ") });
      return await work({ req, store, context, env });
    } catch (error) {
      if (error instanceof QueryError) return fail(400, ADMIN_QUERY_ERROR, { fields: error.fields });
      if (error instanceof HttpError) return fail(error.status, error.message, {}, error.headers);
      if (error instanceof RangeError) return fail(400, ADMIN_QUERY_ERROR);
      console.error(`[admin] ${label}: failed: ${bugReport(error)}`);
      return fail(503, ADMIN_UNAVAILABLE);
    }
  };
}

/** The query, or a QueryError that adminHandler answers with the fields (a 400). */
function readQuery<S extends z.ZodObject>(schema: S, req: Request): z.output<S> {
  const query = parseQuery(schema, req);
  if (!query.ok) throw new QueryError(query.fields);
  return query.data;
}

class QueryError extends HttpError {
  constructor(readonly fields: Record<string, string>) {
    super(400, ADMIN_QUERY_ERROR);
  }
}

async function readPatch<S extends z.ZodType>(schema: S, req: Request): Promise<{ ok: true; data: z.output<S> } | { ok: false; response: Response }> {
  if (bodyKind(req) !== "json") return { ok: false, response: fail(415, "Unsupported content type. Send application/json.") };
  const payload = parseJsonObject(decodeText(await readBody(req, 8 * KB)));
  const parsed = schema.safeParse(payload);
  if (!parsed.success) return { ok: false, response: fail(400, ADMIN_QUERY_ERROR, { fields: fieldErrors(parsed.error) }) };
  return { ok: true, data: parsed.data };
}

/** Leads per type (and all), for the tab badges: one pipeline of ZCARDs. */
async function leadCounts(store: Store): Promise<Record<LeadType | "all", number>> {
  const keys = keyspace(store.prefix);
  const p = store.redis.pipeline();
  for (const type of LEAD_TYPES) p.zcard(keys.leadsByType(type));
  p.zcard(keys.leadsAll);
  const counts = await p.exec<number[]>();
  return Object.fromEntries([...LEAD_TYPES, "all"].map((t, i) => [t, Number(counts[i] ?? 0)])) as Record<LeadType | "all", number>;
}

// ---------------------------------------------------------------------------------------
// Leads

/** GET /api/admin/leads?type=&cursor=&q=&limit= -> { data, nextCursor, scanned?, counts }. */
export function adminLeadsHandler(deps: AdminDeps = {}): AdminHandler {
  return adminHandler("leads", ["GET"], deps, async ({ req, store }) => {
    const { type, cursor, q, limit } = readQuery(AdminLeadsQuery, req);
    const [page, counts] = await Promise.all([
      q ? store.leads.search(q, type, { cursor, limit }) : store.leads.list(type, { cursor, limit }),
      leadCounts(store),
    ]);
    return ok({ data: page.items, nextCursor: page.nextCursor, ...(page.scanned !== undefined ? { scanned: page.scanned } : {}), counts });
  });
}

const LEAD_PATH = /^\/api\/admin\/leads\/([^/]+)\/?$/;

/** GET /api/admin/leads/:id -> { data, outbox }; PATCH { status?, note? } -> { data }. */
export function adminLeadHandler(deps: AdminDeps = {}): AdminHandler {
  const now = deps.now ?? Date.now;
  return adminHandler("lead", ["GET", "PATCH"], deps, async ({ req, store, context }) => {
    const id = pathParam(req, context, "id", LEAD_PATH);
    if (!id || !isLeadId(id)) return fail(404, LEAD_NOT_FOUND);
    if (req.method === "GET") {
      const [lead, outbox] = await Promise.all([store.leads.get(id), store.outbox.get(id)]);
      return lead ? ok({ data: lead, outbox }) : fail(404, LEAD_NOT_FOUND);
    }
    const patch = await readPatch(LeadPatch, req);
    if (!patch.ok) return patch.response;
    const lead = await store.leads.update(id, patch.data, new Date(now()));
    if (!lead) return fail(404, LEAD_NOT_FOUND);
    console.info(`[admin] lead ${id} (${lead.type}) -> ${lead.status}${patch.data.note !== undefined ? " with note" : ""}`);
    return ok({ data: lead });
  });
}

/** GET /api/admin/leads.csv?type= -> text/csv attachment, newest first, streamed page by page. */
export function adminLeadsCsvHandler(deps: AdminDeps = {}): AdminHandler {
  const now = deps.now ?? Date.now;
  return adminHandler("leads.csv", ["GET"], deps, async ({ req, store }) => {
    const { type } = readQuery(AdminLeadsQuery.pick({ type: true }), req);
    // The first page is read before answering, so a store failure is still a clean 503.
    const first = await store.leads.list(type, { limit: CSV_PAGE });
    const encoder = new TextEncoder();
    let cursor = first.nextCursor;
    let rows = first.items.length;
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(encoder.encode(csvHeader() + csvRows(first.items)));
        if (!cursor) controller.close();
      },
      async pull(controller) {
        try {
          const page = await store.leads.list(type, { cursor, limit: CSV_PAGE });
          rows += page.items.length;
          controller.enqueue(encoder.encode(csvRows(page.items)));
          cursor = page.nextCursor;
          if (!cursor || rows >= CSV_MAX_ROWS) controller.close();
        } catch (error) {
          console.error(`[admin] leads.csv: export stopped after ${rows} rows (${errorName(error)})`);
          controller.error(error);
        }
      },
    });
    const day = new Date(now()).toISOString().slice(0, 10);
    console.info(`[admin] leads.csv: export of ${type ?? "all"} leads`);
    return new Response(body, {
      status: 200,
      headers: {
        "content-type": "text/csv; charset=utf-8",
        "content-disposition": `attachment; filename="treeline-leads-${type ?? "all"}-${day}.csv"`,
        ...BASE_HEADERS,
        ...ADMIN_HEADERS,
      },
    });
  });
}

// ---------------------------------------------------------------------------------------
// Reviews

/** The reviews with their business's name and slug (one pipeline for the page's businesses). */
async function withBusinesses(store: Store, reviews: readonly (AdminReview | Omit<AdminReview, "businessName" | "businessSlug">)[]): Promise<AdminReview[]> {
  const ids = [...new Set(reviews.map((r) => r.businessId))];
  const byId = new Map((await store.businesses.getMany(ids)).map((b) => [b.id, b]));
  return reviews.map((r) => {
    const b = byId.get(r.businessId);
    return b ? { ...r, businessName: b.name, businessSlug: b.slug } : { ...r };
  });
}

/** GET /api/admin/reviews?cursor=&limit= -> { data (hidden ones too), nextCursor }. */
export function adminReviewsHandler(deps: AdminDeps = {}): AdminHandler {
  return adminHandler("reviews", ["GET"], deps, async ({ req, store }) => {
    const { cursor, limit } = readQuery(AdminReviewsQuery, req);
    const page = await store.reviews.listAll({ cursor, limit });
    return ok({ data: await withBusinesses(store, page.items), nextCursor: page.nextCursor });
  });
}

const REVIEW_PATH = /^\/api\/admin\/reviews\/([^/]+)\/?$/;

/** PATCH /api/admin/reviews/:id { isVerified?, hidden? } -> { data, business: { id, rating, reviewCount } }. */
export function adminReviewHandler(deps: AdminDeps = {}): AdminHandler {
  const purge = deps.purge ?? netlifyPurge;
  return adminHandler("review", ["PATCH"], deps, async ({ req, store, context }) => {
    const id = pathParam(req, context, "id", REVIEW_PATH);
    if (!id || !isReviewId(id)) return fail(404, REVIEW_NOT_FOUND);
    const patch = await readPatch(ReviewPatch, req);
    if (!patch.ok) return patch.response;
    const review = await store.reviews.moderate(id, patch.data);
    if (!review) return fail(404, REVIEW_NOT_FOUND);
    console.info(`[admin] review ${id} of ${review.businessId}: verified=${review.isVerified} hidden=${review.hidden === true}`);
    const business = await store.businesses.get(review.businessId).catch(() => null);
    // The public lists and the profile's rating are cached by tag: drop them now.
    await afterResponse(context, purgeQuietly(purge, [DIRECTORY_TAG, businessTag(review.businessId)]));
    const data: AdminReview = business ? { ...review, businessName: business.name, businessSlug: business.slug } : review;
    return ok({ data, business: { id: review.businessId, rating: business?.rating ?? null, reviewCount: business?.reviewCount ?? null } });
  });
}

// ---------------------------------------------------------------------------------------
// Outbox

const RetryBody = z.object({
  /** One lead's notification; absent for every waiting one. */
  leadId: z.string().refine(isLeadId, "Invalid lead id").optional(),
});

/** GET /api/admin/outbox -> { data, total, channels }; POST { leadId? } retries now -> { retried }. */
export function adminOutboxHandler(deps: AdminDeps = {}): AdminHandler {
  const now = deps.now ?? Date.now;
  return adminHandler("outbox", ["GET", "POST"], deps, async ({ req, store, context, env }) => {
    const config = notifyConfig(env);
    const channels = { webhook: config.webhookUrl !== undefined, email: config.email !== undefined };
    if (req.method === "GET") {
      const { items, total } = await store.outbox.list({ limit: 100 });
      return ok({ data: items, total, channels });
    }
    const body = await readPatch(RetryBody, req);
    if (!body.ok) return body.response;
    const retried = await store.outbox.retryNow(body.data.leadId ? [body.data.leadId] : undefined, now());
    if (retried > 0 && channelsOf(config).length > 0) {
      const run = drainOutbox(store, { env, ...deps.notify }).catch((error) => console.error(`[admin] outbox retry failed (${errorName(error)})`));
      await afterResponse(context, run);
    }
    console.info(`[admin] outbox: retry now for ${retried} item(s)`);
    return ok({ retried, channels });
  });
}
