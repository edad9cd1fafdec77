/**
 * The data layer: one @upstash/redis client over one of three transports, and the typed
 * repositories on top. Functions call getStore(); tests call createStore().
 *
 *   UPSTASH_REDIS_REST_URL + _TOKEN -> "upstash"  (production, REST)
 *   REDIS_URL                       -> "redis"    (tests, CI, a local redis-server)
 *   neither                         -> "embedded" (in-process, persisted under TREELINE_DATA_DIR)
 */
import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { Redis } from "@upstash/redis";
import { env as currentEnv, parseEnv, type RawEnv } from "../../../src/lib/env.ts";
import { keyspace } from "./keys.ts";
import type { BusinessesRepository } from "./repos/businesses.types.ts";
import { businessesRepository } from "./repos/businesses.ts";
import { leadsRepository } from "./repos/leads.ts";
import type { LeadsRepository } from "./repos/leads.types.ts";
import { outboxRepository, type OutboxRepository } from "./repos/outbox.ts";
import { messagesRepository, type MessagesRepository } from "./repos/messages.ts";
import { reviewsRepository, type ReviewsRepository } from "./repos/reviews.ts";
import { ownersRepository, type OwnersRepository } from "./repos/owners.ts";
import { ownerSessionsRepository, type OwnerSessionsRepository } from "./repos/owner-sessions.ts";
import { ownerSignInsRepository, type OwnerSignInsRepository } from "./repos/owner-sign-ins.ts";
import { claimsRepository, type ClaimsRepository } from "./repos/claims.ts";
import { listingChangesRepository, type ListingChangesRepository } from "./repos/listing-changes.ts";
import { credentialChecksRepository, type CredentialChecksRepository } from "./repos/credential-checks.ts";
import { businessLeadsRepository, type BusinessLeadsRepository } from "./repos/business-leads.ts";
import { lockoutsRepository, type LockoutsRepository } from "./repos/lockouts.ts";
import { rateLimitsRepository, type RateLimitsRepository } from "./repos/rate-limits.ts";
import { chatBudgetRepository, type ChatBudgetRepository } from "./repos/chat-budget.ts";
import { metaRepository, type MetaRepository } from "./repos/meta.ts";
import { flashesRepository, type FlashesRepository } from "./repos/flashes.ts";
import { countRoundTrips } from "./round-trips.ts";
import { DEFAULT_SEED_FILE, readSeedFile, seedDirectory } from "./seed.ts";
import { BackendRequester, type CommandBackend, type Reply } from "./transports/requester.ts";
import type { EmbeddedBackend } from "./transports/embedded.ts";
import type { IORedisBackend } from "./transports/redis.ts";

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
export type { MetaRepository } from "./repos/meta.ts";
export type { FlashesRepository } from "./repos/flashes.ts";
export type { SeedReport } from "./seed.ts";

export type StoreKind = "upstash" | "redis" | "embedded";

export const DEFAULT_PREFIX = "treeline:";

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
  /** Resolves once the store is loaded (and seeded, for a fresh embedded store). */
  ready(): Promise<void>;
  /** Runs many writes as one unit: the embedded store locks its file once and saves once. */
  batch<T>(fn: () => Promise<T>): Promise<T>;
  /** Releases connections (tests, scripts); functions never need it. */
  close(): Promise<void>;
}

/**
 * The store the configuration (src/lib/env.ts) picks; `source` is a raw environment to read
 * instead (tests, and the local server's openLocalStore).
 * - The embedded store is memory-only in a function; see embeddedFileFromEnv for the local server.
 * - Seeding on first use (when there are no businesses) is on for the embedded store and off
 *   for the servers; TREELINE_AUTO_SEED=1/0 overrides either way.
 */
export function storeOptionsFromEnv(source?: RawEnv): CreateStoreOptions {
  const env = source ? parseEnv(source) : currentEnv();
  const prefix = env.REDIS_KEY_PREFIX;
  const seed = (byDefault: boolean) => {
    const wanted = env.TREELINE_AUTO_SEED ?? byDefault;
    const file = resolve(env.TREELINE_SEED_FILE ?? DEFAULT_SEED_FILE);
    return wanted && existsSync(file) ? file : undefined;
  };
  if (env.UPSTASH_REDIS_REST_URL && env.UPSTASH_REDIS_REST_TOKEN) {
    return {
      transport: "upstash",
      url: env.UPSTASH_REDIS_REST_URL,
      token: env.UPSTASH_REDIS_REST_TOKEN,
      prefix,
      seedFile: seed(false),
    };
  }
  if (env.REDIS_URL) return { transport: "redis", url: env.REDIS_URL, prefix, seedFile: seed(false) };
  // Memory only here, or the local server's own persisted store when it lends one (local.ts):
  // any data-file path in code the functions import gets traced into their bundles.
  return { transport: "embedded", prefix, seedFile: seed(true) };
}

/**
 * How long a command may take before the request gives up with the store-failure answer
 * (503): a hung server (frozen, or a network that drops packets) must not hold a visitor.
 */
export const STORE_TIMEOUT_MS = 2_500;

type OwnedBackend = CommandBackend & { close(): Promise<void>; readonly file?: string };

/**
 * The local server's embedded backend, lent to every copy of this module it runs (the
 * functions it imports and the bundled on-demand page function each carry one), so all of
 * them share one store. A global, not a module variable, for that reason.
 */
