/**
 * The chat conversation and the panel's state (closed, open, minimized), with the
 * actions the widget calls. Kept in sessionStorage so the conversation follows the
 * visitor across pages of the same tab (the history is what makes a link in a reply
 * usable).
 */
import { atom } from "nanostores";
import { apiRequest } from "../api.ts";
import {
  CHAT_FAILURE,
  CHAT_GREETING,
  CHAT_OPEN_KEY,
  CHAT_STORAGE_KEY,
  ChatAction,
  MAX_MESSAGE_CHARS,
  MAX_STORED_MESSAGES,
  historyForRequest,
} from "../chat.ts";

export type ChatView = "closed" | "open" | "minimized";

/** A message as the widget keeps it: role, content, timestamp. */
export interface StoredMessage {
  role: "user" | "assistant";
  content: string;
  /** ms epoch. */
  timestamp: number;
  /** Buttons under an assistant reply. */
  actions?: ChatAction[];
}

const greeting = (): StoredMessage => ({ role: "assistant", content: CHAT_GREETING, timestamp: Date.now() });

export const $chatView = atom<ChatView>("closed");
/** Oldest first; always starts with the greeting. */
export const $chatMessages = atom<readonly StoredMessage[]>([greeting()]);
/** A reply is on its way: sending is blocked. */
export const $chatPending = atom(false);

function isStoredMessage(value: unknown): value is StoredMessage {
  const m = value as StoredMessage | null;
  return (
    !!m &&
    (m.role === "user" || m.role === "assistant") &&
    typeof m.content === "string" &&
    typeof m.timestamp === "number"
  );
}

/** Loads this tab's conversation (call once, on mount); returns the view it was left in. */
export function restoreChat(): ChatView {
  try {
    const saved = JSON.parse(sessionStorage.getItem(CHAT_STORAGE_KEY) ?? "null") as {
      view?: ChatView;
      messages?: unknown[];
    } | null;
    const messages = (saved?.messages ?? []).filter(isStoredMessage).map((m) => ({
      ...m,
      // Whatever sits in storage is re-checked: only known actions become buttons.
      actions: m.actions?.filter((a) => ChatAction.safeParse(a).success),
    }));
    if (messages.length > 0) $chatMessages.set(messages);
    return saved?.view === "open" || saved?.view === "minimized" ? saved.view : "closed";
  } catch {
    return "closed";
  }
}

function save(): void {
  try {
    const view = $chatView.get();
    sessionStorage.setItem(
      CHAT_STORAGE_KEY,
      JSON.stringify({ view, messages: $chatMessages.get().slice(-MAX_STORED_MESSAGES) }),
    );
    if (view === "closed") sessionStorage.removeItem(CHAT_OPEN_KEY);
    else sessionStorage.setItem(CHAT_OPEN_KEY, "1");
  } catch {
    // Private modes can refuse storage; the chat still works on this page.
  }
}

/** Saves on every change from now on (the island calls it after restoring). */
export function persistChat(): () => void {
  const offView = $chatView.listen(save);
  const offMessages = $chatMessages.listen(save);
  return () => {
    offView();
    offMessages();
  };
}

export function openChat(): void {
  $chatView.set("open");
}

export function minimizeChat(): void {
  $chatView.set("minimized");
}

export function closeChat(): void {
  $chatView.set("closed");
}

function append(message: StoredMessage): void {
  $chatMessages.set([...$chatMessages.get(), message].slice(-MAX_STORED_MESSAGES));
}

function replyFrom(body: unknown): Pick<StoredMessage, "content" | "actions"> | null {
  const reply = body as { message?: unknown; actions?: unknown } | null;
  if (!reply || typeof reply.message !== "string" || reply.message.trim() === "") return null;
  const actions = Array.isArray(reply.actions)
    ? reply.actions.filter((a): a is ChatAction => ChatAction.safeParse(a).success)
    : [];
  return { content: reply.message, ...(actions.length ? { actions } : {}) };
}

/**
 * Sends the visitor's text: appends it, posts the history (no system messages, the new
 * message last) and appends the reply, or CHAT_FAILURE when the reply fails. Blank text or
 * a reply still pending sends nothing; returns whether it sent.
 */
export async function sendChatMessage(text: string): Promise<boolean> {
  const content = text.trim().slice(0, MAX_MESSAGE_CHARS);
  if (!content || $chatPending.get()) return false;
  append({ role: "user", content, timestamp: Date.now() });
  $chatPending.set(true);
  try {
    const res = await apiRequest("POST", "/api/chat", { messages: historyForRequest($chatMessages.get()) });
    const reply = replyFrom(await res.json());
    if (!reply) throw new Error("empty reply");
    append({ role: "assistant", ...reply, timestamp: Date.now() });
  } catch {
    append({ role: "assistant", content: CHAT_FAILURE, timestamp: Date.now() });
  } finally {
    $chatPending.set(false);
  }
  return true;
}
