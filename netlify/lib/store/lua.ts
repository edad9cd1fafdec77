/**
 * Lua for the writes that must read before they write: a business upsert, a review and its
 * moderation (each recomputes the order score, see score.ts, and rewrites it in every index
 * set of the business in one atomic step, so concurrent reviews never lose a count), an
 * operator's lead edit and a routing change (compare-and-set, with the lead's status sets), the
 * notification outbox's claims and a business's response outcomes.
 *
 * Portability: the same text runs on Redis 7 (Lua 5.1), Upstash and ioredis-mock (fengari,
 * Lua 5.3), so the scripts avoid unpack, cjson, error replies and float formatting, and
 * return strings rather than numbers. Every key is passed in KEYS.
 */
import { LEAD_STATUSES } from "../../../src/lib/schemas/lead.ts";

const ORDER_SCORE = `
local function order_score(feat, sum, count)
  local tenths = 0
  if count > 0 then tenths = math.floor(sum * 10 / count + 0.5) end
  return feat * 10000000 + tenths * 10000 + math.min(count, 9999)
end
`;

/**
 * A review changed the business's aggregate: stores sum and count, then rewrites the order
 * score in every index set. Shared by the two review scripts, which agree on this much of
 * their layout: KEYS[1] business, KEYS[4] idx:all, KEYS[5] idx:geo, term keys from first_term
 * on; ARGV[1] business id.
 */
const STORE_AGGREGATE = `${ORDER_SCORE}
local function store_aggregate(sum, count, first_term)
  redis.call('HSET', KEYS[1], 'sum', tostring(sum), 'count', tostring(count))
  local feat = tonumber(redis.call('HGET', KEYS[1], 'feat') or '0')
  local rank = tonumber(redis.call('HGET', KEYS[1], 'rank') or '0')
  local order = order_score(feat, sum, count)
  local banded = rank * 100000000 + order
  redis.call('ZADD', KEYS[4], order, ARGV[1])
  redis.call('ZADD', KEYS[5], banded, ARGV[1])
  for i = first_term, #KEYS do redis.call('ZADD', KEYS[i], banded, ARGV[1]) end
end
`;

/**
 * KEYS: business, slugs, idx:all, idx:geo, idx:ver, removed term keys..., current term keys...
 * ARGV: id, doc, slug, rank, feat (0|1), terms json, expected tv, removed count, initial sum, initial count
 * -> {"ok", created(0|1)} | {"stale"} | {"slug_taken", owner}
 */
export const UPSERT_BUSINESS = `${ORDER_SCORE}
local tv = redis.call('HGET', KEYS[1], 'tv') or '0'
if tv ~= ARGV[7] then return {'stale'} end
local owner = redis.call('HGET', KEYS[2], ARGV[3])
if owner and owner ~= ARGV[1] then return {'slug_taken', owner} end
local old_slug = redis.call('HGET', KEYS[1], 'slug')
if old_slug and old_slug ~= ARGV[3] then redis.call('HDEL', KEYS[2], old_slug) end
redis.call('HSET', KEYS[2], ARGV[3], ARGV[1])
local sum = redis.call('HGET', KEYS[1], 'sum')
local count = redis.call('HGET', KEYS[1], 'count')
local created = '0'
if not sum then
  sum = ARGV[9]
  count = ARGV[10]
  created = '1'
end
redis.call('HSET', KEYS[1], 'doc', ARGV[2], 'slug', ARGV[3], 'rank', ARGV[4], 'feat', ARGV[5],
  'terms', ARGV[6], 'tv', tostring(tonumber(tv) + 1), 'sum', sum, 'count', count)
local order = order_score(tonumber(ARGV[5]), tonumber(sum), tonumber(count))
local banded = tonumber(ARGV[4]) * 100000000 + order
redis.call('ZADD', KEYS[3], order, ARGV[1])
redis.call('ZADD', KEYS[4], banded, ARGV[1])
local removed = tonumber(ARGV[8])
for i = 6, 5 + removed do redis.call('ZREM', KEYS[i], ARGV[1]) end
for i = 6 + removed, #KEYS do redis.call('ZADD', KEYS[i], banded, ARGV[1]) end
redis.call('INCR', KEYS[5])
return {'ok', created}
`;

