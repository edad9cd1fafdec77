/**
 * The message log (schemas/message.ts): every message a lead produces, kept whether or not it
 * could be sent. Ids are deterministic (lead, event, channel), so composing a lead's messages
 * again after a crash or a retry adds nothing: `ensure` writes only the ones that are new.
 */
import type { Redis } from "@upstash/redis";
import { Message } from "../../../../src/lib/schemas/message.ts";
import { asJson, asNumber, asString } from "../decode.ts";
import type { Keys } from "../keys.ts";

export interface MessagesRepository {
  /** Stores the messages not stored yet; returns every one as stored (an existing one wins). */
  ensure(messages: Message[]): Promise<Message[]>;
  get(id: string): Promise<Message | null>;
  /** Several by id in one MGET; unknown ids are left out. */
  getMany(ids: readonly string[]): Promise<Message[]>;
  /** One lead's messages, oldest first. */
  forLead(leadId: string): Promise<Message[]>;
  /** Replaces stored messages (their state after a send), in one round trip; never re-creates one that is gone. */
  update(...messages: Message[]): Promise<void>;
  /** Newest first. */
  list(options?: { offset?: number; limit?: number }): Promise<{ items: Message[]; total: number }>;
}

export function messagesRepository(redis: Redis, keys: Keys): MessagesRepository {
  async function load(ids: string[]): Promise<Message[]> {
    if (ids.length === 0) return [];
    const docs = await redis.mget<unknown[]>(...ids.map(keys.message));
    return docs.flatMap((d) => {
      const parsed = Message.safeParse(asJson(d));
      return parsed.success ? [parsed.data] : [];
    });
  }
  const byTime = (a: Message, b: Message) => a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id);

  return {
    async ensure(messages) {
      if (messages.length === 0) return [];
      const tx = redis.multi();
      for (const m of messages) {
        tx.set(keys.message(m.id), JSON.stringify(Message.parse(m)), { nx: true });
        tx.zadd(keys.messages, { nx: true }, { score: Date.parse(m.createdAt), member: m.id });
        tx.sadd(keys.leadMessages(m.leadId), m.id);
      }
      await tx.exec();
      return load(messages.map((m) => m.id));
    },

    getMany: (ids) => load([...ids]),
    async get(id) {
      const [m] = await load([id]);
      return m ?? null;
    },

    async forLead(leadId) {
      const ids = (await redis.smembers<unknown[]>(keys.leadMessages(leadId))).map((v) => asString(v) ?? "");
      return (await load(ids)).sort(byTime);
    },

    async update(...messages) {
      if (messages.length === 0) return;
      const p = redis.pipeline();
      for (const m of messages) p.set(keys.message(m.id), JSON.stringify(Message.parse(m)), { xx: true });
      await p.exec();
    },

    async list(options = {}) {
      const limit = Math.max(1, Math.min(200, Math.floor(options.limit ?? 50)));
      const offset = Math.max(0, Math.floor(options.offset ?? 0));
      const p = redis.pipeline();
      p.zrange(keys.messages, offset, offset + limit - 1, { rev: true });
      p.zcard(keys.messages);
      const [ids, total] = await p.exec<[unknown[], number]>();
      return { items: await load(ids.map((v) => asString(v) ?? "")), total: asNumber(total) };
    },
  };
}
