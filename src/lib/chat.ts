/**
 * The chat assistant's contract, shared by the widget and POST /api/chat (spec sections
 * 2, 3, 5, 7 and 8): the request schema, the limits both sides apply, the reply's optional
 * actions and the copy the visitor reads. The widget trims what it sends with the same
 * numbers the function enforces, so a long conversation never turns into a 400.
 */
import { z } from "./zod.ts";
import { SERVICE_TYPES, URGENCY, optionValues } from "./options.ts";
import { cleanString } from "./schemas/text.ts";

/**
 * Element ids of the widget. launcher, panel and input are also a contract with
 * bench/tap-to-open.mjs and the e2e tests: keep them.
 */
export const CHAT_IDS = {
  /** The round button (components/Chat.astro). */
  launcher: "chat-launcher",
  /** The popover panel it opens. */
  panel: "chat-panel",
  /** The message box. */
  input: "chat-input",
  title: "chat-panel-title",
  body: "chat-panel-body",
  error: "chat-input-error",
  /** The newest message: the no-JS form posts to /api/chat#chat-latest so the reply page opens on it. */
  latest: "chat-latest",
} as const;

/** The panel's title. */
export const CHAT_TITLE = "Tree Service Expert";

/** The one assistant message a new conversation starts with: residential or commercial. */
export const CHAT_GREETING =
  "Hi! I'm Treeline's tree service expert. I can price a job in a minute. Is the work for a residential or a commercial property?";

/** Appended as the assistant's answer when a reply fails. */
export const CHAT_FAILURE = "Sorry, I'm having trouble right now. Please try again or contact us directly.";

/** Longest visitor message, in characters; the widget's textarea stops here too. */
export const MAX_MESSAGE_CHARS = 2_000;

/**
 * Longest assistant message accepted back in the history. Replies are bounded by the
 * model's max_tokens, which can run past 2,000 characters; a visitor's own history must
 * never be refused because of what we said.
 */
export const MAX_ASSISTANT_CHARS = 6_000;

/**
 * Messages (user and assistant, one each per "turn" of speech) that reach the model. The
 * widget sends at most this many; the function trims anything longer to the newest ones
 * rather than refusing it, so an older client or a hand-made request still gets an answer.
 */
export const MAX_HISTORY_MESSAGES = 20;

/** A request with more messages than this is refused: trimming is for long chats, not for floods. */
export const MAX_REQUEST_MESSAGES = 200;

/** Messages kept in the browser for display (the widget sends only the newest MAX_HISTORY_MESSAGES). */
export const MAX_STORED_MESSAGES = 100;

/**
 * sessionStorage key for the conversation and the panel state: a visitor who follows a
 * link the assistant gave keeps the conversation on the next page, and a new tab starts
 * fresh.
 */
export const CHAT_STORAGE_KEY = "treeline:chat:v1";

/**
 * Present (sessionStorage) while the panel is open or minimized. The launcher names it in
 * `data-restore`, and the island loader (src/scripts/islands.ts) restores the panel on the next page
 * when it is set; a closed chat costs the next page nothing.
 */
export const CHAT_OPEN_KEY = "treeline:chat:open";

export const CHAT_MESSAGES = {
  role: "Only user and assistant messages are accepted.",
  content: "Message content must be text.",
  tooLong: `Messages are limited to ${MAX_MESSAGE_CHARS.toLocaleString("en-US")} characters.`,
  assistantTooLong: `Assistant messages are limited to ${MAX_ASSISTANT_CHARS.toLocaleString("en-US")} characters.`,
  none: "Send at least one message.",
  tooMany: `Send at most ${MAX_REQUEST_MESSAGES} messages.`,
  lastRole: "The last message must be the visitor's.",
  blank: "Please type a message.",
} as const;

