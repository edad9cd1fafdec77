/**
 * Every bound on what one chat request may cost (OWASP LLM10, unbounded consumption), in
 * one place: body size, history window, output tokens, model calls, time, requests per
 * minute and tokens per day. The environment can tighten or loosen the last three.
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

/** The inexpensive default: Claude Haiku 5.5, the current Haiku (platform.claude.com models overview). */
export const DEFAULT_MODEL = "claude-haiku-5-5";

/** Tokens (input + output, all calls) the site may spend per UTC day before the fallback takes over. */
export const DEFAULT_DAILY_TOKEN_BUDGET = 2_000_000;

/** Percent of the daily token budget one client (address) may use: 20 clients share a day at least. */
export const DEFAULT_CLIENT_BUDGET_PERCENT = 5;

/** Chat messages per minute per IP: a brisk human types well under this. */
export const DEFAULT_CHAT_RATE_LIMIT_PER_MINUTE = 12;

type Env = Record<string, string | undefined>;

function wholeNumber(raw: string | undefined, fallback: number): number {
  const text = raw?.trim();
  if (!text) return fallback;
  const n = Number(text.replace(/[_,]/g, ""));
  return Number.isInteger(n) && n >= 0 ? n : fallback;
}

/** CHAT_DAILY_TOKEN_BUDGET; 0 keeps Claude off (the built-in assistant answers everything). */
export function dailyTokenBudget(env: Env = process.env): number {
  return wholeNumber(env.CHAT_DAILY_TOKEN_BUDGET, DEFAULT_DAILY_TOKEN_BUDGET);
}

/**
 * CHAT_CLIENT_BUDGET_PERCENT as a fraction (1-100 percent, decimals allowed); anything else
 * falls back to the default 5%.
 */
export function clientBudgetShare(env: Env = process.env): number {
  const n = Number(env.CHAT_CLIENT_BUDGET_PERCENT?.trim() || NaN);
  return (Number.isFinite(n) && n > 0 && n <= 100 ? n : DEFAULT_CLIENT_BUDGET_PERCENT) / 100;
}

/** CHAT_RATE_LIMIT_PER_MINUTE; 0 turns the limiter off (load tests). */
export function chatRateLimitPerMinute(env: Env = process.env): number {
  return wholeNumber(env.CHAT_RATE_LIMIT_PER_MINUTE, DEFAULT_CHAT_RATE_LIMIT_PER_MINUTE);
}

/** ANTHROPIC_MODEL, or the inexpensive default. */
export function chatModel(env: Env = process.env): string {
  return env.ANTHROPIC_MODEL?.trim() || DEFAULT_MODEL;
}

/**
 * The newest MAX_HISTORY_MESSAGES messages. Trimming, not refusing: the widget already
 * sends no more than this, and anyone else gets an answer about the recent conversation.
 */
export function trimHistory(messages: readonly ChatMessage[]): ChatMessage[] {
  return messages.slice(-MAX_HISTORY_MESSAGES);
}
