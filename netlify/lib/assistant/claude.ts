/**
 * One visitor message answered by Claude: the Messages API with the site's tools, run
 * as a short tool loop (answer, or call tools and answer again) under a call cap, one
 * wall-clock deadline and the daily token budget. Any failure is returned as a reason,
 * never thrown, so the handler can answer with the built-in assistant instead.
 */
import Anthropic from "@anthropic-ai/sdk";
import type { Env } from "../../../src/lib/env.ts";
import type { ChatAction, ChatMessage } from "../../../src/lib/chat.ts";
import { estimateTokens, type TokenBudget } from "./budget.ts";
import { CLAUDE_TIMEOUT_MS, MAX_MODEL_CALLS, MAX_OUTPUT_TOKENS } from "./caps.ts";
import { TOOLS, runTool } from "./tools.ts";
import type { ChatStorm } from "./storm.ts";

/**
 * The client, or null without ANTHROPIC_API_KEY. The key and base URL come from `env`
 * only (passing them stops the SDK reading other credentials from the machine); no
 * retries, because a retry would blow the deadline the fallback is waiting on.
 */
export function createClaudeClient(env: Pick<Env, "ANTHROPIC_API_KEY" | "ANTHROPIC_BASE_URL">): Anthropic | null {
  const apiKey = env.ANTHROPIC_API_KEY;
  if (!apiKey) return null;
  return new Anthropic({
    apiKey,
    baseURL: env.ANTHROPIC_BASE_URL,
    timeout: CLAUDE_TIMEOUT_MS,
    maxRetries: 0,
  });
}

/** Why Claude did not answer; logged, never shown. */
export type NoAnswer =
  "budget-spent" | "budget-unavailable" | "timeout" | "unreachable" | `api-error-${number}` | "refusal" | "empty";

export type ClaudeResult =
  | { ok: true; message: string; actions: ChatAction[]; calls: number; tokens: number }
  | { ok: false; reason: NoAnswer; calls: number; tokens: number };

export interface AskOptions {
  model: string;
  system: string;
  /** Validated, trimmed history ending with the visitor's message. */
  messages: readonly ChatMessage[];
  budget: TokenBudget;
  /** Deadline for all calls together (default CLAUDE_TIMEOUT_MS). */
  timeoutMs?: number;
  /** The storm at the ZIP the visitor gave, for the estimate tool's storm line. */
  storm?: ChatStorm | null;
}

/**
 * The history as the Messages API wants it: starting with the visitor (our greeting is
 * in the system prompt instead) and alternating, neighbors of one role joined.
 */
export function toModelMessages(messages: readonly ChatMessage[]): Anthropic.MessageParam[] {
  const out: { role: "user" | "assistant"; content: string }[] = [];
  for (const m of messages) {
    if (out.length === 0 && m.role === "assistant") continue;
    const last = out.at(-1);
    if (last?.role === m.role) last.content += `\n\n${m.content}`;
    else out.push({ role: m.role, content: m.content });
  }
  return out;
}

const usageOf = (u: Anthropic.Usage | undefined) =>
  (u?.input_tokens ?? 0) +
  (u?.output_tokens ?? 0) +
  (u?.cache_creation_input_tokens ?? 0) +
  (u?.cache_read_input_tokens ?? 0);

function reasonFor(error: unknown): NoAnswer {
  if (error instanceof Anthropic.APIUserAbortError || error instanceof Anthropic.APIConnectionTimeoutError)
    return "timeout";
  if (error instanceof Anthropic.APIConnectionError) return "unreachable";
  if (error instanceof Anthropic.APIError && typeof error.status === "number") return `api-error-${error.status}`;
  return "unreachable";
}

export async function askClaude(client: Anthropic, options: AskOptions): Promise<ClaudeResult> {
  const timeoutMs = options.timeoutMs ?? CLAUDE_TIMEOUT_MS;
  const deadline = Date.now() + timeoutMs;
  const abort = new AbortController();
  const timer = setTimeout(() => abort.abort(), timeoutMs);
  const conversation = toModelMessages(options.messages);
  let action: ChatAction | undefined;
  let calls = 0;
  let tokens = 0;
  const fail = (reason: NoAnswer): ClaudeResult => ({ ok: false, reason, calls, tokens });

  try {
    for (;;) {
      const last = calls + 1 === MAX_MODEL_CALLS;
      const params: Anthropic.MessageCreateParamsNonStreaming = {
        model: options.model,
        max_tokens: MAX_OUTPUT_TOKENS,
        system: options.system,
        messages: conversation,
        tools: TOOLS,
        // The last permitted call must answer in words.
        ...(last ? { tool_choice: { type: "none" } } : {}),
      };
      let reservation;
      try {
        reservation = await options.budget.reserve(estimateTokens(JSON.stringify(params)) + MAX_OUTPUT_TOKENS);
      } catch (error) {
        // Spending without being able to count is how budgets get blown: no count, no call.
        console.warn(`[chat] token budget unavailable (${error instanceof Error ? error.name : "error"})`);
        return fail("budget-unavailable");
      }
      if (!reservation) return fail("budget-spent");

      calls++;
      let response: Anthropic.Message;
      try {
        response = await client.messages.create(params, {
          signal: abort.signal,
          timeout: Math.max(1, deadline - Date.now()),
        });
      } catch (error) {
        const reason = reasonFor(error);
        // An answered error was not billed; a timeout may have been, so it stays counted.
        if (reason.startsWith("api-error")) await reservation.settle(0).catch(() => {});
        return fail(reason);
      }
      const used = usageOf(response.usage);
      tokens += used;
      await reservation
        .settle(used)
        .catch((error) =>
          console.warn(`[chat] could not settle token usage (${error instanceof Error ? error.name : "error"})`),
        );

      if (response.stop_reason === "refusal") return fail("refusal");
      // Blocks by type, not position: a reply may start with a thinking block.
      const text = response.content
        .filter((b): b is Anthropic.TextBlock => b.type === "text")
        .map((b) => b.text)
        .join("")
        .trim();
      const toolUses = response.content.filter((b): b is Anthropic.ToolUseBlock => b.type === "tool_use");
      if (response.stop_reason !== "tool_use" || toolUses.length === 0 || last) {
        if (!text) return fail("empty");
        return { ok: true, message: text, actions: action ? [action] : [], calls, tokens };
      }

      // The assistant turn goes back unchanged (thinking blocks must not be edited), then the results.
      conversation.push({ role: "assistant", content: response.content });
      conversation.push({
        role: "user",
        content: toolUses.map((use): Anthropic.ToolResultBlockParam => {
          const outcome = runTool(use.name, use.input, options.storm);
          if (outcome.action) action = outcome.action;
          return {
            type: "tool_result",
            tool_use_id: use.id,
            content: outcome.content,
            ...(outcome.isError ? { is_error: true } : {}),
          };
        }),
      });
    }
  } finally {
    clearTimeout(timer);
  }
}
