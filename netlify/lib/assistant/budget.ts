/**
 * The assistant's daily token budget, counted by the store (repos/chat-budget.ts) per UTC day
 * and shared by every function instance.
 *
 * Each model call reserves its worst case first (estimated input + max output), so concurrent
 * requests cannot all slip under the line together; a reservation that crosses the budget is
 * handed back and the fallback answers. After the call the reservation is corrected to the
 * usage the API reported. A call that timed out may still have been billed, so its
 * reservation stays counted; one the API refused is handed back.
 *
 * Each client (by address) also has its own counter for the day, capped at a share of the
 * budget (CHAT_CLIENT_BUDGET_PERCENT, default 5%), so one client cannot spend what every
 * other visitor would get; a reservation must fit under both lines.
 */
import type { Store } from "../store/index.ts";

/**
 * Rough token count of text for a reservation, from its UTF-8 bytes rather than its
 * characters: English runs about 4 bytes a token, so 3 errs high; a CJK character is 3
 * bytes and about one token, where counting characters would be 3x low.
 */
export function estimateTokens(text: string): number {
  return Math.ceil(Buffer.byteLength(text, "utf8") / 3);
}

/** Tokens set aside for one model call, on the day they were reserved. */
export interface Reservation {
  readonly tokens: number;
  /** Replaces the reservation by what was actually used (0 hands it all back). */
  settle(used: number): Promise<void>;
}

export interface TokenBudget {
  /** Reserves `tokens`; null (and nothing kept) when that would pass the day's budget. */
  reserve(tokens: number): Promise<Reservation | null>;
  /** Tokens counted today. */
  used(): Promise<number>;
}

/** Whose reservation this is, and the fraction of the day's budget one client may use. */
export interface ClientShare {
  /** The client's address (see clientIp); null: no identity, so no share and no Claude. */
  client: string | null;
  /** 0 < share <= 1. */
  share: number;
}

export function storeTokenBudget(
  store: Pick<Store, "chatBudget">,
  limit: number,
  now: () => number = Date.now,
  perClient?: ClientShare,
): TokenBudget {
  const clientLimit = perClient ? Math.floor(limit * Math.min(1, Math.max(0, perClient.share))) : limit;
  return {
    async reserve(tokens) {
      if (limit <= 0 || clientLimit <= 0) return null;
      // A client nobody can tell apart from the others has no share of its own to spend.
      if (perClient && perClient.client === null) return null;
      // The reservation's own day, so a call that straddles midnight corrects the right counter.
      const at = now();
      const client = perClient?.client ?? undefined;
      const lines = { total: limit, ...(client === undefined ? {} : { client: { id: client, limit: clientLimit } }) };
      if (!(await store.chatBudget.reserve(tokens, at, lines))) return null;
      return {
        tokens,
        async settle(used) {
          await store.chatBudget.adjust(Math.max(0, Math.round(used)) - tokens, at, client);
        },
      };
    },
    used: () => store.chatBudget.used(now()),
  };
}
