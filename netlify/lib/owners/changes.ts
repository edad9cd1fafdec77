/**
 * Every change to a listing that is not the operator's seed: what an owner edits (or the
 * operator rolls back) goes through `applyListingChange`, which writes the business, records
 * the fields before and after, and purges the business's cached pages, so the public page
 * shows it on the next request and /admin can see and undo it.
 */
import { needsCheck } from "../../../src/lib/credentials/queue.ts";
import type { Business } from "../../../src/lib/schemas/business.ts";
import { DIRECTORY_TAG, businessTag, purgeQuietly, type Purge } from "../directory.ts";
import { asJson } from "../store/decode.ts";
import { NotFoundError } from "../store/errors.ts";
import { keyspace } from "../store/keys.ts";
import type { Store } from "../store/index.ts";
import { randomBytes } from "node:crypto";

/** The fields an owner may change (everything else is the operator's, or derived). */
export const OWNER_FIELDS = [
  "description",
  "services",
  "serviceAreas",
  "businessHours",
  "closedHolidays",
  "closedDates",
  "images",
  "website",
  "phone",
  "credentials",
  // The operator's old free text: the owner's credentials form clears it when a structured
  // licence or insurance replaces it, so the clearing is in the history and can be rolled back.
  "licenseNumber",
  "insuranceDetails",
] as const satisfies readonly (keyof Business)[];
export type OwnerField = (typeof OWNER_FIELDS)[number];
export type ListingPatch = { [K in OwnerField]?: Business[K] | null };

/** Who made a change: an owner (by e-mail) or the operator. */
export type ChangeActor = { kind: "owner"; email: string } | { kind: "operator" };

export interface ListingChange {
  id: string;
  businessId: string;
  /** ISO. */
  at: string;
  actor: ChangeActor;
  /** One line for the history, e.g. "Hours and holiday closures". */
  summary: string;
  /** The changed fields as they were (null = absent). */
  before: ListingPatch;
  /** The changed fields as they are now (null = absent). */
  after: ListingPatch;
  /** The change this one undid (a rollback). */
  revertOf?: string;
}

/** Changes kept per business; the oldest go first. */
export const CHANGES_KEPT = 200;

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
  const { responseMinutes: _m, responseCount: _c, ...profile } = next as Business;
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
  const keys = keyspace(store.prefix);
  const tx = store.redis.multi();
  tx.set(keys.change(change.id), JSON.stringify(change));
  tx.zadd(keys.businessChanges(business.id), { score: at.getTime(), member: change.id });
  tx.zadd(keys.changes, { score: at.getTime(), member: change.id });
  // The operator's credentials queue follows every change to them: an owner's edit, the
  // operator's check or rejection, a rollback of either.
  if ("credentials" in after) {
    if (needsCheck(business.credentials))
      tx.zadd(keys.credentialsPending, { nx: true }, { score: at.getTime(), member: business.id });
    else tx.zrem(keys.credentialsPending, business.id);
  }
  tx.zcard(keys.businessChanges(business.id));
  const replies = await tx.exec<unknown[]>();
  // Trimming reads the oldest only once the history is over its length.
  if (Number(replies.at(-1)) > CHANGES_KEPT) await trim(store, business.id);
  await purgeQuietly(purge, [DIRECTORY_TAG, businessTag(business.id)]);
  return { business, change };
}

/** Keeps the newest CHANGES_KEPT of a business. */
async function trim(store: Store, businessId: string) {
  const keys = keyspace(store.prefix);
  const old = await store.redis.zrange<string[]>(keys.businessChanges(businessId), 0, -(CHANGES_KEPT + 1));
  if (old.length === 0) return;
  const tx = store.redis.multi();
  tx.zrem(keys.businessChanges(businessId), ...old);
  tx.zrem(keys.changes, ...old);
  tx.del(...old.map(keys.change));
  await tx.exec();
}

export async function getChange(store: Store, id: string): Promise<ListingChange | null> {
  return asJson<ListingChange>(await store.redis.get(keyspace(store.prefix).change(id)));
}

/** Newest first: one business's changes, or every business's (businessId omitted). */
export async function listChanges(
  store: Store,
  options: { businessId?: string; offset?: number; limit?: number } = {},
): Promise<{ items: ListingChange[]; total: number }> {
  const keys = keyspace(store.prefix);
  const key = options.businessId ? keys.businessChanges(options.businessId) : keys.changes;
  const offset = options.offset ?? 0;
  const limit = options.limit ?? 20;
  const [ids, total] = await Promise.all([
    store.redis.zrange<string[]>(key, offset, offset + limit - 1, { rev: true }),
    store.redis.zcard(key),
  ]);
  if (ids.length === 0) return { items: [], total };
  const docs = await store.redis.mget<unknown[]>(...ids.map(keys.change));
  return { items: docs.map((d) => asJson<ListingChange>(d)).filter((c): c is ListingChange => c !== null), total };
}

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
