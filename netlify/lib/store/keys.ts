/**
 * Every Redis key the repositories touch, in one place (layout documented in README.md).
 * All keys start with the configured prefix so environments can share a database.
 */
import type { LeadStatus, LeadType } from "../../../src/lib/schemas/lead.ts";

export type Keys = ReturnType<typeof keyspace>;

export function keyspace(prefix: string) {
  const p = prefix;
  return {
    prefix: p,
    /** Hash: doc (profile JSON), slug, rank, feat, sum, count, terms, tv, near, rt (response time). */
    business: (id: string) => `${p}biz:${id}`,
    /** List: the business's latest offer outcomes, newest first ("lead|a, l or m|minutes|at ms"). */
    responses: (id: string) => `${p}biz:${id}:resp`,
    /** Set: lead ids the business reported: their outcomes never count in its figures. */
    reportedLeads: (id: string) => `${p}biz:${id}:reported`,
    /** String: the business's current calendar feed key (its private feed's URL signs it; a new one retires the old). */
    calendarFeed: (id: string) => `${p}biz:${id}:cal`,
    /** Hash: slug -> business id. */
    slugs: `${p}biz:slugs`,
    /** Zset of every business, score = order score (featured, rating, review count). */
    all: `${p}idx:all`,
    /** Zset of every business, score = city band + order score. */
    geo: `${p}idx:geo`,
    /** Zset of every located business, score = 52-bit geohash of its point (what GEOADD stores). */
    near: `${p}idx:loc`,
    /** Same, only businesses offering one service (slug of the PRO_SERVICES value). */
    nearService: (service: string) => `${p}idx:loc:s:${service}`,
    /** Same, only businesses answering emergency calls 24/7. */
    nearEmergency: `${p}idx:loc:e`,
    /** Zset per search term (word or word prefix), score = city band + order score. */
    term: (term: string) => `${p}idx:t:${term}`,
    /** Counter bumped by every directory write; part of the multi-term cache key. */
    version: `${p}idx:ver`,
    /** Cached intersection for a multi-term search at one directory version (short TTL). */
    query: (version: string | number, terms: readonly string[]) => `${p}idx:q:${version}:${terms.join("+")}`,
    /** Hash: review id -> review JSON. */
    reviews: (businessId: string) => `${p}rev:${businessId}`,
    /** Zset: review id by createdAt (ms); shown reviews only (a hidden one is taken out). */
    reviewsByDate: (businessId: string) => `${p}rev:${businessId}:by-date`,
    /** Hash: sha256 of the reviewer's trimmed, lower-cased e-mail -> review id (one review per e-mail per business). */
    reviewEmails: (businessId: string) => `${p}rev:${businessId}:emails`,
    /** Zset: every review id of every business (hidden ones too) by createdAt (ms), for /admin. */
    reviewsAll: `${p}reviews:all`,
    /** Hash: review id -> business id (a review is addressed by its id alone in /admin). */
    reviewOwner: `${p}reviews:owner`,
    /** String: lead envelope JSON. */
    lead: (id: string) => `${p}lead:${id}`,
    /** Zset (all scores 0): lead ids of one type; ids sort by time, so lex order = age. */
    leadsByType: (type: LeadType) => `${p}leads:${type}`,
    /** Zset (all scores 0): every lead id. */
    leadsAll: `${p}leads:all`,
    /** Zset (all scores 0): lead ids in one status (new and escalated make the "N need you" count). */
    leadsByStatus: (status: LeadStatus) => `${p}leads:status:${status}`,
    /** Zset (all scores 0): lead ids of one urgency; routine (and leads without one) has no set. */
    leadsByUrgency: (urgency: "emergency" | "urgent") => `${p}leads:urgency:${urgency}`,
    /** Zset (all scores 0): open emergencies (urgency emergency, not accepted, not closed), pinned in /admin. */
    leadsEmergencies: `${p}leads:emergencies`,
    /** Hash: lead id -> search text (folded name, e-mail, phone digits), scanned by /admin search. */
    leadText: `${p}leads:text`,
    /** Zset: lead and claim ids with an undelivered notification, score = next attempt (ms). */
    outbox: `${p}outbox`,
    /** String: outbox item JSON (attempts, next attempt, last error), one per lead or claim id. */
    outboxItem: (leadId: string) => `${p}outbox:${leadId}`,
    /** String: the message JSON (schemas/message.ts), one per lead, event and channel. */
    message: (id: string) => `${p}msg:${id}`,
    /** Zset: every message id, score = created (ms), for the admin's Messages view. */
    messages: `${p}msgs`,
    /** Set: one lead's message ids. */
    leadMessages: (leadId: string) => `${p}msgs:lead:${leadId}`,
    /** Zset: lead ids whose response clock runs, score = the next deadline (ms). */
    clock: `${p}clock`,
    /** String: reference ("TL-7KQ2-9F") -> lead id; claimed with NX, so references are unique. */
    reference: (reference: string) => `${p}ref:${reference}`,
    /** String with a short TTL: failed admin sign-ins from one client address. */
    adminFailures: (client: string) => `${p}admin:fail:${client}`,
    /** String with 24h TTL: idempotency key hash -> lead id. */
    leadIdempotency: (type: LeadType, keyHash: string) => `${p}lead:idem:${type}:${keyHash}`,
    /**
     * Hash: store metadata (seededAt, seededFrom; sampleData, "yes" when that seeding loaded the
     * sample directory; linkSecret, the answer links' key when LINK_SIGNING_SECRET is unset;
     * leadStatuses, "done" once every lead is in the sets of today's statuses).
     */
    meta: `${p}meta`,
    /** Hash: owner e-mail (lower-cased) -> JSON {email, via, since}: who may run this business's listing. */
    owners: (businessId: string) => `${p}biz:${businessId}:owners`,
    /** Set: the businesses an owner e-mail (lower-cased) runs: a returning owner's sign-in finds them here. */
    ownerBusinesses: (email: string) => `${p}owner:biz:${email}`,
    /** Set: every business with at least one owner (a sign-in by the phone on file looks among these). */
    ownedBusinesses: `${p}owned`,
    /** String with the session's TTL: owner session id -> JSON {businessId, email, createdAt}. */
    ownerSession: (id: string) => `${p}owner:sess:${id}`,
    /** String with a short TTL: sha256 of a one-time sign-in link's token -> JSON of what it grants. */
    ownerLink: (tokenHash: string) => `${p}owner:link:${tokenHash}`,
    /** Hash with a short TTL: an SMS sign-in code's hash, its business, phone and failed attempts. */
    ownerCode: (id: string) => `${p}owner:code:${id}`,
    /** String with a short TTL: failed owner sign-ins (links, codes) from one client address. */
    ownerFailures: (client: string) => `${p}owner:fail:${client}`,
    /** String with a day's TTL: wrong sign-in codes tried against one business (its id hashed), from every address. */
    ownerCodeFailures: (business: string) => `${p}owner:codefail:${business}`,
    /** String: claim JSON (a claim of a listed business or a business to add), by claim id. */
    claim: (id: string) => `${p}claim:${id}`,
    /** Zset: every claim id by created (ms), for /admin. */
    claims: `${p}claims`,
    /** Zset: pending claim ids by created (ms): the operator's queue. */
    claimsPending: `${p}claims:pending`,
    /** String: one change to a business's listing (before/after of the fields changed), by change id. */
    change: (id: string) => `${p}change:${id}`,
    /** Zset: one business's change ids by time (ms). */
    businessChanges: (businessId: string) => `${p}biz:${businessId}:changes`,
    /** Zset: every change id by time (ms), for /admin. */
    changes: `${p}changes`,
    /** Zset: ids of businesses with a license or insurance waiting for the operator's check, by when stated (ms). */
    credentialsPending: `${p}credentials:pending`,
    /** Zset: lead ids offered to one business, by offer time (ms): the owner's "leads sent to you". */
    businessLeads: (businessId: string) => `${p}biz:${businessId}:leads`,
    /** Zset: lead reports ("lead id|business id") by when reported (ms), for /admin. */
    reports: `${p}reports`,
    /** Hash: lead report id ("lead id|business id") -> report JSON (schemas/lead-report.ts). */
    reportDocs: `${p}reports:doc`,
    /** Hash: report counts: "total", "reason:{reason}", "form:{lead type}". */
    reportCounts: `${p}reports:count`,
    /** String with a short TTL: a form flash (what a no-JS post hands the page it redirects to), by its random id. */
    flash: (id: string) => `${p}flash:${id}`,
    /** List: one scheduled function's latest runs (JSON, schemas/runs.ts), newest first; RUNS_KEPT of them. */
    runs: (name: string) => `${p}runs:${name}`,
    /** Hash: channel (email, sms, webhook) -> its last send's result (JSON): one record per channel. */
    lastSends: `${p}sends:last`,
    /** String: one webhook endpoint's JSON (schemas in src/lib/webhooks.ts), by endpoint id. */
    webhookEndpoint: (id: string) => `${p}wh:ep:${id}`,
    /** Zset: one business's webhook endpoint ids by creation (ms). */
    businessWebhooks: (businessId: string) => `${p}biz:${businessId}:wh`,
    /** String: one webhook delivery's JSON (the event's body and every attempt), by delivery id. */
    webhookDelivery: (id: string) => `${p}wh:dl:${id}`,
    /** Zset: one endpoint's delivery ids by event time (ms), its newest WEBHOOK_LOG_SIZE only. */
    webhookLog: (endpointId: string) => `${p}wh:ep:${endpointId}:log`,
    /** String: sha256 of an API key (hex) -> the key's record JSON (its business). */
    apiKey: (hash: string) => `${p}apikey:${hash}`,
    /** Hash: one business's API key ids -> the key's hash. */
    businessApiKeys: (businessId: string) => `${p}biz:${businessId}:apikeys`,
    /** String: a business's capacity statement (JSON, src/lib/capacity.ts): taking storm jobs, or fully booked until a day. */
    capacity: (businessId: string) => `${p}biz:${businessId}:cap`,
    /** Zset: businesses with a capacity statement, score = when stated (ms). */
    capacityStated: `${p}cap:stated`,
    /** Zset: the lead ids that arrived inside one storm event, score = arrival (ms). */
    stormLeads: (stormId: string) => `${p}storm:${stormId}:leads`,
    /** Hash: storm event id -> StormEvent JSON (src/lib/storm.ts), every event the operator declared. */
    storms: `${p}storms`,
    /** Hash: NWS alert id -> StormSuggestion JSON: alerts suggested to the operator, pruned once long over. */
    stormSuggestions: `${p}storms:suggested`,
    /** String (60 s TTL): /api/health's write probe. */
    healthProbe: `${p}health:probe`,
    /** Prefix of @upstash/ratelimit's own keys (it appends `:{endpoint}:{ip}` and its window). */
    rateLimits: `${p}ratelimit`,
    /** String (counter, 3,700 s TTL): review posts to one business in one clock hour (hours since the epoch). */
    reviewRate: (businessId: string, hour: number) => `${p}ratelimit:review-business:${businessId}:${hour}`,
    /** String (counter, 2 days TTL): one cap's count on one UTC day (YYYY-MM-DD) for one thing (sha256, 32 hex). */
    dailyCap: (name: string, id: string, day: string) => `${p}ratelimit:day:${name}:${id}:${day}`,
    /** String (counter, 2 days TTL): tokens the assistant's model used on one UTC day (YYYY-MM-DD). */
    chatBudget: (day: string) => `${p}chat:budget:${day}`,
    /** String (counter, 2 days TTL): the same, for one client (sha256 of its address, 32 hex). */
    chatClientBudget: (day: string, client: string) => `${p}chat:budget:${day}:client:${client}`,
  };
}
