/** The store's shape: which transport it runs on, how to open one, and what it offers. */
import type { Redis } from "@upstash/redis";
import type { BusinessesRepository } from "./repos/businesses.types.ts";
import type { LeadsRepository } from "./repos/leads.types.ts";
import type { OutboxRepository } from "./repos/outbox.ts";
import type { MessagesRepository } from "./repos/messages.ts";
import type { ReviewsRepository } from "./repos/reviews.ts";
import type { OwnersRepository } from "./repos/owners.ts";
import type { OwnerSessionsRepository } from "./repos/owner-sessions.ts";
import type { OwnerSignInsRepository } from "./repos/owner-sign-ins.ts";
import type { ClaimsRepository } from "./repos/claims.ts";
import type { ListingChangesRepository } from "./repos/listing-changes.ts";
import type { CredentialChecksRepository } from "./repos/credential-checks.ts";
import type { BusinessLeadsRepository } from "./repos/business-leads.ts";
import type { LockoutsRepository } from "./repos/lockouts.ts";
import type { RateLimitsRepository } from "./repos/rate-limits.ts";
import type { ChatBudgetRepository } from "./repos/chat-budget.ts";
import type { MetaRepository } from "./repos/meta.ts";
import type { FlashesRepository } from "./repos/flashes.ts";
import type { RunsRepository } from "./repos/runs.ts";
import type { WebhooksRepository } from "./repos/webhooks.ts";
import type { LeadReportsRepository } from "./repos/lead-reports.ts";
import type { CalendarFeedsRepository } from "./repos/calendar-feeds.ts";
import type { CapacityRepository } from "./repos/capacity.ts";
import type { StormLeadsRepository } from "./repos/storm-leads.ts";
import type { StormsRepository } from "./repos/storms.ts";

export type StoreKind = "upstash" | "redis" | "embedded";

export type CreateStoreOptions = {
  /** Prefix for every key the repositories write (default REDIS_KEY_PREFIX or "treeline:"). */
  prefix?: string;
  /** Print the one-line "which store" notice (getStore does). */
  log?: boolean;
  /** Seed file loaded on first use when the store has no businesses; omit to start empty. */
  seedFile?: string;
} & (
  | { transport: "upstash"; url: string; token: string }
  | { transport: "redis"; url: string }
  | {
      transport: "embedded";
      /** JSON file to persist to; omit for memory only. */
      file?: string;
    }
);

export interface Store {
  readonly kind: StoreKind;
  /** Key prefix used by the repositories. */
  readonly prefix: string;
  /**
   * The raw client, for the store's own code and tests only: everything else reads and writes
   * through the repositories below (tests/unit/store-boundary.test.ts checks it).
   */
  readonly redis: Redis;
  /** Human-readable target, credentials removed. */
  readonly description: string;
  /** True when the store answers a PING within 2 s. */
  ping(): Promise<boolean>;
  /** True when a write is acknowledged (and, embedded, saved to disk) within 2 s. */
  writable(): Promise<boolean>;
  readonly leads: LeadsRepository;
  readonly businesses: BusinessesRepository;
  readonly reviews: ReviewsRepository;
  /** Lead notifications waiting for delivery. */
  readonly outbox: OutboxRepository;
  /** Every message the site sent, or would have sent, about a lead. */
  readonly messages: MessagesRepository;
  /** Who may run each business's listing. */
  readonly owners: OwnersRepository;
  /** Owners' signed-in sessions. */
  readonly ownerSessions: OwnerSessionsRepository;
  /** Owners' one-time sign-in links and SMS codes. */
  readonly ownerSignIns: OwnerSignInsRepository;
  /** Claims of listed businesses and requests to add one, and the operator's queue of them. */
  readonly claims: ClaimsRepository;
  /** Every change to a listing, and the credentials queue that follows them. */
  readonly changes: ListingChangesRepository;
  /** The operator's credentials queue (read side). */
  readonly credentialChecks: CredentialChecksRepository;
  /** The leads offered to each business. */
  readonly businessLeads: BusinessLeadsRepository;
  /** Failed sign-ins per client address. */
  readonly lockouts: LockoutsRepository;
  /** Request counters of the public endpoints (not gated on ready(): they keep their own deadline). */
  readonly rateLimits: RateLimitsRepository;
  /** The assistant's daily token counters. */
  readonly chatBudget: ChatBudgetRepository;
  /** The store's own facts: seeding, the links' signing key. */
  readonly meta: MetaRepository;
  /** What a no-JS form post hands the page it redirects to (a form flash). */
  readonly flashes: FlashesRepository;
  /** The scheduled functions' latest runs and the last send on each channel (the launch checklist). */
  readonly runs: RunsRepository;
  /** Businesses' webhook endpoints, their delivery logs and API keys. */
  readonly webhooks: WebhooksRepository;
  /** Businesses' reports of bad leads, counted by reason and by form for /admin. */
  readonly leadReports: LeadReportsRepository;
  /** Each business's private calendar feed key (a new one retires the old feed URL). */
  readonly calendarFeeds: CalendarFeedsRepository;
  /** Businesses' capacity statements: taking storm jobs, fully booked until a day. */
  readonly capacity: CapacityRepository;
  /** The requests that arrived inside each storm event (the storm board's index). */
  readonly stormLeads: StormLeadsRepository;
  /** Storm events the operator declared, and the NWS alerts suggested to the operator. */
  readonly storms: StormsRepository;
  /** Resolves once the store is loaded (and seeded, for a fresh embedded store). */
  ready(): Promise<void>;
  /** Runs many writes as one unit: the embedded store locks its file once and saves once. */
  batch<T>(fn: () => Promise<T>): Promise<T>;
  /** Releases connections (tests, scripts); functions never need it. */
  close(): Promise<void>;
}
