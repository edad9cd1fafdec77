/** The operator's leads: the inbox with its counts and pinned emergencies, one lead, the CSV export. */
import {
  AdminLeadsQuery,
  LeadPatch,
  isLeadId,
  type AdminLeadReply,
  type AdminLeadsReply,
} from "../../../src/lib/admin.ts";
import type { Env } from "../../../src/lib/env.ts";
import { normalizeReference } from "../../../src/lib/receipt.ts";
import type { Lead } from "../../../src/lib/schemas/lead.ts";
import type { LeadFilter } from "../store/repos/leads.types.ts";
import { urgencyOfLead } from "../store/repos/lead-facets.ts";
import { signerFor } from "../delivery/signing.ts";
import { BASE_HEADERS, endpoint, errorName, jsonError, jsonResponse, storeCall } from "../http.ts";
import type { Store } from "../store/index.ts";
import { csvHeader, csvRows } from "./csv.ts";
import { adminSpec, readPatch, readQuery, type AdminDeps, type AdminHandler } from "./endpoint.ts";
import { shownMessage } from "./messages.ts";

export const LEAD_NOT_FOUND = "Lead not found";
/** Open emergencies each inbox answer pins on top. */
export const PINNED_EMERGENCIES = 20;
/** The export reads the newest leads up to this many (a spreadsheet, not a backup). */
export const CSV_MAX_ROWS = 50_000;
const CSV_PAGE = 100;

/** Whether a lead passes the list's filters (the search text aside). */
const passes = (lead: Lead, { type, status, urgency }: LeadFilter) =>
  (!type || lead.type === type) && (!status || lead.status === status) && (!urgency || urgencyOfLead(lead) === urgency);

/**
 * GET /api/admin/leads?type=&status=&urgency=&q=&cursor=&limit= -> AdminLeadsReply: the page,
 * the counts per type and status, the "N need you" count and the open emergencies pinned
 * above the list. A query that reads as a reference (the one thing every homeowner page
 * tells people to quote, with or without its "TL-") puts that lead first on the first page,
 * then the text search's matches.
 */
export function adminLeadsHandler(deps: AdminDeps = {}): AdminHandler {
  return endpoint(adminSpec("leads", ["GET"]), deps, async ({ req, store }) => {
    const { type, status, urgency, cursor, q, limit } = readQuery(AdminLeadsQuery, req);
    const filter = { type, status, urgency, q };
    const reference = q && !cursor ? normalizeReference(q) : null;
    const [page, counts, overview, named] = await storeCall(() =>
      Promise.all([
        store.leads.find(filter, { cursor, limit }),
        store.leads.counts(),
        store.leads.overview(PINNED_EMERGENCIES),
        reference ? store.leads.byReference(reference) : null,
      ]),
    );
    const hit = named && passes(named, filter) ? named : null;
    const reply: AdminLeadsReply = {
      data: hit ? [hit, ...page.items.filter((l) => l.id !== hit.id)] : page.items,
      nextCursor: page.nextCursor,
      ...(page.scanned !== undefined ? { scanned: page.scanned } : {}),
      counts,
      statusCounts: overview.statusCounts,
      needsYou: overview.needsYou,
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
 * visitor's status page); PATCH { closed?, note? } -> { data }.
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
      const reply: AdminLeadReply = {
        data: lead,
        outbox,
        messages: messages.map(shownMessage),
        ...(statusUrl ? { statusUrl } : {}),
      };
      return jsonResponse(reply);
    }
    const patch = readPatch(LeadPatch, body);
    const lead = await storeCall(() => store.leads.update(id, patch, new Date(now())));
    if (!lead) return jsonError(404, LEAD_NOT_FOUND);
    console.info(`[admin] lead ${id} (${lead.type}): ${lead.status}${patch.note !== undefined ? " with note" : ""}`);
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
