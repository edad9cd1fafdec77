/**
 * The operator's API behind /admin. Every handler runs the same gate first (then the steps
 * every endpoint takes, http.ts):
 *
 *   ADMIN_TOKEN unset (503) -> store (503) -> failed-sign-in lockout (429) ->
 *   per-IP limit (429) -> bearer token (401) -> method (405) -> id (404) ->
 *   content type (415) -> query/body (400) -> work
 *
 * Answers are JSON with `cache-control: no-store` (CSV for the export), never cached by the
 * CDN and never indexed. Logs name ids and types only: no lead or review content.
 */
import { z } from "../../../src/lib/zod.ts";
import {
  AdminLeadsQuery,
  AdminMessagesQuery,
  ADMIN_RATE_LIMITED,
  AdminReviewsQuery,
  LeadPatch,
  ReviewPatch,
  isLeadId,
  isReviewId,
  type AdminChannels,
  type AdminLeadReply,
  type AdminLeadsReply,
  type AdminMessagesReply,
  type AdminReview,
} from "../../../src/lib/admin.ts";
import type { Env } from "../../../src/lib/env.ts";
import { fieldErrors } from "../../../src/lib/schemas/forms.ts";
import { LEAD_TYPES } from "../../../src/lib/lead-types.ts";
import type { LeadType } from "../../../src/lib/schemas/lead.ts";
import { DIRECTORY_TAG, businessTag, netlifyPurge, purgeQuietly, type DirectoryDeps } from "../directory.ts";
import {
  BASE_HEADERS,
  HttpError,
  KB,
  STORE_UNAVAILABLE,
  afterResponse,
  clientIp,
  endpoint,
  errorName,
  jsonError,
  jsonResponse,
  storeCall,
  type Endpoint,
  type EndpointSpec,
  type FunctionContext,
  type Method,
} from "../http.ts";
import { signerFor } from "../delivery/signing.ts";
import { channelsOf, drainOutbox, notifyConfig, type NotifyConfig, type NotifyDeps } from "../notify/index.ts";
import { parseQuery } from "../query.ts";
import { enforceRateLimit } from "../ratelimit.ts";
import { keyspace } from "../store/keys.ts";
import type { Store } from "../store/index.ts";
import { ADMIN_HEADERS, authorize } from "./auth.ts";
import { csvHeader, csvRows } from "./csv.ts";

export const ADMIN_UNAVAILABLE = STORE_UNAVAILABLE;
export const ADMIN_QUERY_ERROR = "Please check the request.";
export const LEAD_NOT_FOUND = "Lead not found";
export const REVIEW_NOT_FOUND = "Review not found";
/** Open emergencies each inbox answer pins on top. */
export const PINNED_EMERGENCIES = 20;
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

/** Leads per type (and all), for the tab badges: one pipeline of ZCARDs. */
async function leadCounts(store: Store): Promise<Record<LeadType | "all", number>> {
  const keys = keyspace(store.prefix);
  const p = store.redis.pipeline();
  for (const type of LEAD_TYPES) p.zcard(keys.leadsByType(type));
  p.zcard(keys.leadsAll);
  const counts = await p.exec<number[]>();
  return Object.fromEntries([...LEAD_TYPES, "all"].map((t, i) => [t, Number(counts[i] ?? 0)])) as Record<
    LeadType | "all",
    number
  >;
}

// ---------------------------------------------------------------------------------------
// Leads

/**
 * GET /api/admin/leads?type=&status=&urgency=&q=&cursor=&limit= -> AdminLeadsReply: the page,
 * the counts per type, the "N new" count and the open emergencies pinned above the list.
 */
export function adminLeadsHandler(deps: AdminDeps = {}): AdminHandler {
  return endpoint(adminSpec("leads", ["GET"]), deps, async ({ req, store }) => {
    const { type, status, urgency, cursor, q, limit } = readQuery(AdminLeadsQuery, req);
    const [page, counts, overview] = await storeCall(() =>
      Promise.all([
        store.leads.find({ type, status, urgency, q }, { cursor, limit }),
        leadCounts(store),
        store.leads.overview(PINNED_EMERGENCIES),
      ]),
    );
    const reply: AdminLeadsReply = {
      data: page.items,
      nextCursor: page.nextCursor,
      ...(page.scanned !== undefined ? { scanned: page.scanned } : {}),
      counts,
      newCount: overview.newCount,
      emergencies: overview.emergencies,
    };
    return jsonResponse(reply);
  });
}

