/**
 * The floating chat assistant's island. It renders inside the
 * prebuilt panel of components/Chat.astro, a `popover` the launcher opens with no script,
 * and hydrates on intent (Island.astro): nothing of it (nor React) downloads until a visitor
 * reaches for the launcher or the panel opens. It then takes over the panel as it is
 * (open or not, with whatever was typed) and adds what needs script: sending through
 * the store, minimize, Escape, focus, and this tab's conversation across pages.
 *
 * The popover's open state is the truth for "closed vs shown"; $chatView follows it
 * (toggle events) and drives it (showPopover/hidePopover) when the island changes it.
 */
import { useStore } from "@nanostores/react";
import { useEffect, useLayoutEffect, useRef, useState, type FormEvent, type KeyboardEvent } from "react";
import { CHAT_IDS } from "../lib/chat.ts";
import { takeOverForm } from "../lib/dialogs.ts";
import {
  $chatMessages,
  $chatPending,
  $chatView,
  closeChat,
  minimizeChat,
  openChat,
  persistChat,
  restoreChat,
  sendChatMessage,
} from "../lib/stores/chat.ts";
import { ChatContact, ChatForm, ChatHeader, ChatLog } from "../views/chat/ChatPanel.tsx";

/** Where focus goes once the view has changed. */
type FocusIntent = "panel" | "launcher" | null;

const isOpen = (panel: HTMLElement) => panel.matches(":popover-open");

/** Shows the panel without moving focus (a conversation restored on a new page must not steal it). */
function showQuietly(panel: HTMLElement): void {
  panel.removeAttribute("autofocus");
  try {
    panel.showPopover();
  } finally {
    panel.setAttribute("autofocus", "");
  }
}

/**
 * Scrolls the conversation to its newest message: to the end, or with `fromStart` so that the
 * newest message's first line is at the top of the log (the end when it all fits below).
 */
function scrollToNewest(log: HTMLElement, fromStart: boolean): void {
  const latest = fromStart ? log.querySelector<HTMLElement>(`#${CHAT_IDS.latest}`) : null;
  if (!latest) {
    log.scrollTop = log.scrollHeight;
    return;
  }
  // Where the message starts within the log's content, less the log's own top padding.
  const offset = latest.getBoundingClientRect().top - log.getBoundingClientRect().top + log.scrollTop;
  const padding = parseFloat(getComputedStyle(log).paddingTop) || 0;
  log.scrollTop = Math.min(Math.max(0, offset - padding), log.scrollHeight - log.clientHeight);
}