/**
 * KEYS: business, reviews, reviews by date, idx:all, idx:geo, idx:ver, reviews:all, reviews:owner,
 *       review e-mails, term keys...
 * ARGV: business id, review id, review json, stars, createdAt ms, expected tv, e-mail hash ('' = none)
 * -> {"ok", sum, count} | {"missing"} | {"duplicate", review json} | {"email_taken", review id} | {"stale"}
 *
 * The e-mail claim (one review per e-mail per business) is checked and written in the same
 * step as the review, so two concurrent posts from one address cannot both pass.
 *
 * A duplicate (a re-run seed) still enters the admin's review index, which is how reviews
 * stored before that index existed get into it.
 */
export const ADD_REVIEW = `${STORE_AGGREGATE}
if redis.call('EXISTS', KEYS[1]) == 0 then return {'missing'} end
local existing = redis.call('HGET', KEYS[2], ARGV[2])
if existing then
  redis.call('ZADD', KEYS[7], ARGV[5], ARGV[2])
  redis.call('HSET', KEYS[8], ARGV[2], ARGV[1])
  return {'duplicate', existing}
end
if ARGV[7] ~= '' then
  local holder = redis.call('HGET', KEYS[9], ARGV[7])
  if holder then return {'email_taken', holder} end
end
local tv = redis.call('HGET', KEYS[1], 'tv') or '0'
if tv ~= ARGV[6] then return {'stale'} end
if ARGV[7] ~= '' then redis.call('HSET', KEYS[9], ARGV[7], ARGV[2]) end
redis.call('HSET', KEYS[2], ARGV[2], ARGV[3])
redis.call('ZADD', KEYS[3], ARGV[5], ARGV[2])
redis.call('ZADD', KEYS[7], ARGV[5], ARGV[2])
redis.call('HSET', KEYS[8], ARGV[2], ARGV[1])
local sum = tonumber(redis.call('HGET', KEYS[1], 'sum') or '0') + tonumber(ARGV[4])
local count = tonumber(redis.call('HGET', KEYS[1], 'count') or '0') + 1
store_aggregate(sum, count, 10)
redis.call('INCR', KEYS[6])
return {'ok', tostring(sum), tostring(count)}
`;

/**
 * The operator verifies, hides or shows a review. The JSON is rewritten only if it is still
 * what the caller read (Lua here has no JSON parser on every transport, so the caller builds
 * the new text); hiding takes the review out of the public date index and its stars out of
 * the aggregate, showing puts both back, and the order score follows in every index set.
 *
 * KEYS: business, reviews, reviews by date, idx:all, idx:geo, idx:ver, term keys...
 * ARGV: business id, review id, expected json, new json, shown delta (-1 hide, 1 show, 0 none),
 *       stars, createdAt ms, expected tv
 * -> {"ok", sum, count} | {"missing"} | {"no_review"} | {"stale"}
 */
export const MODERATE_REVIEW = `${STORE_AGGREGATE}
if redis.call('EXISTS', KEYS[1]) == 0 then return {'missing'} end
local current = redis.call('HGET', KEYS[2], ARGV[2])
if not current then return {'no_review'} end
if current ~= ARGV[3] then return {'stale'} end
local tv = redis.call('HGET', KEYS[1], 'tv') or '0'
if tv ~= ARGV[8] then return {'stale'} end
redis.call('HSET', KEYS[2], ARGV[2], ARGV[4])
local sum = tonumber(redis.call('HGET', KEYS[1], 'sum') or '0')
local count = tonumber(redis.call('HGET', KEYS[1], 'count') or '0')
local delta = tonumber(ARGV[5])
if delta ~= 0 then
  -- A hidden review keeps its place in the date index (the public page shows its reason
  -- there); only its stars leave the aggregate. ZADD also restores reviews hidden before.
  redis.call('ZADD', KEYS[3], ARGV[7], ARGV[2])
  sum = math.max(0, sum + delta * tonumber(ARGV[6]))
  count = math.max(0, count + delta)
  store_aggregate(sum, count, 7)
end
redis.call('INCR', KEYS[6])
return {'ok', tostring(sum), tostring(count)}
`;

