/**
 * What the chat's own page (/chat) shows: the conversation a no-JS post left in its flash
 * (the visitor's messages and the assistant's reply, with its quote actions), the draft and
 * message of a refused post, or a new conversation.
 */
import { CHAT_GREETING, ChatAction } from "../../../src/lib/chat.ts";
import { z } from "../../../src/lib/zod.ts";
import type { ShownMessage } from "../../../src/views/chat/ChatPanel.tsx";
import { getStore, type Store } from "../store/index.ts";
import { readFlash } from "./flash.ts";

/** The flash value that carries the conversation (JSON of ShownMessage[]). */
export const CONVERSATION_FIELD = "conversation";
/** The flash value that carries a refused post's text. */
export const DRAFT_FIELD = "message";

const Shown = z.array(
  z.object({
    role: z.enum(["user", "assistant"]),
    content: z.string(),
    actions: z.array(ChatAction).optional(),
  }),
);

export interface ChatPage {
  status: number;
  messages: ShownMessage[];
  draft?: string;
  /** The message about the post, tied to the box (a blank message). */
  error?: string;
  /** A refusal of the whole post (a limit, an outage). */
  problem?: string;
}

const GREETING: ShownMessage = { role: "assistant", content: CHAT_GREETING };

/** The chat page at `url`. */
export async function loadChatPage(url: URL, store: () => Store = getStore): Promise<ChatPage> {
  const flash = await readFlash(url, store);
  const raw = flash?.values[CONVERSATION_FIELD];
  let messages: ShownMessage[];
  try {
    messages = typeof raw === "string" ? Shown.parse(JSON.parse(raw)) : [];
  } catch {
    // Only the function writes it; a value that is not a conversation starts a new one.
    messages = [];
  }
  const draft = flash?.values[DRAFT_FIELD];
  return {
    status: flash?.status ?? 200,
    messages: messages.length > 0 ? messages : [GREETING],
    draft: typeof draft === "string" ? draft : undefined,
    error: flash?.errors[DRAFT_FIELD],
    problem: flash?.problem,
  };
}
