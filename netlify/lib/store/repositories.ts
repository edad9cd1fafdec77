/** The repositories of one store, wired to its client and keys. */
import type { Redis } from "@upstash/redis";
import type { Keys } from "./keys.ts";
import { businessesRepository } from "./repos/businesses.ts";
import { leadsRepository } from "./repos/leads.ts";
import { outboxRepository } from "./repos/outbox.ts";
import { messagesRepository } from "./repos/messages.ts";
import { reviewsRepository } from "./repos/reviews.ts";
import { ownersRepository } from "./repos/owners.ts";
import { ownerSessionsRepository } from "./repos/owner-sessions.ts";
import { ownerSignInsRepository } from "./repos/owner-sign-ins.ts";
import { claimsRepository } from "./repos/claims.ts";
import { listingChangesRepository } from "./repos/listing-changes.ts";
import { credentialChecksRepository } from "./repos/credential-checks.ts";
import { businessLeadsRepository } from "./repos/business-leads.ts";
import { lockoutsRepository } from "./repos/lockouts.ts";
import { rateLimitsRepository } from "./repos/rate-limits.ts";
import { chatBudgetRepository } from "./repos/chat-budget.ts";
import { metaRepository } from "./repos/meta.ts";
import { flashesRepository } from "./repos/flashes.ts";
import { runsRepository } from "./repos/runs.ts";
import { webhooksRepository } from "./repos/webhooks.ts";
import { leadReportsRepository } from "./repos/lead-reports.ts";
import { calendarFeedsRepository } from "./repos/calendar-feeds.ts";
import { capacityRepository } from "./repos/capacity.ts";
import { stormLeadsRepository } from "./repos/storm-leads.ts";
import { stormsRepository } from "./repos/storms.ts";
import type { Store } from "./store.types.ts";

/** The repositories that wait for ready(): every one but the rate limits. */
export function rawRepositories(redis: Redis, keys: Keys) {
  return {
    leads: leadsRepository(redis, keys),
    businesses: businessesRepository(redis, keys),
    reviews: reviewsRepository(redis, keys),
    outbox: outboxRepository(redis, keys),
    messages: messagesRepository(redis, keys),
    owners: ownersRepository(redis, keys),
    ownerSessions: ownerSessionsRepository(redis, keys),
    ownerSignIns: ownerSignInsRepository(redis, keys),
    claims: claimsRepository(redis, keys),
    changes: listingChangesRepository(redis, keys),
    credentialChecks: credentialChecksRepository(redis, keys),
    businessLeads: businessLeadsRepository(redis, keys),
    lockouts: lockoutsRepository(redis, keys),
    chatBudget: chatBudgetRepository(redis, keys),
    meta: metaRepository(redis, keys),
    flashes: flashesRepository(redis, keys),
    runs: runsRepository(redis, keys),
    webhooks: webhooksRepository(redis, keys),
    leadReports: leadReportsRepository(redis, keys),
    calendarFeeds: calendarFeedsRepository(redis, keys),
    capacity: capacityRepository(redis, keys),
    stormLeads: stormLeadsRepository(redis, keys),
    storms: stormsRepository(redis, keys),
  };
}

export type RawRepositories = ReturnType<typeof rawRepositories>;

type Repositories = Omit<
  Store,
  "kind" | "prefix" | "redis" | "description" | "ping" | "writable" | "ready" | "batch" | "close"
>;

/** The store's repositories: `raw` gated on ready(), and the rate limits, which keep their own deadline. */
export function storeRepositories(
  raw: RawRepositories,
  redis: Redis,
  keys: Keys,
  ready: () => Promise<void>,
): Repositories {
  return {
    leads: gated(raw.leads, ready),
    businesses: gated(raw.businesses, ready),
    reviews: gated(raw.reviews, ready),
    outbox: gated(raw.outbox, ready),
    messages: gated(raw.messages, ready),
    owners: gated(raw.owners, ready),
    ownerSessions: gated(raw.ownerSessions, ready),
    ownerSignIns: gated(raw.ownerSignIns, ready),
    claims: gated(raw.claims, ready),
    changes: gated(raw.changes, ready),
    credentialChecks: gated(raw.credentialChecks, ready),
    businessLeads: gated(raw.businessLeads, ready),
    lockouts: gated(raw.lockouts, ready),
    rateLimits: rateLimitsRepository(redis, keys),
    chatBudget: gated(raw.chatBudget, ready),
    meta: gated(raw.meta, ready),
    flashes: gated(raw.flashes, ready),
    runs: gated(raw.runs, ready),
    webhooks: gated(raw.webhooks, ready),
    leadReports: gated(raw.leadReports, ready),
    calendarFeeds: gated(raw.calendarFeeds, ready),
    capacity: gated(raw.capacity, ready),
    stormLeads: gated(raw.stormLeads, ready),
    storms: gated(raw.storms, ready),
  };
}

/** Every method waits for ready() first, so a fresh embedded store is seeded before use. */
function gated<T extends object>(repo: T, ready: () => Promise<void>): T {
  const out = {} as Record<string, unknown>;
  for (const [name, fn] of Object.entries(repo)) {
    out[name] =
      typeof fn === "function"
        ? async (...args: unknown[]) => {
            await ready();
            return (fn as (...a: unknown[]) => unknown)(...args);
          }
        : fn;
  }
  return out as T;
}