/**
 * An owner's reply to a review: the review's JSON is rewritten only if it is still what the
 * caller read, so a reply never undoes a concurrent moderation (nor moderation a reply); the
 * rating, the indexes and the e-mail claim are not touched.
 * KEYS: reviews. ARGV: review id, expected json, new json -> 'ok' | 'no_review' | 'stale'
 */
export const REWRITE_REVIEW = `
local current = redis.call('HGET', KEYS[1], ARGV[1])
if not current then return 'no_review' end
if current ~= ARGV[2] then return 'stale' end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[3])
return 'ok'
`;

/**
 * Moves a lead between its status and urgency sets, given the first of them at KEYS[k] (the
 * status sets in LEAD_STATUSES order, then leads:urgency:emergency, leads:urgency:urgent,
 * leads:emergencies) and its facts at ARGV[a] (status position 1..n, urgency, "1" when it is
 * an open emergency). The lead leaves every status set and enters its own, so a retried or
 * concurrent write can never leave it in two.
 */
const MOVE_FACETS = `
local function move_facets(k, a, id)
  local n = ${LEAD_STATUSES.length}
  for i = k, k + n - 1 do redis.call('ZREM', KEYS[i], id) end
  redis.call('ZADD', KEYS[k - 1 + tonumber(ARGV[a])], 0, id)
  if ARGV[a + 1] == 'emergency' then redis.call('ZADD', KEYS[k + n], 0, id) end
  if ARGV[a + 1] == 'urgent' then redis.call('ZADD', KEYS[k + n + 1], 0, id) end
  if ARGV[a + 2] == '1' then
    redis.call('ZADD', KEYS[k + n + 2], 0, id)
  else
    redis.call('ZREM', KEYS[k + n + 2], id)
  end
end
`;

/** Keys MOVE_FACETS takes: one set per status, two urgencies, the open emergencies. */
export const FACET_KEY_COUNT = LEAD_STATUSES.length + 3;

/**
 * A lead's status and urgency sets, kept with the lead: an operator's edit (compare-and-set,
 * WATCH is not available over REST) and the one-time re-indexing of leads stored before (same
 * check; a write only when the stored status must change).
 * KEYS: lead, then MOVE_FACETS's keys.
 * ARGV: expected JSON, new JSON ("" = keep the lead as it is), lead id, then MOVE_FACETS's
 * facts (status position, urgency, open emergency) -> 'ok' | 'stale' | 'missing'
 */
export const SET_LEAD_FACETS = `${MOVE_FACETS}
local current = redis.call('GET', KEYS[1])
if not current then return 'missing' end
if current ~= ARGV[1] then return 'stale' end
if ARGV[2] ~= '' then redis.call('SET', KEYS[1], ARGV[2]) end
move_facets(2, 4, ARGV[3])
return 'ok'
`;

/**
 * A routing change (an answer, the response clock): compare-and-set the lead, then in the
 * same step set or clear its clock entry, queue its messages and move it to the status its
 * offers give it, so a change is never stored without the messages it owes and the admin's
 * filters never disagree with the lead.
 * KEYS: lead, clock zset, outbox item, outbox zset, MOVE_FACETS's keys, then one
 * businessLeads zset per delivery.
 * ARGV: expected JSON, new JSON, lead id, clock score ms ("" = off the clock), fresh outbox
 * item JSON, now ms, MOVE_FACETS's facts (status position, urgency, open emergency), then
 * each delivery's offer time ms (same order as its key) -> 'ok' | 'stale' | 'missing'. The
 * business's lead list gets the lead in the same step (NX: the first offer time stays), so
 * an owner's page never misses an offered lead.
 */