const LENT = Symbol.for("treeline.embedded-backend");
type WithLent = typeof globalThis & { [LENT]?: OwnedBackend };

export function lendEmbeddedBackend(backend: OwnedBackend | undefined): void {
  (globalThis as WithLent)[LENT] = backend;
}

/** Loads a transport module on first use, so production never loads ioredis or the mock. */
class LazyBackend implements CommandBackend {
  private backend?: Promise<CommandBackend & { close(): Promise<void> }>;
  constructor(
    readonly scriptCache: "server" | "local",
    private readonly load: () => Promise<CommandBackend & { close(): Promise<void> }>,
  ) {}
  get(): Promise<CommandBackend & { close(): Promise<void> }> {
    this.backend ??= this.load();
    return this.backend;
  }
  async command(args: string[]): Promise<unknown> {
    return (await this.get()).command(args);
  }
  async pipeline(commands: string[][]): Promise<Reply[]> {
    return (await this.get()).pipeline(commands);
  }
  async transaction(commands: string[][]): Promise<Reply[]> {
    return (await this.get()).transaction(commands);
  }
  /** A lent backend belongs to the server that lent it: closing this store leaves it open. */
  borrowed = false;
  async close(): Promise<void> {
    if (this.backend && !this.borrowed) await (await this.backend).close();
  }
}

function redactUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = "***";
    return u.toString().replace(/\/$/, "");
  } catch {
    return "(unparseable url)";
  }
}

export function createStore(options: CreateStoreOptions): Store {
  const prefix = options.prefix ?? DEFAULT_PREFIX;
  const keys = keyspace(prefix);
  let redis: Redis;
  let lazy: LazyBackend | undefined;
  let description: string;

  switch (options.transport) {
    case "upstash":
      redis = new Redis({
        url: options.url,
        token: options.token,
        // One deadline per command across its retries; a refused connection retries briefly.
        signal: () => AbortSignal.timeout(STORE_TIMEOUT_MS),
        retry: { retries: 2, backoff: (attempt) => 100 * 2 ** attempt },
      });
      description = `Upstash Redis over REST at ${redactUrl(options.url)}`;
      break;
    case "redis": {
      const url = options.url;
      lazy = new LazyBackend("server", async () => {
        const { IORedisBackend } = await import("./transports/redis.ts");
        return new IORedisBackend(url, { timeoutMs: STORE_TIMEOUT_MS }) as IORedisBackend;
      });
      redis = new Redis(new BackendRequester(lazy));
      description = `Redis at ${redactUrl(url)}`;
      break;
    }
    case "embedded": {
      const file = options.file;
      const lent = file ? undefined : (globalThis as WithLent)[LENT];
      lazy = new LazyBackend("local", async () => {
        if (lent) return lent;
        const { EmbeddedBackend } = await import("./transports/embedded.ts");
        return new EmbeddedBackend({ file }) as EmbeddedBackend;
      });
      redis = new Redis(new BackendRequester(lazy));
      const where = lent ? lent.file : file;
      description = `${lent ? "this server's " : ""}embedded store ${where ? `persisted to ${where}` : "in memory"}`;
      if (lent) lazy.borrowed = true;
      break;
    }
  }

  countRoundTrips(redis);

  const raw = {
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
  };

  const batch = async <T>(fn: () => Promise<T>): Promise<T> => {
    if (options.transport !== "embedded" || !lazy) return fn();
    const backend = (await lazy.get()) as unknown as EmbeddedBackend;
    return backend.exclusive(fn);
  };

  const seedFile = options.seedFile;
  let readyPromise: Promise<void> | undefined;
  const ready = () =>
    (readyPromise ??= (async () => {
      if (lazy) await lazy.get();
      if (!seedFile) return;
      // Embedded: one batch (other callers wait), so concurrent first requests seed once.
      // Servers: two instances may both seed, which is harmless because seeding is idempotent.
      await batch(async () => {
        if ((await raw.businesses.count()) > 0) return;
        const report = await seedDirectory(raw, readSeedFile(seedFile));
        await raw.meta.seeded(seedFile);
        console.log(
          `[store] seeded ${report.businesses} businesses and ${report.reviewsAdded} reviews from ${seedFile}`,
        );
      });
    })());

  if (options.log) console.log(`[store] using ${description} (key prefix "${prefix}")`);

  return {
    kind: options.transport,
    prefix,
    redis,
    description,
    ping: () => within(redis.ping().then((pong) => pong === "PONG")),
    writable: () =>
      within(
        options.transport === "embedded"
          ? // Saving the whole store for every health check would cost a full snapshot each time.
            lazy!.get().then((backend) => (backend as unknown as EmbeddedBackend).canSave())
          : // A key of its own that expires: nothing else reads it, so the probe changes nothing.
            redis.set(keys.healthProbe, new Date().toISOString(), { ex: 60 }).then((ok) => ok === "OK"),
      ),
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
    ready,
    batch,
    async close() {
      await lazy?.close();
    },
  };
}

/** `answer`, or false when it fails or takes longer than 2 s. */
async function within(answer: Promise<boolean>): Promise<boolean> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), 2_000);
  });
  try {
    return await Promise.race([answer.catch(() => false), timeout]);
  } finally {
    clearTimeout(timer);
  }
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

let current: Store | undefined;

/** The store for this process (one per warm function instance), picked from the environment. */
export function getStore(): Store {
  current ??= createStore({ ...storeOptionsFromEnv(), log: true });
  return current;
}