/** The visitor's status page path, or undefined when the signing key cannot be read (logged). */
async function statusPathOf(store: Store, env: Env, id: string): Promise<string | undefined> {
  try {
    return (await signerFor(store, env)).statusPath(id);
  } catch (error) {
    console.warn(`[admin] lead ${id}: no status link (${errorName(error)})`);
    return undefined;
  }
}

/**
 * GET /api/admin/leads/:id -> AdminLeadReply (the lead, its outbox item, its messages and the
 * visitor's status page); PATCH { status?, note? } -> { data }.
 */
export function adminLeadHandler(deps: AdminDeps = {}): AdminHandler {
  const spec = {
    ...adminSpec("lead", ["GET", "PATCH"]),
    route: { path: "/api/admin/leads/:id" as const, valid: isLeadId, notFound: LEAD_NOT_FOUND },
  };
  return endpoint(spec, deps, async ({ req, store, env, params: { id }, body, now }) => {
    if (req.method === "GET") {
      const [lead, outbox, messages] = await storeCall(() =>
        Promise.all([store.leads.get(id), store.outbox.get(id), store.messages.forLead(id)]),
      );
      if (!lead) return jsonError(404, LEAD_NOT_FOUND);
      const statusUrl = await statusPathOf(store, env, id);
      const reply: AdminLeadReply = { data: lead, outbox, messages, ...(statusUrl ? { statusUrl } : {}) };
      return jsonResponse(reply);
    }
    const patch = readPatch(LeadPatch, body);
    const lead = await storeCall(() => store.leads.update(id, patch, new Date(now())));
    if (!lead) return jsonError(404, LEAD_NOT_FOUND);
    console.info(`[admin] lead ${id} (${lead.type}) -> ${lead.status}${patch.note !== undefined ? " with note" : ""}`);
    return jsonResponse({ data: lead });
  });
}

/**
 * GET /api/admin/leads.csv?type=&status=&urgency= -> text/csv attachment, newest first,
 * streamed page by page (a filtered page may be short: the scan goes on by cursor).
 */
export function adminLeadsCsvHandler(deps: AdminDeps = {}): AdminHandler {
  return endpoint(adminSpec("leads.csv", ["GET"]), deps, async ({ req, store, now }) => {
    const filter = readQuery(AdminLeadsQuery.pick({ type: true, status: true, urgency: true }), req);
    const { type } = filter;
    // The first page is read before answering, so a store failure is still a clean 503.
    const first = await storeCall(() => store.leads.find(filter, { limit: CSV_PAGE }));
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
          const page = await store.leads.find(filter, { cursor, limit: CSV_PAGE });
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
      },
    });
  });
}

// ---------------------------------------------------------------------------------------
// Reviews

/** The reviews with their business's name and slug (one pipeline for the page's businesses). */
async function withBusinesses(
  store: Store,
  reviews: readonly (AdminReview | Omit<AdminReview, "businessName" | "businessSlug">)[],
): Promise<AdminReview[]> {
  const ids = [...new Set(reviews.map((r) => r.businessId))];
  const byId = new Map((await store.businesses.getMany(ids)).map((b) => [b.id, b]));
  return reviews.map((r) => {
    const b = byId.get(r.businessId);
    return b ? { ...r, businessName: b.name, businessSlug: b.slug } : { ...r };
  });
}

/** GET /api/admin/reviews?cursor=&limit= -> { data (hidden ones too), nextCursor }. */
export function adminReviewsHandler(deps: AdminDeps = {}): AdminHandler {
  return endpoint(adminSpec("reviews", ["GET"]), deps, async ({ req, store }) => {
    const { cursor, limit } = readQuery(AdminReviewsQuery, req);
    const page = await storeCall(() => store.reviews.listAll({ cursor, limit }));
    return jsonResponse({
      data: await storeCall(() => withBusinesses(store, page.items)),
      nextCursor: page.nextCursor,
    });
  });
}