export default function ChatWidget() {
  const view = useStore($chatView);
  const messages = useStore($chatMessages);
  const pending = useStore($chatPending);
  const [draft, setDraft] = useState("");
  // False for the server render and the hydrating one, so both match (send stays enabled
  // until the island can actually check the text).
  const [hydrated, setHydrated] = useState(false);
  const headerRef = useRef<HTMLElement>(null);
  const logRef = useRef<HTMLDivElement>(null);
  const inputRef = useRef<HTMLTextAreaElement>(null);
  const focusNext = useRef<FocusIntent>(null);
  const synced = useRef(false);
  const minimized = view === "minimized";
  const canSend = draft.trim() !== "" && !pending;
  const newestRole = messages.at(-1)?.role;

  const panel = () => headerRef.current?.closest<HTMLElement>(`#${CHAT_IDS.panel}`) ?? null;

  useEffect(() => {
    const el = panel();
    if (!el) return;
    const left = restoreChat();
    const input = inputRef.current;
    // Typed before hydration: React leaves the box's text alone but starts from "". Sent
    // before hydration (the page held the submit for the island): send it now.
    const held = input?.form ? takeOverForm(input.form) : false;
    if (held && input?.value.trim()) {
      void sendChatMessage(input.value);
      input.value = "";
    } else if (input?.value) setDraft(input.value);
    setHydrated(true);

    if (isOpen(el)) {
      // Opened before the island was ready: take it over as it is.
      focusNext.current = document.activeElement === el ? "panel" : null;
      openChat();
    } else if (left !== "closed") {
      // A panel left open on the previous page comes back (minimized on phones, so the page they navigated to shows).
      $chatView.set(left === "open" && !matchMedia("(min-width: 40rem)").matches ? "minimized" : left);
    }
    const stopSaving = persistChat();

    const onToggle = (event: Event) => {
      const state = (event as ToggleEvent).newState;
      if (state === "open" && $chatView.get() === "closed") {
        focusNext.current = "panel";
        openChat();
      } else if (state === "closed" && $chatView.get() !== "closed") {
        focusNext.current = "launcher";
        closeChat();
      }
    };
    const onKeyDown = (event: globalThis.KeyboardEvent) => {
      if (event.key !== "Escape" || event.defaultPrevented) return;
      event.preventDefault();
      focusNext.current = "launcher";
      closeChat();
    };
    el.addEventListener("toggle", onToggle);
    el.addEventListener("keydown", onKeyDown);
    return () => {
      stopSaving();
      el.removeEventListener("toggle", onToggle);
      el.removeEventListener("keydown", onKeyDown);
    };
  }, []);

  useEffect(() => {
    const el = panel();
    // The first run sees the server's "closed" while the mount effect has just taken over the real state.
    if (!el || !synced.current) return void (synced.current = true);
    if (view === "closed") {
      el.removeAttribute("data-view");
      if (isOpen(el)) el.hidePopover();
    } else {
      el.dataset.view = view;
      if (!isOpen(el)) showQuietly(el);
    }
    const target = focusNext.current;
    focusNext.current = null;
    if (target === "launcher" && view === "closed") {
      document.getElementById(CHAT_IDS.launcher)?.focus();
    } else if (target === "panel" && view === "open") {
      // On touch screens focusing the textarea would throw the keyboard over the panel before
      // the visitor has read it; the panel itself has focus there (its autofocus).
      if (matchMedia("(pointer: fine)").matches) inputRef.current?.focus();
      else if (!el.contains(document.activeElement)) el.focus();
    }
  }, [view]);

  useLayoutEffect(() => {
    // Newest message in view, also when the panel comes back from minimized:
    // a reply from its start (a long one opens with what matters, "Please call us now"), what
    // the visitor sent and the typing dots from the end.
    const log = logRef.current;
    if (log && !minimized) scrollToNewest(log, !pending && newestRole === "assistant");
  }, [messages.length, newestRole, pending, minimized]);

  const send = () => {
    if (!canSend) return;
    const text = draft;
    setDraft("");
    void sendChatMessage(text);
  };
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    send();
  };
  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    // Enter sends; Shift+Enter is a newline; Enter that confirms an IME composition is neither.
    if (event.key !== "Enter" || event.shiftKey || event.nativeEvent.isComposing) return;
    event.preventDefault();
    send();
  };

  return (
    <>
      <ChatHeader
        headerRef={headerRef}
        minimized={minimized}
        onMinimize={(event) => {
          // The button's no-script meaning (hide the popover) gives way to minimizing.
          event.preventDefault();
          minimizeChat();
        }}
        onRestore={(event) => {
          event.preventDefault();
          focusNext.current = "panel";
          openChat();
        }}
        onClose={() => {
          // The button hides the popover itself; the toggle event closes the view.
          focusNext.current = "launcher";
        }}
      />
      <div id={CHAT_IDS.body} hidden={minimized} className="flex min-h-0 flex-1 flex-col">
        <ChatLog
          messages={messages}
          pending={pending}
          logRef={logRef}
          className="min-h-0 flex-1 overflow-y-auto overscroll-contain"
        />
        <ChatContact />
        <ChatForm
          messages={messages}
          draft={draft}
          onDraft={setDraft}
          sendDisabled={hydrated && !canSend}
          onSubmit={onSubmit}
          onKeyDown={onKeyDown}
          inputRef={inputRef}
          islandSends
        />
      </div>
    </>
  );
}
