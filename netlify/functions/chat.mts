/**
 * POST /api/chat: the Tree Service Expert's answers, from Claude when it is configured and
 * within budget, from the built-in assistant otherwise. The pipeline lives in
 * ../lib/assistant/handler.ts.
 */
import type { Config } from "@netlify/functions";
import { chatHandler } from "../lib/assistant/handler.ts";

export default chatHandler();

// No method filter here: other methods must reach the handler to get a 405 with Allow.
export const config: Config = { path: "/api/chat" };
