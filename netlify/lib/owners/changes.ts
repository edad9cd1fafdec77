/**
 * Every change to a listing that is not the operator's seed: what an owner edits (or the
 * operator rolls back) goes through `applyListingChange`, which writes the business, records
 * the fields before and after, and purges the business's cached pages, so the public page
 * shows it on the next request and /admin can see and undo it.
 */
import { randomBytes } from "node:crypto";
import { needsCheck } from "../../../src/lib/credentials/queue.ts";
import {
  OWNER_FIELDS,
  type ChangeActor,
  type ListingChange,
  type ListingPatch,
  type OwnerField,
} from "../../../src/lib/owner-records.ts";
import type { Business } from "../../../src/lib/schemas/business.ts";
import { DIRECTORY_TAG, businessTag, purgeQuietly, type Purge } from "../directory.ts";
import { NotFoundError } from "../store/errors.ts";
import type { Store } from "../store/index.ts";

export { CHANGES_KEPT } from "../store/repos/listing-changes.ts";
export { OWNER_FIELDS, type ChangeActor, type ListingChange, type ListingPatch, type OwnerField };

const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

/**
 * Applies `patch` (null or undefined = remove the field) to a business, records it and purges
 * its pages. Fields whose value does not change are left out; nothing changed = no record.
 * Returns the business as stored and the change (null when nothing changed).
 */
export async function applyListingChange(
  store: Store,
  input: {
    businessId: string;
    actor: ChangeActor;
    summary: string;
    patch: ListingPatch;
    revertOf?: string;
    /** The business as the caller just read it (an owner page's gate did): saves reading it again. */
    current?: Business;
  },
  now: number,
  purge: Purge,
): Promise<{ business: Business; change: ListingChange | null }> {
  const current = input.current?.id === input.businessId ? input.current : await store.businesses.get(input.businessId);
  if (!current) throw new NotFoundError("business", input.businessId);
  const before: ListingPatch = {};
  const after: ListingPatch = {};
  const next: Record<string, unknown> = { ...current };
  for (const field of OWNER_FIELDS) {
    if (!(field in input.patch)) continue;
    const value = input.patch[field];
    if (same(current[field], value)) continue;
    (before as Record<string, unknown>)[field] = current[field] ?? null;
    (after as Record<string, unknown>)[field] = value ?? null;
    if (value === null || value === undefined) delete next[field];
    else next[field] = value;
  }
  if (Object.keys(after).length === 0) return { business: current, change: null };
  // Derived figures are the store's, never written back through an upsert.
  const { responseMinutes: _m, responseCount: _c, responseRate: _r, responseOffers: _o, ...profile } = next as Business;
  const business = await store.businesses.upsert(profile);
  const at = new Date(now);
  const change: ListingChange = {
    id: `ch_${at.getTime().toString(36)}${randomBytes(5).toString("hex")}`,
    businessId: business.id,
    at: at.toISOString(),
    actor: input.actor,
    summary: input.summary,
    before,
    after,
    ...(input.revertOf ? { revertOf: input.revertOf } : {}),
  };
  // The operator's credentials queue follows every change to them: an owner's edit, the
  // operator's check or rejection, a rollback of either.
  const credentials = "credentials" in after ? (needsCheck(business.credentials) ? "waiting" : "settled") : undefined;
  await store.changes.record(change, { credentials });
  await purgeQuietly(purge, [DIRECTORY_TAG, businessTag(business.id)]);
  return { business, change };
}

export const getChange = (store: Store, id: string): Promise<ListingChange | null> => store.changes.get(id);

/** Newest first: one business's changes, or every business's (businessId omitted). */
export const listChanges = (
  store: Store,
  options: { businessId?: string; offset?: number; limit?: number } = {},
): Promise<{ items: ListingChange[]; total: number }> => store.changes.list(options);

/** Puts the fields of a change back as they were before it, as a new change by the operator. */
export async function rollbackChange(store: Store, id: string, now: number, purge: Purge) {
  const change = await getChange(store, id);
  if (!change) throw new NotFoundError("change", id);
  return applyListingChange(
    store,
    {
      businessId: change.businessId,
      actor: { kind: "operator" },
      summary: `Rolled back: ${change.summary}`,
      patch: change.before,
      revertOf: change.id,
    },
    now,
    purge,
  );
}
