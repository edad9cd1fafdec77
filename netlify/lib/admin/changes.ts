/**
 * The operator's change history: GET /api/admin/changes (every business's, or one's with
 * ?businessId=, an id, a slug or a page address, newest first, offset-paged) and POST /api/admin/changes/:id/rollback (puts the
 * fields of one change back as they were; the rollback is itself a change, by the operator,
 * so it shows in the history and can be rolled back in turn). Same gate as every admin
 * endpoint (adminSpec: bearer ADMIN_TOKEN).
 */
import {
  AdminChangesQuery,
  CHANGE_NOT_FOUND,
  NOTHING_TO_ROLL_BACK,
  isChangeId,
  type AdminChange,
  type AdminChangesReply,
} from "../../../src/lib/admin-changes.ts";
import { netlifyPurge } from "../directory.ts";
import { endpoint, jsonError, jsonResponse, storeCall, type Endpoint } from "../http.ts";
import { listChanges, rollbackChange, type ListingChange } from "../owners/changes.ts";
import { NotFoundError } from "../store/errors.ts";
import type { Store } from "../store/index.ts";
import { adminSpec, readQuery, type AdminDeps } from "./endpoint.ts";

export const ROLLBACK_ROUTE = "/api/admin/changes/:id/rollback" as const;

/** The changes with their businesses' names (one pipelined read for every business on the page). */
async function named(store: Store, changes: readonly ListingChange[]): Promise<AdminChange[]> {
  const found = await store.businesses.getMany([...new Set(changes.map((c) => c.businessId))]);
  const byId = new Map(found.map((b) => [b.id, b]));
  return changes.map((c) => {
    const b = byId.get(c.businessId);
    return { ...c, ...(b ? { businessName: b.name, businessSlug: b.slug } : {}) } as AdminChange;
  });
}

/**
 * The business id the filter means: /admin shows slugs (page addresses), not ids, so a ref no
 * business has as its id is tried as a slug. Unknown either way: the ref itself (no changes).
 */
async function businessIdOf(store: Store, ref: string | undefined): Promise<string | undefined> {
  if (ref === undefined || (await store.businesses.get(ref))) return ref;
  return (await store.businesses.getBySlug(ref))?.id ?? ref;
}

export function adminChangesHandler(deps: AdminDeps = {}): Endpoint {
  return endpoint(adminSpec("changes", ["GET"]), deps, async ({ req, store }) => {
    const q = readQuery(AdminChangesQuery, req);
    const businessId = await storeCall(() => businessIdOf(store, q.businessId));
    const { items, total } = await storeCall(() =>
      listChanges(store, { businessId, offset: q.cursor, limit: q.limit }),
    );
    const next = q.cursor + q.limit;
    const reply: AdminChangesReply = {
      data: await storeCall(() => named(store, items)),
      nextCursor: next < total ? String(next) : null,
      total,
    };
    return jsonResponse(reply);
  });
}

export function adminRollbackHandler(deps: AdminDeps = {}): Endpoint {
  const purge = deps.purge ?? netlifyPurge;
  const spec = {
    ...adminSpec("rollback", ["POST"]),
    route: { path: ROLLBACK_ROUTE, valid: isChangeId, notFound: CHANGE_NOT_FOUND },
  };
  return endpoint(spec, deps, async ({ store, now, params: { id } }) => {
    let result;
    try {
      result = await storeCall(() => rollbackChange(store, id, now(), purge));
    } catch (error) {
      // The change, or its business, is gone.
      if (error instanceof NotFoundError) return jsonError(404, CHANGE_NOT_FOUND);
      throw error;
    }
    if (!result.change) return jsonError(409, NOTHING_TO_ROLL_BACK);
    console.info(`[admin] change ${id} of ${result.business.id} rolled back by ${result.change.id}`);
    const [data] = await storeCall(() => named(store, [result.change!]));
    return jsonResponse({ data }, 201);
  });
}
