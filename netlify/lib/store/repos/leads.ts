/**
 * Leads: every form submission, stored with its indexes in one MULTI/EXEC before the API
 * answers 2xx.
 */
import { createHash } from "node:crypto";
import type { Redis } from "@upstash/redis";
import { Lead as LeadSchema, LeadType, type Lead } from "../../../../src/lib/schemas/lead.ts";
import { asJson, asString } from "../decode.ts";
import { timeId, isTimeId } from "../ids.ts";
import type { Keys } from "../keys.ts";

/** Same idempotency key within this window returns the first lead. */
export const IDEMPOTENCY_TTL_SECONDS = 24 * 60 * 60;
const MAX_PAGE = 100;

export interface CreateLeadOptions {
  /** Site path the form was on, e.g. "/services/tree-removal". */
  sourcePage: string;
  /** Client-chosen key (e.g. the Idempotency-Key header); repeats within 24h are not stored again. */
  idempotencyKey?: string;
}

export interface CreateLeadResult<T> {
  lead: Lead<T>;
  /** True when the idempotency key had been seen and `lead` is the first one stored. */
  duplicate: boolean;
}

export interface LeadPage {
  /** Newest first. */
  items: Lead[];
  /** Pass back as `cursor` for the next (older) page; null on the last page. */
  nextCursor: string | null;
}

export interface LeadsRepository {
  create<T>(type: LeadType, data: T, options: CreateLeadOptions): Promise<CreateLeadResult<T>>;
  get(id: string): Promise<Lead | null>;
  /** Newest first; omit type for every type. */
  list(type?: LeadType, options?: { cursor?: string | null; limit?: number }): Promise<LeadPage>;
}

export function leadsRepository(redis: Redis, keys: Keys): LeadsRepository {
  async function get(id: string): Promise<Lead | null> {
    if (!isTimeId("ld", id)) return null;
    return asJson<Lead>(await redis.get(keys.lead(id)));
  }

  /** The lead a repeated idempotency key points to (waits briefly if the first write is in flight). */
  async function firstFor(idemKey: string): Promise<{ id: string; lead: Lead | null }> {
    const id = asString(await redis.get(idemKey));
    if (!id) throw new Error("idempotency claim vanished");
    for (let attempt = 0; attempt < 5; attempt++) {
      const lead = await get(id);
      if (lead) return { id, lead };
      await new Promise((r) => setTimeout(r, 20 * (attempt + 1)));
    }
    return { id, lead: null };
  }

  return {
    async create<T>(type: LeadType, data: T, options: CreateLeadOptions): Promise<CreateLeadResult<T>> {
      LeadType.parse(type);
      if (data === undefined) throw new TypeError("lead data is required");
      let id = timeId("ld");
      if (options.idempotencyKey) {
        const hash = createHash("sha256").update(options.idempotencyKey).digest("hex").slice(0, 32);
        const idemKey = keys.leadIdempotency(type, hash);
        const claimed = await redis.set(idemKey, id, { nx: true, ex: IDEMPOTENCY_TTL_SECONDS });
        if (claimed === null) {
          const first = await firstFor(idemKey);
          if (first.lead) return { lead: first.lead as Lead<T>, duplicate: true };
          // The first request claimed the key but never wrote (crashed): finish its write.
          id = first.id;
        }
      }
      const lead: Lead<T> = {
        id,
        type,
        createdAt: new Date().toISOString(),
        sourcePage: options.sourcePage,
        status: "new",
        data,
      };
      LeadSchema.parse(lead);
      const tx = redis.multi();
      tx.set(keys.lead(id), JSON.stringify(lead));
      tx.zadd(keys.leadsByType(type), { score: 0, member: id });
      tx.zadd(keys.leadsAll, { score: 0, member: id });
      await tx.exec();
      return { lead, duplicate: false };
    },

    get,

    async list(type?: LeadType, options: { cursor?: string | null; limit?: number } = {}): Promise<LeadPage> {
      const limit = Math.max(1, Math.min(MAX_PAGE, Math.floor(options.limit ?? 20)));
      const cursor = options.cursor ?? null;
      if (cursor !== null && !isTimeId("ld", cursor)) throw new RangeError("invalid cursor");
      const index = type ? keys.leadsByType(LeadType.parse(type)) : keys.leadsAll;
      // Ids sort by time, so the index is read in reverse lexicographic order from the cursor.
      const raw = await redis.exec<unknown[]>([
        "ZREVRANGEBYLEX",
        index,
        cursor ? `(${cursor}` : "+",
        "-",
        "LIMIT",
        "0",
        String(limit + 1),
      ]);
      const ids = (raw ?? []).map((v) => asString(v) ?? "");
      const page = ids.slice(0, limit);
      if (page.length === 0) return { items: [], nextCursor: null };
      const docs = await redis.mget<unknown[]>(...page.map((id) => keys.lead(id)));
      const items = docs.map((d) => asJson<Lead>(d)).filter((l): l is Lead => l !== null);
      return { items, nextCursor: ids.length > limit ? (page[page.length - 1] ?? null) : null };
    },
  };
}