/** PATCH /api/admin/reviews/:id { hidden, hiddenReason? } -> { data, business: { id, rating, reviewCount } }. */
export function adminReviewHandler(deps: AdminDeps = {}): AdminHandler {
  const purge = deps.purge ?? netlifyPurge;
  const spec = {
    ...adminSpec("review", ["PATCH"]),
    route: { path: "/api/admin/reviews/:id" as const, valid: isReviewId, notFound: REVIEW_NOT_FOUND },
  };
  return endpoint(spec, deps, async ({ store, params: { id }, body, context }) => {
    const patch = readPatch(ReviewPatch, body);
    const review = await storeCall(() => store.reviews.moderate(id, patch));
    if (!review) return jsonError(404, REVIEW_NOT_FOUND);
    console.info(`[admin] review ${id} of ${review.businessId}: hidden=${review.hidden === true}`);
    const business = await store.businesses.get(review.businessId).catch(() => null);
    // The public lists and the profile's rating are cached by tag: drop them now.
    await afterResponse(context, purgeQuietly(purge, [DIRECTORY_TAG, businessTag(review.businessId)]));
    const data: AdminReview = business
      ? { ...review, businessName: business.name, businessSlug: business.slug }
      : review;
    return jsonResponse({
      data,
      business: { id: review.businessId, rating: business?.rating ?? null, reviewCount: business?.reviewCount ?? null },
    });
  });
}

// ---------------------------------------------------------------------------------------
// Outbox

const RetryBody = z.object({
  /** One lead's notification; absent for every waiting one. */
  leadId: z.string().refine(isLeadId, "Invalid lead id").optional(),
});

/** Which providers the configuration sets up; without one, its messages are only kept for /admin. */
export const adminChannels = (config: NotifyConfig): AdminChannels => ({
  webhook: config.webhookUrl !== undefined,
  email: config.email !== undefined,
  visitorEmail: config.resend !== undefined,
  sms: config.sms !== undefined,
});

/** GET /api/admin/outbox -> AdminOutboxReply; POST { leadId? } retries now -> { retried, channels }. */
export function adminOutboxHandler(deps: AdminDeps = {}): AdminHandler {
  return endpoint(adminSpec("outbox", ["GET", "POST"]), deps, async ({ req, store, context, env, now, body }) => {
    const config = notifyConfig(env);
    const channels = adminChannels(config);
    if (req.method === "GET") {
      const { items, total } = await storeCall(() => store.outbox.list({ limit: 100 }));
      return jsonResponse({ data: items, total, channels });
    }
    const { leadId } = readPatch(RetryBody, body);
    const retried = await storeCall(() => store.outbox.retryNow(leadId ? [leadId] : undefined, now()));
    if (retried > 0 && channelsOf(config).length > 0) {
      const run = drainOutbox(store, { env, ...deps.notify }).catch((error) =>
        console.error(`[admin] outbox retry failed (${errorName(error)})`),
      );
      await afterResponse(context, run);
    }
    console.info(`[admin] outbox: retry now for ${retried} item(s)`);
    return jsonResponse({ retried, channels });
  });
}

// ---------------------------------------------------------------------------------------
// Messages

/**
 * GET /api/admin/messages?offset=&limit=&leadId= -> AdminMessagesReply: every message the site
 * sent or kept, newest first; with leadId, that lead's, oldest first (a conversation).
 */
export function adminMessagesHandler(deps: AdminDeps = {}): AdminHandler {
  return endpoint(adminSpec("messages", ["GET"]), deps, async ({ req, store }) => {
    const { offset, limit, leadId } = readQuery(AdminMessagesQuery, req);
    let reply: AdminMessagesReply;
    if (leadId) {
      const all = await storeCall(() => store.messages.forLead(leadId));
      reply = { data: all.slice(offset, offset + limit), total: all.length };
    } else {
      const { items, total } = await storeCall(() => store.messages.list({ offset, limit }));
      reply = { data: items, total };
    }
    return jsonResponse(reply);
  });
}
