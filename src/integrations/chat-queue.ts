/**
 * The hand-over between the `client:chat` directive (inline on every page) and the chat
 * island (downloaded on the first touch of the launcher). A tap that lands before the
 * island exists is remembered here, so the panel opens the moment the island mounts.
 * Kept apart from src/lib/chat.ts on purpose: the directive is inlined into every page and
 * must not pull in zod.
 */

export interface ChatQueue {
  /** The launcher was clicked before the island mounted: open the panel on mount. */
  open?: boolean;
  /** Set by the island once mounted; the directive then leaves clicks to it. */
  ready?: boolean;
}

/** Global slot shared by the directive and the island (a window property: they are separate bundles). */
export const CHAT_QUEUE_KEY = "__treelineChat";

/** Marks the launcher; its `data-restore` names the sessionStorage key of a conversation in progress. */
export const CHAT_LAUNCHER = "[data-chat-launcher]";

/** The shared state, created by whichever side runs first. */
export function chatQueue(): ChatQueue {
  const w = window as unknown as Record<string, ChatQueue | undefined>;
  return (w[CHAT_QUEUE_KEY] ??= {});
}
