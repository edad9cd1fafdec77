/**
 * Every bound on what one chat request may cost (OWASP LLM10, unbounded consumption), in
 * one place: body size, history window, output tokens, model calls, time, requests per
 * minute and tokens per day. The environment can tighten or loosen the last three and
 * choose the model (src/lib/env.ts: CHAT_*, ANTHROPIC_MODEL, with their defaults).
 */
import { MAX_HISTORY_MESSAGES, type ChatMessage } from "../../../src/lib/chat.ts";
import { KB } from "../http.ts";

/** 20 turns of 2,000 characters plus JSON overhead fit; anything bigger is abuse (413). */
export const CHAT_BODY_LIMIT = 64 * KB;

/** Output tokens per model call: a chat reply is a few sentences. */
export const MAX_OUTPUT_TOKENS = 600;

/** Model calls per visitor message: the first answer plus up to two tool round trips. */
export const MAX_MODEL_CALLS = 3;

/** Wall-clock budget for all model calls of one request; past it the fallback answers. */
export const CLAUDE_TIMEOUT_MS = 10_000;

/**
 * The newest MAX_HISTORY_MESSAGES messages. Trimming, not refusing: the widget already
 * sends no more than this, and anyone else gets an answer about the recent conversation.
 */
export function trimHistory(messages: readonly ChatMessage[]): ChatMessage[] {
  return messages.slice(-MAX_HISTORY_MESSAGES);
}