export const MUTATE_LEAD = `${MOVE_FACETS}
local current = redis.call('GET', KEYS[1])
if not current then return 'missing' end
if current ~= ARGV[1] then return 'stale' end
redis.call('SET', KEYS[1], ARGV[2])
if ARGV[4] == '' then
  redis.call('ZREM', KEYS[2], ARGV[3])
else
  redis.call('ZADD', KEYS[2], ARGV[4], ARGV[3])
end
if redis.call('EXISTS', KEYS[3]) == 0 then redis.call('SET', KEYS[3], ARGV[5]) end
redis.call('ZADD', KEYS[4], ARGV[6], ARGV[3])
move_facets(5, 7, ARGV[3])
local first = 5 + ${LEAD_STATUSES.length + 3}
for i = first, #KEYS do redis.call('ZADD', KEYS[i], 'NX', ARGV[i - first + 10], ARGV[3]) end
return 'ok'
`;

/**
 * Claims due outbox items: each one's next-attempt score moves to the end of a lease, so a
 * concurrent notifier (the scheduled run next to a response's own attempt) skips it, and a
 * notifier that dies mid-delivery leaves it due again once the lease ends.
 * KEYS: outbox zset. ARGV: now ms, lease end ms, max items -> claimed lead ids, space-separated
 * (ioredis-mock cannot return a table built in a loop; lead ids never contain spaces).
 */
export const CLAIM_OUTBOX = `
local ids = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[1], 'LIMIT', 0, tonumber(ARGV[3]))
for _, id in ipairs(ids) do redis.call('ZADD', KEYS[1], ARGV[2], id) end
return table.concat(ids, ' ')
`;

/**
 * Claims one outbox item if it is due (the attempt right after a lead's response).
 * KEYS: outbox zset. ARGV: lead id, now ms, lease end ms -> "ok" | "busy" | "gone"
 */
export const CLAIM_OUTBOX_ITEM = `
local score = redis.call('ZSCORE', KEYS[1], ARGV[1])
if not score then return 'gone' end
if tonumber(score) > tonumber(ARGV[2]) then return 'busy' end
redis.call('ZADD', KEYS[1], ARGV[3], ARGV[1])
return 'ok'
`;

/**
 * Settles a claimed outbox item, unless the lead was queued again while it was held (an
 * answer or the clock changed it: its score moved from the lease end to "now"), in which
 * case the item stays due and the next notifier composes the new messages.
 * KEYS: outbox zset, outbox item. ARGV: lead id, lease end ms, "done" | "retry", item JSON,
 * next attempt ms -> 'ok' | 'requeued' | 'gone'
 */
export const SETTLE_OUTBOX_ITEM = `
local score = redis.call('ZSCORE', KEYS[1], ARGV[1])
if not score then return 'gone' end
if tonumber(score) ~= tonumber(ARGV[2]) then return 'requeued' end
if ARGV[3] == 'done' then
  redis.call('ZREM', KEYS[1], ARGV[1])
  redis.call('DEL', KEYS[2])
else
  redis.call('SET', KEYS[2], ARGV[4])
  redis.call('ZADD', KEYS[1], ARGV[5], ARGV[1])
end
return 'ok'
`;

/**
 * Takes the given ids out of a sorted set and deletes the set once it is empty (the old retry
 * queue after its move into the outbox; ioredis-mock keeps an emptied set otherwise).
 * KEYS: the set. ARGV: ids -> 'ok'
 */
export const TAKE_FROM_SET = `
for _, id in ipairs(ARGV) do redis.call('ZREM', KEYS[1], id) end
if redis.call('ZCARD', KEYS[1]) == 0 then redis.call('DEL', KEYS[1]) end
return 'ok'
`;

/** The figures over a business's kept outcomes (KEYS[1] the business, KEYS[2] the list), as `rt`. */
const STORE_FIGURES = `
local function store_figures(count)
  local xs = {}
  local in_time = 0
  local offers = 0
  for _, v in ipairs(redis.call('LRANGE', KEYS[2], 0, -1)) do
    local kind, minutes = string.match(v, '^[^|]+|([alm])|(%d+)|')
    offers = offers + 1
    if kind == 'a' then in_time = in_time + 1 end
    if kind ~= 'm' then xs[#xs + 1] = tonumber(minutes) end
  end
  local median = '-'
  if #xs > 0 then
    table.sort(xs)
    local half = math.floor(#xs / 2)
    local twice
    if #xs % 2 == 1 then twice = xs[half + 1] * 2 else twice = xs[half] + xs[half + 1] end
    median = tostring(math.floor(twice / 2))
    if twice % 2 == 1 then median = median .. '.5' end
  end
  local after = median .. ' ' .. tostring(count) .. ' ' .. tostring(in_time) .. ' ' .. tostring(offers) .. ' ' .. tostring(#xs)
  redis.call('HSET', KEYS[1], 'rt', after)
  return after
end
`;

