/**
 * POST /api/chat: one visitor message in, one assistant message out.
 *
 *   method (405) -> content type (415: JSON, or a form post) -> per-IP limit (429) -> body
 *   size (413) -> parse and schema (400 { error, fields }) -> trim to the last 20 messages
 *   -> Claude (key set, budget left) or the built-in assistant -> 200 { message, actions? }
 *
 * A form post (application/x-www-form-urlencoded: the panel's form without JavaScript)
 * takes the same path with the same schema and assistant, and is answered with a page:
 * the conversation, the reply and the form to go on (page.ts); its errors are pages too.
 * As with the lead forms, a form post that accepts JSON gets the JSON answers.
 *
 * Every way Claude can fail (no key, budget spent or uncountable, API error, timeout,
 * refusal, empty answer) ends in the built-in assistant with a 200, so the widget's
 * failure message is kept for real outages of this function. The log line says which
 * assistant answered and why, never what anybody wrote.
 */
import type Anthropic from "@anthropic-ai/sdk";
import { ChatMessage, ChatRequest, chatRequestFromForm, historyForRequest, type ChatReply } from "../../../src/lib/chat.ts";
import { fieldErrors } from "../../../src/lib/schemas/forms.ts";
import { siteUrl } from "../../../src/lib/site.ts";
import { CROSS_SITE_ERROR, HttpError, bodyKind, clientIp, decodeText, errorName, htmlResponse, isCrossSite, jsonError, jsonResponse, parseJsonObject, readBody, wantsPage } from "../http.ts";
import { problemPage } from "../pages.ts";
import { RATE_LIMIT_ERROR, checkRateLimit } from "../ratelimit.ts";
import { getStore, type Store } from "../store/index.ts";
import { redisTokenBudget, type TokenBudget } from "./budget.ts";
import { CHAT_BODY_LIMIT, chatModel, chatRateLimitPerMinute, clientBudgetShare, dailyTokenBudget, trimHistory } from "./caps.ts";
import { askClaude, createClaudeClient, type NoAnswer } from "./claude.ts";
import { fallbackReply } from "./fallback.ts";
import { chatPage } from "./page.ts";
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

/** Headings of the no-JS problem pages. */
const PAGE_TITLES: Record<number, string> = {
  400: "We couldn't read that message",
  403: "Message not sent",
  413: "That message is too long",
  429: "Too many messages",
  500: "Something went wrong",
};


/** An error as the client can read it: JSON, or a page for a form post. */
function fail(html: boolean, status: number, message: string, headers: Record<string, string> = {}): Response {
  return html ? htmlResponse(problemPage(PAGE_TITLES[status] ?? PAGE_TITLES[500]!, message), status, headers) : jsonError(status, message, {}, headers);
}

export function chatHandler(deps: ChatDeps = {}): ChatHandler {
  const env = deps.env ?? process.env;
  const now = deps.now ?? Date.now;
  const storeOf = deps.store ?? getStore;
  const clientOf = deps.claude ?? createClaudeClient;
  let client: Anthropic | null | undefined;
  let system: string | undefined;

  async function handle(req: Request, context?: { ip?: string } | null): Promise<Response> {
    if (req.method !== "POST") return jsonError(405, "Method not allowed. Use POST.", {}, { allow: "POST" });
    const kind = bodyKind(req);
    if (kind !== "json" && kind !== "urlencoded") return jsonError(415, "Unsupported content type. Send application/json.");
    // As the lead forms: a form post is answered with a page unless the client asked for JSON.
    const html = wantsPage(req);
    if (isCrossSite(req, siteUrl(env))) return fail(html, 403, CROSS_SITE_ERROR);

    // Without a store the chat still answers (built-in assistant); it just cannot count.
    let store: Store | null = null;
    try {
      store = storeOf();
    } catch (error) {
      console.error(`[chat] store unavailable (${errorName(error)})`);
    }
    if (store) {
      const limited = await checkRateLimit(store, "chat", clientIp(req, context), chatRateLimitPerMinute(env), now);
      if (!limited.ok) return fail(html, 429, RATE_LIMIT_ERROR, { "retry-after": String(limited.retryAfterSeconds) });
    }

    let payload: Record<string, unknown>;
    let form: ReturnType<typeof chatRequestFromForm> | undefined;
    try {
      const text = decodeText(await readBody(req, CHAT_BODY_LIMIT));
      if (kind === "urlencoded") payload = form = chatRequestFromForm(new URLSearchParams(text));
      else payload = parseJsonObject(text);
    } catch (error) {
      if (error instanceof HttpError) return fail(html, error.status, error.message, error.headers);
      throw error;
    }
    const parsed = ChatRequest.safeParse(payload);
    if (!parsed.success) {
      const fields = fieldErrors(parsed.error);
      if (!form || !html) return jsonError(400, CHAT_VALIDATION_ERROR, { fields });
      // The page keeps what can be kept: the well-formed part of the conversation and the visitor's text.
      const shown = form.messages.slice(0, -1).filter((m): m is ChatMessage => ChatMessage.safeParse(m).success);
      const error = [...new Set(Object.values(fields))].join(" ") || CHAT_VALIDATION_ERROR;
      return htmlResponse(chatPage({ messages: historyForRequest(shown), error, draft: form.message }), 400);
    }
    const messages = trimHistory(parsed.data.messages);

    const started = now();
    const answer = (reply: ChatReply, log: string) => {
      console.info(`[chat] ${log}${html ? " (page)" : ""}, ${now() - started} ms`);
      const actions = reply.actions?.length ? { actions: reply.actions } : {};
      if (html) return htmlResponse(chatPage({ messages: [...messages, { role: "assistant", content: reply.message, ...actions }] }));
      return jsonResponse({ message: reply.message, ...actions });
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
      return fail(wantsPage(req), 500, "Something went wrong on our side. Please try again or call us.");
    }
  };
}
