/**
 * POST /api/chat: one visitor message in, one assistant message out.
 *
 *   method (405) -> content type (415, JSON only) -> per-IP limit (429) -> body size (413)
 *   -> parse and schema (400 { error, fields }) -> trim to the last 20 messages ->
 *   Claude (key set, budget left) or the built-in assistant -> 200 { message, actions? }
 *
 * Every way Claude can fail (no key, budget spent or uncountable, API error, timeout,
 * refusal, empty answer) ends in the built-in assistant with a 200, so the widget's
 * failure message is kept for real outages of this function. The log line says which
 * assistant answered and why, never what anybody wrote.
 */
import type Anthropic from "@anthropic-ai/sdk";
import { ChatRequest, type ChatReply } from "../../../src/lib/chat.ts";
import { fieldErrors } from "../../../src/lib/schemas/forms.ts";
import { siteUrl } from "../../../src/lib/site.ts";
import { CROSS_SITE_ERROR, HttpError, bodyKind, clientIp, decodeText, errorName, isCrossSite, jsonError, jsonResponse, parseJsonObject, readBody } from "../http.ts";
import { RATE_LIMIT_ERROR, checkRateLimit } from "../ratelimit.ts";
import { getStore, type Store } from "../store/index.ts";
import { redisTokenBudget, type TokenBudget } from "./budget.ts";
import { CHAT_BODY_LIMIT, chatModel, chatRateLimitPerMinute, clientBudgetShare, dailyTokenBudget, trimHistory } from "./caps.ts";
import { askClaude, createClaudeClient, type NoAnswer } from "./claude.ts";
import { fallbackReply } from "./fallback.ts";
import { buildSystemPrompt } from "./prompt.ts";

export const CHAT_VALIDATION_ERROR = "Please check the chat messages.";

/** Seams for tests; production reads process.env and the shared store. */
export interface ChatDeps {
  store?: () => Store;
  env?: Record<string, string | undefined>;
  now?: () => number;
  /** Builds the Claude client (null: none configured). */
  claude?: (env: Record<string, string | undefined>) => Anthropic | null;
  /** Overrides the 10 s deadline (tests of the timeout path). */
  timeoutMs?: number;
}

export type ChatHandler = (req: Request, context?: { ip?: string } | null) => Promise<Response>;

type Why = NoAnswer | "no-api-key" | "store-unavailable";


export function chatHandler(deps: ChatDeps = {}): ChatHandler {
  const env = deps.env ?? process.env;
  const now = deps.now ?? Date.now;
  const storeOf = deps.store ?? getStore;
  const clientOf = deps.claude ?? createClaudeClient;
  let client: Anthropic | null | undefined;
  let system: string | undefined;

  async function handle(req: Request, context?: { ip?: string } | null): Promise<Response> {
    if (req.method !== "POST") return jsonError(405, "Method not allowed. Use POST.", {}, { allow: "POST" });
    if (bodyKind(req) !== "json") return jsonError(415, "Unsupported content type. Send application/json.");
    if (isCrossSite(req, siteUrl(env))) return jsonError(403, CROSS_SITE_ERROR);

    // Without a store the chat still answers (built-in assistant); it just cannot count.
    let store: Store | null = null;
    try {
      store = storeOf();
    } catch (error) {
      console.error(`[chat] store unavailable (${errorName(error)})`);
    }
    if (store) {
      const limited = await checkRateLimit(store, "chat", clientIp(req, context), chatRateLimitPerMinute(env), now);
      if (!limited.ok) return jsonError(429, RATE_LIMIT_ERROR, {}, { "retry-after": String(limited.retryAfterSeconds) });
    }

    let payload: Record<string, unknown>;
    try {
      payload = parseJsonObject(decodeText(await readBody(req, CHAT_BODY_LIMIT)));
    } catch (error) {
      if (error instanceof HttpError) return jsonError(error.status, error.message, {}, error.headers);
      throw error;
    }
    const parsed = ChatRequest.safeParse(payload);
    if (!parsed.success) return jsonError(400, CHAT_VALIDATION_ERROR, { fields: fieldErrors(parsed.error) });
    const messages = trimHistory(parsed.data.messages);

    const started = now();
    const answer = (reply: ChatReply, log: string) => {
      console.info(`[chat] ${log}, ${now() - started} ms`);
      return jsonResponse(reply.actions?.length ? { message: reply.message, actions: reply.actions } : { message: reply.message });
    };
    const fallback = (why: Why) => answer(fallbackReply(messages), `built-in assistant answered (${why})`);

    if (client === undefined) client = clientOf(env);
    if (!client) return fallback("no-api-key");
    if (!store) return fallback("store-unavailable");

    const budget: TokenBudget = redisTokenBudget(store.redis, store.prefix, dailyTokenBudget(env), now, { client: clientIp(req, context), share: clientBudgetShare(env) });
    const result = await askClaude(client, { model: chatModel(env), system: (system ??= buildSystemPrompt()), messages, budget, timeoutMs: deps.timeoutMs });
    if (!result.ok) {
      console.warn(`[chat] Claude did not answer: ${result.reason} (${result.calls} calls, ${result.tokens} tokens)`);
      return fallback(result.reason);
    }
    return answer(result, `Claude answered (${result.calls} calls, ${result.tokens} tokens)`);
  }

  return async (req, context) => {
    try {
      return await handle(req, context);
    } catch (error) {
      // Only a bug gets here: user input is answered with 4xx above.
      console.error(`[chat] unexpected failure (${errorName(error)})`);
      return jsonError(500, "Something went wrong on our side. Please try again or call us.");
    }
  };
}