/**
 * Records how one lead offer ended for a business, once per lead: pushes the outcome, keeps the
 * newest ARGV[5], and stores the figures over them in the business's `rt` field ("median count
 * in-time offers answers": the answers' median minutes or "-", every answer ever, and over the
 * kept outcomes those answered by the deadline, all of them and those answered at all), in one
 * step so concurrent outcomes never lose one. A lead already among the kept outcomes changes
 * nothing ("repeated"). Entries without an outcome (the older "minutes:at" answers) are dropped:
 * they cannot say whether the answer came in time. Minutes are whole, so the median is built as
 * text ("12" or "12.5") rather than formatted as a float.
 * A lead in the business's reported set records nothing ("repeated").
 * KEYS: business, its outcomes list, its reported leads. ARGV: lead id, outcome (a: answered in time, l: answered
 * late, m: missed), whole minutes (0 for a miss), at ms, window
 * -> {"ok" | "repeated", rt before, rt after} | {"missing"}
 */
export const RECORD_OUTCOME = `${STORE_FIGURES}
if redis.call('EXISTS', KEYS[1]) == 0 then return {'missing'} end
local before = redis.call('HGET', KEYS[1], 'rt') or ''
local prefix = ARGV[1] .. '|'
-- A lead the business reported never counts (EXCLUDE_OUTCOME).
if redis.call('SISMEMBER', KEYS[3], ARGV[1]) == 1 then return {'repeated', before, before} end
for _, v in ipairs(redis.call('LRANGE', KEYS[2], 0, -1)) do
  if string.sub(v, 1, #prefix) == prefix then return {'repeated', before, before} end
  if not string.match(v, '^[^|]+|[alm]|%d+|%d+$') then redis.call('LREM', KEYS[2], 0, v) end
end
redis.call('LPUSH', KEYS[2], prefix .. ARGV[2] .. '|' .. ARGV[3] .. '|' .. ARGV[4])
redis.call('LTRIM', KEYS[2], 0, tonumber(ARGV[5]) - 1)
local count = tonumber(string.match(before, '^%S+ (%d+)') or '0') or 0
if ARGV[2] ~= 'm' then count = count + 1 end
return {'ok', before, store_figures(count)}
`;

/**
 * A lead the business reported (a bad lead: docs/lead-delivery.md, "Reporting a lead") leaves
 * its figures: its outcome, if one was kept, is taken out and the figures stored again, and the
 * lead is remembered so no outcome recorded later (a late answer, the clock) counts either.
 * Once per lead ("repeated" after).
 * KEYS: business, its outcomes list, its reported leads (set). ARGV: lead id
 * -> {"ok" | "repeated", rt before, rt after} | {"missing"}
 */
export const EXCLUDE_OUTCOME = `${STORE_FIGURES}
if redis.call('EXISTS', KEYS[1]) == 0 then return {'missing'} end
local before = redis.call('HGET', KEYS[1], 'rt') or ''
if redis.call('SADD', KEYS[3], ARGV[1]) == 0 then return {'repeated', before, before} end
local prefix = ARGV[1] .. '|'
local count = tonumber(string.match(before, '^%S+ (%d+)') or '0') or 0
local found = false
for _, v in ipairs(redis.call('LRANGE', KEYS[2], 0, -1)) do
  if string.sub(v, 1, #prefix) == prefix then
    found = true
    redis.call('LREM', KEYS[2], 0, v)
    if string.match(v, '^[^|]+|([alm])|') ~= 'm' and count > 0 then count = count - 1 end
  end
end
if not found then return {'ok', before, before} end
return {'ok', before, store_figures(count)}
`;