/** One message of the conversation as the API takes it: role and content. */
export const ChatMessage = z
  .object({
    /** Who said it. A "system" message from a browser is refused: only the server writes the system prompt. */
    role: z.enum(["user", "assistant"], { error: CHAT_MESSAGES.role }),
    /** What was said, as plain text (assistant replies may carry the tiny link markup, see markup.ts). */
    content: cleanString({ error: CHAT_MESSAGES.content }, { multiline: true }),
  })
  .check((ctx) => {
    const { role, content } = ctx.value;
    const max = role === "user" ? MAX_MESSAGE_CHARS : MAX_ASSISTANT_CHARS;
    if (content.length > max) {
      ctx.issues.push({
        code: "custom",
        input: content,
        path: ["content"],
        message: role === "user" ? CHAT_MESSAGES.tooLong : CHAT_MESSAGES.assistantTooLong,
      });
    }
  });
export type ChatMessage = z.infer<typeof ChatMessage>;

/** POST /api/chat body: the history without system messages, ending with the new user message. */
export const ChatRequest = z
  .object({
    /** Oldest first; the function keeps the newest MAX_HISTORY_MESSAGES. */
    messages: z
      .array(ChatMessage, { error: CHAT_MESSAGES.none })
      .min(1, CHAT_MESSAGES.none)
      .max(MAX_REQUEST_MESSAGES, CHAT_MESSAGES.tooMany),
  })
  .check((ctx) => {
    const last = ctx.value.messages.at(-1);
    if (!last) return;
    const at = ["messages", ctx.value.messages.length - 1];
    if (last.role !== "user")
      ctx.issues.push({ code: "custom", input: last, path: [...at, "role"], message: CHAT_MESSAGES.lastRole });
    else if (last.content.trim() === "")
      ctx.issues.push({ code: "custom", input: last, path: [...at, "content"], message: CHAT_MESSAGES.blank });
  });
export type ChatRequest = z.infer<typeof ChatRequest>;

/**
 * Something the widget renders as a button under a reply. Only "quote" exists: it opens
 * the site's quote dialog preselected (through the dialogs store), which is how the
 * assistant hands a visitor over to a real lead.
 */
export const ChatAction = z.object({
  /** What the button does. */
  type: z.literal("quote"),
  /** A SERVICE_TYPES value to preselect. */
  serviceType: z.enum(optionValues(SERVICE_TYPES)).optional(),
  /** An URGENCY value to preselect. */
  urgency: z.enum(optionValues(URGENCY)).optional(),
});
export type ChatAction = z.infer<typeof ChatAction>;

/** POST /api/chat answer. The spec reads `message`; `actions` is ours and optional. */
export interface ChatReply {
  /** The assistant's text (plain text plus same-site markdown links). */
  message: string;
  /** Buttons to show under the text. */
  actions?: ChatAction[];
}

/**
 * Field names of the panel's no-JS form (POST /api/chat as a form): the conversation so
 * far as repeated role/content pairs, oldest first, then the visitor's new message.
 */
export const CHAT_FORM_FIELDS = { role: "role", content: "content", message: "message" } as const;

/**
 * A form post read as the JSON request would be: the pairs, then the new message as the
 * last "user" message. Whatever is missing or malformed is left for ChatRequest to refuse,
 * with the same messages the JSON path gives.
 */
export function chatRequestFromForm(form: URLSearchParams): {
  messages: { role?: string; content?: string }[];
  message: string;
} {
  const roles = form.getAll(CHAT_FORM_FIELDS.role);
  const contents = form.getAll(CHAT_FORM_FIELDS.content);
  const message = form.get(CHAT_FORM_FIELDS.message) ?? "";
  const history = Array.from({ length: Math.max(roles.length, contents.length) }, (_, i) => ({
    role: roles[i],
    content: contents[i],
  }));
  return { messages: [...history, { role: "user", content: message }], message };
}

/** Label of the hand-over button. */
export const QUOTE_ACTION_LABEL = "Get a quote";

/**
 * The newest messages to send, as the API takes them: role and content only (the
 * timestamps stay in the browser), at most MAX_HISTORY_MESSAGES.
 */
export function historyForRequest(messages: readonly { role: string; content: string }[]): ChatMessage[] {
  const spoken = messages.filter((m): m is ChatMessage => m.role === "user" || m.role === "assistant");
  return spoken.slice(-MAX_HISTORY_MESSAGES).map(({ role, content }) => ({ role, content }));
}
