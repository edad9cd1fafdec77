/**
 * The data layer: one @upstash/redis client over one of three transports, and the typed
 * repositories on top. Functions call getStore(); tests call createStore().
 *
 *   UPSTASH_REDIS_REST_URL + _TOKEN -> "upstash"  (production, REST)
 *   REDIS_URL                       -> "redis"    (tests, CI, a local redis-server)
 *   neither                         -> "embedded" (in-process, persisted under TREELINE_DATA_DIR)
 */
import { createStore } from "./create.ts";
import { storeOptionsFromEnv } from "./options.ts";
import type { Store } from "./store.types.ts";

export { NotFoundError, ConflictError, IdempotencyConflictError, StoreError, isNotFound } from "./errors.ts";
export type { ListQuery, ListResult, BusinessesRepository } from "./repos/businesses.types.ts";
export type {
  CreateLeadOptions,
  CreateLeadResult,
  LeadPage,
  LeadUpdate,
  LeadsRepository,
} from "./repos/leads.types.ts";
export type { OutboxRepository } from "./repos/outbox.ts";
export type { MessagesRepository } from "./repos/messages.ts";
export type { AddReviewOptions, OwnedReview, ReviewPage, ReviewsRepository } from "./repos/reviews.ts";
export type { OwnersRepository } from "./repos/owners.ts";
export type { OwnerSessionsRepository } from "./repos/owner-sessions.ts";
export type { CodeTry, OwnerSignInsRepository } from "./repos/owner-sign-ins.ts";
export type { ClaimPage, ClaimsRepository } from "./repos/claims.ts";
export type { ListingChangesRepository, RecordChangeOptions } from "./repos/listing-changes.ts";
export type { CredentialChecksRepository } from "./repos/credential-checks.ts";
export type { BusinessLeadsRepository, OfferedLead } from "./repos/business-leads.ts";
export type { LockoutScope, LockoutsRepository } from "./repos/lockouts.ts";
export type { RateLimitsRepository } from "./repos/rate-limits.ts";
export type { BudgetLines, ChatBudgetRepository } from "./repos/chat-budget.ts";
export type { MetaRepository, Seeding } from "./repos/meta.ts";
export type { FlashesRepository } from "./repos/flashes.ts";
export type { RunsRepository } from "./repos/runs.ts";
export type { CapacityRepository } from "./repos/capacity.ts";
export type { StormLeadsRepository } from "./repos/storm-leads.ts";
export type { StormsRepository } from "./repos/storms.ts";
export type { SeedReport } from "./seed.ts";

export type { CreateStoreOptions, Store, StoreKind } from "./store.types.ts";
export { DEFAULT_PREFIX, createStore } from "./create.ts";
export { storeOptionsFromEnv } from "./options.ts";
export { STORE_TIMEOUT_MS } from "./client.ts";
export { lendEmbeddedBackend } from "./transports/lazy.ts";

let current: Store | undefined;

/** The store for this process (one per warm function instance), picked from the environment. */
export function getStore(): Store {
  current ??= createStore({ ...storeOptionsFromEnv(), log: true });
  return current;
}