/**
 * A business's report of a lead, kept once per lead and business: the report itself, its place
 * in the newest-first list, and the counts by reason and by form, in one step.
 * KEYS: the reports zset, the reports hash (id -> JSON), the counts hash.
 * ARGV: id (lead|business), report JSON, at ms, reason, form -> 1 added | 0 already there
 */
export const ADD_REPORT = `
if redis.call('HSETNX', KEYS[2], ARGV[1], ARGV[2]) == 0 then return 0 end
redis.call('ZADD', KEYS[1], ARGV[3], ARGV[1])
redis.call('HINCRBY', KEYS[3], 'total', 1)
redis.call('HINCRBY', KEYS[3], 'reason:' .. ARGV[4], 1)
redis.call('HINCRBY', KEYS[3], 'form:' .. ARGV[5], 1)
return 1
`;

/**
 * A one-time value (an owner's sign-in link): read and delete in one step, so two posts of the
 * same link can never both get it.
 *
 * KEYS: the value's key -> the value, or false when there is none
 */
export const TAKE_ONCE = `
local v = redis.call('GET', KEYS[1])
if not v then return false end
redis.call('DEL', KEYS[1])
return v
`;

/**
 * An owner's SMS code tried: the right hash takes the code (deleted, its grant returned); a
 * wrong one counts a try, and the last allowed wrong try deletes the code.
 *
 * KEYS: the code's hash key (fields: hash, grant, tries)
 * ARGV: the tried code's hash, the most tries allowed
 * -> {"ok", grant} | {"missing"} | {"wrong", tries left as text} | {"gone"}
 */
export const TRY_CODE = `
local h = redis.call('HGET', KEYS[1], 'hash')
if not h then return {'missing'} end
if h == ARGV[1] then
  local grant = redis.call('HGET', KEYS[1], 'grant')
  redis.call('DEL', KEYS[1])
  return {'ok', grant}
end
local tries = redis.call('HINCRBY', KEYS[1], 'tries', 1)
local left = tonumber(ARGV[2]) - tries
if left <= 0 then
  redis.call('DEL', KEYS[1])
  return {'gone'}
end
return {'wrong', tostring(left)}
`;

/**
 * A claim decided (or proved): rewritten only if it is still what the caller read, and out of
 * the operator's queue unless it stays pending, so two decisions never both run.
 *
 * KEYS: the claim, the pending zset
 * ARGV: expected json, new json, claim id, '1' to leave the queue
 * -> "ok" | "stale"
 */
export const SETTLE_CLAIM = `
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 'stale' end
redis.call('SET', KEYS[1], ARGV[2])
if ARGV[4] == '1' then redis.call('ZREM', KEYS[2], ARGV[3]) end
return 'ok'
`;

/**
 * One more under every cap, or none: counted only when no counter has reached its most, so
 * a refused request uses up nothing and concurrent ones never pass a cap together.
 *
 * KEYS: the counters
 * ARGV: each counter's most (in KEYS order), then the counters' lifetime in seconds
 * -> 1 counted | 0 refused
 */
export const COUNT_UNDER_CAPS = `
for i, key in ipairs(KEYS) do
  local n = tonumber(redis.call('GET', key) or '0') or 0
  if n >= tonumber(ARGV[i]) then return 0 end
end
for i, key in ipairs(KEYS) do
  redis.call('INCR', key)
  redis.call('EXPIRE', key, tonumber(ARGV[#KEYS + 1]))
end
return 1
`;

/**
 * Replaces a JSON document only if it is still the one read (compare-and-set): a webhook
 * endpoint that several deliveries update at once (failures in a row, disabled) never loses one.
 * KEYS: the document. ARGV: expected JSON, new JSON -> "ok" | "changed" | "gone"
 */
export const COMPARE_AND_SET = `
local current = redis.call('GET', KEYS[1])
if not current then return 'gone' end
if current ~= ARGV[1] then return 'changed' end
redis.call('SET', KEYS[1], ARGV[2])
return 'ok'
`;
