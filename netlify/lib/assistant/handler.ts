/**
 * POST /api/chat: one visitor message in, one assistant message out.
 *
 *   method (405) -> content type (415: JSON, or a form post) -> cross-site (403) -> per-IP
 *   limit (429) -> body size (413) -> parse and schema (400 { error, fields }) -> trim to
 *   the last 20 messages -> Claude (key set, budget left) or the built-in assistant ->
 *   200 { message, actions? }
 *
 * The steps up to the body are the ones every endpoint takes (http.ts).
 *
 * A form post (application/x-www-form-urlencoded: the panel's form without JavaScript)
 * takes the same path with the same schema and assistant, and ends in a 303 to the chat's
 * page (/chat, src/pages/chat.astro) with the conversation and the reply in a form flash;
 * a refused post goes there too, with its message. As with the lead forms, a form post that
 * accepts JSON gets the JSON answers.
 *
 * Every way Claude can fail (no key, budget spent or uncountable, API error, timeout,
 * refusal, empty answer) ends in the built-in assistant with a 200, so the widget's
 * failure message is kept for real outages of this function. The log line says which
 * assistant answered and why, never what anybody wrote.
 */
import type Anthropic from "@anthropic-ai/sdk";
import {
  ChatMessage,
  ChatRequest,
  chatRequestFromForm,
  historyForRequest,
  type ChatReply,
} from "../../../src/lib/chat.ts";
import { fieldErrors } from "../../../src/lib/schemas/forms.ts";
import { CHAT_IDS } from "../../../src/lib/chat.ts";
import { redirectWithFlash } from "../form-flash.ts";
import { clientIp, endpoint, jsonError, jsonResponse, type Endpoint, type EndpointDeps, type Env } from "../http.ts";
import { CONVERSATION_FIELD, DRAFT_FIELD } from "../page-data/chat.ts";
import type { Store } from "../store/index.ts";
import { storeTokenBudget, type TokenBudget } from "./budget.ts";
import { CHAT_BODY_LIMIT, trimHistory } from "./caps.ts";
import { askClaude, createClaudeClient, type NoAnswer } from "./claude.ts";
import { fallbackReply } from "./fallback.ts";
import { chatStorm } from "./storm.ts";
import { buildSystemPrompt } from "./prompt.ts";

export const CHAT_VALIDATION_ERROR = "Please check the chat messages.";

/** Seams for tests; production reads the environment (env.ts) and the shared store. */
export interface ChatDeps extends EndpointDeps {
  /** Builds the Claude client (null: none configured). */
  claude?: (env: Env) => Anthropic | null;
  /** Overrides the 10 s deadline (tests of the timeout path). */
  timeoutMs?: number;
}

export type ChatHandler = Endpoint;

type Why = NoAnswer | "no-api-key" | "store-unavailable";

/** The chat's own page, where a no-JS post goes on (opened at the newest message). */
export const CHAT_PAGE = "/chat";

/** 303 to the chat page with the conversation (and a refused post's text and message). */
function toChatPage(
  store: Store | null,
  status: number,
  messages: readonly unknown[],
  refused?: { draft: string; error: string },
) {
  const values = {
    [CONVERSATION_FIELD]: JSON.stringify(messages),
    ...(refused ? { [DRAFT_FIELD]: refused.draft } : {}),
  };
  const errors: Record<string, string> = refused ? { [DRAFT_FIELD]: refused.error } : {};
  return redirectWithFlash(store, { path: CHAT_PAGE, status, values, errors }, {}, CHAT_IDS.latest);
}

export function chatHandler(deps: ChatDeps = {}): ChatHandler {
  const now = deps.now ?? Date.now;
  const clientOf = deps.claude ?? createClaudeClient;
  let client: Anthropic | null | undefined;
  let system: string | undefined;

  const spec = {
    log: "[chat]",
    methods: ["POST"],
    // A form post is the panel's form without JavaScript; only JSON is advertised.
    body: { json: CHAT_BODY_LIMIT, urlencoded: CHAT_BODY_LIMIT },
    accepts: "Unsupported content type. Send application/json.",
    sameSiteOnly: true,
    // Without a store the chat still answers (built-in assistant); it just cannot count.
    optionalStore: true,
    rateLimit: { name: "chat", perMinute: (env: Env) => env.CHAT_RATE_LIMIT_PER_MINUTE },
    bug: "Something went wrong on our side. Please try again or call us.",
    formPage: () => CHAT_PAGE,
  } as const;

  return endpoint(spec, { store: deps.store, env: deps.env, now }, async ({ req, context, store, env, body, html }) => {
    // POST is the only method, so there is always a body.
    const { kind, value } = body!;
    const form = kind === "urlencoded" ? chatRequestFromForm(value) : undefined;
    const parsed = ChatRequest.safeParse(form ?? value);
    if (!parsed.success) {
      const fields = fieldErrors(parsed.error);
      if (!form || !html) return jsonError(400, CHAT_VALIDATION_ERROR, { fields });
      // The page keeps what can be kept: the well-formed part of the conversation and the visitor's text.
      const shown = form.messages.slice(0, -1).filter((m): m is ChatMessage => ChatMessage.safeParse(m).success);
      const error = [...new Set(Object.values(fields))].join(" ") || CHAT_VALIDATION_ERROR;
      return toChatPage(store, 422, historyForRequest(shown), { draft: form.message, error });
    }
    const messages = trimHistory(parsed.data.messages);

    const started = now();
    const answer = (reply: ChatReply, log: string) => {
      console.info(`[chat] ${log}${html ? " (page)" : ""}, ${now() - started} ms`);
      const actions = reply.actions?.length ? { actions: reply.actions } : {};
      if (html) return toChatPage(store, 200, [...messages, { role: "assistant", content: reply.message, ...actions }]);
      return jsonResponse({ message: reply.message, ...actions });
    };
    // A ZIP the visitor gave inside a declared storm: its estimates carry the storm line.
    const storm = await chatStorm(messages, store, now());
    const fallback = (why: Why) => answer(fallbackReply(messages, storm), `built-in assistant answered (${why})`);

    if (client === undefined) client = clientOf(env);
    if (!client) return fallback("no-api-key");
    if (!store) return fallback("store-unavailable");

    const budget: TokenBudget = storeTokenBudget(store, env.CHAT_DAILY_TOKEN_BUDGET, now, {
      client: clientIp(req, context),
      share: env.CHAT_CLIENT_BUDGET_PERCENT / 100,
    });
    const result = await askClaude(client, {
      model: env.ANTHROPIC_MODEL,
      system: (system ??= buildSystemPrompt()),
      messages,
      budget,
      timeoutMs: deps.timeoutMs,
      storm,
    });
    if (!result.ok) {
      console.warn(`[chat] Claude did not answer: ${result.reason} (${result.calls} calls, ${result.tokens} tokens)`);
      return fallback(result.reason);
    }
    return answer(result, `Claude answered (${result.calls} calls, ${result.tokens} tokens)`);
  });
}
