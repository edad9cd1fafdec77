/**
 * The open (or minimised) chat panel: a non-modal dialog titled Tree Service Expert with
 * a call link, minimise and close in its header, the conversation as a live log, and the
 * message box. 20rem x 24rem, 3.5rem tall when minimised (spec section 2), never taller
 * than the viewport allows, so the page above it (and its emergency call link) stays
 * reachable on a phone.
 */
import { useStore } from "@nanostores/react";
import { useLayoutEffect, useRef, useState, type FormEvent, type KeyboardEvent, type RefObject } from "react";
import { CHAT_TITLE, MAX_MESSAGE_CHARS, QUOTE_ACTION_LABEL, type ChatAction } from "../../lib/chat.ts";
import { $chatMessages, $chatPending, sendChatMessage, type ChatView } from "../../lib/stores/chat.ts";
import { SITE } from "../../lib/site.ts";
import { Icon } from "../Icon.tsx";
import { MessageText } from "./MessageText.tsx";

export const PANEL_ID = "chat-panel";
const TITLE_ID = "chat-panel-title";

interface Props {
  view: Exclude<ChatView, "closed">;
  onMinimise: () => void;
  onRestore: () => void;
  onClose: () => void;
  panelRef: RefObject<HTMLElement | null>;
  inputRef: RefObject<HTMLTextAreaElement | null>;
}

/**
 * The hand-over to a lead: a `data-dialog` trigger like every quote button on the site,
 * so the `client:intent` directive loads the dialogs island on first touch if needed and
 * the island opens the quote dialog preselected through the dialogs store (openQuote).
 */
function QuoteButton({ action }: { action: ChatAction }) {
  return (
    <a
      href="#quote"
      data-dialog="quote"
      data-service-type={action.serviceType}
      data-urgency={action.urgency}
      aria-haspopup="dialog"
      className="mt-2 inline-flex min-h-9 items-center gap-1.5 rounded-full bg-forest-700 px-3.5 py-1.5 text-sm font-semibold text-white no-underline shadow-sm hover:bg-forest-800"
    >
      {QUOTE_ACTION_LABEL}
    </a>
  );
}

const headerButton = "inline-flex size-10 shrink-0 items-center justify-center rounded-full text-forest-50 hover:bg-forest-700 focus-visible:outline-2 focus-visible:outline-offset-0 focus-visible:outline-white";

export function ChatPanel({ view, onMinimise, onRestore, onClose, panelRef, inputRef }: Props) {
  const messages = useStore($chatMessages);
  const pending = useStore($chatPending);
  const [draft, setDraft] = useState("");
  const logRef = useRef<HTMLDivElement>(null);
  const minimised = view === "minimised";
  const canSend = draft.trim() !== "" && !pending;

  useLayoutEffect(() => {
    // Newest message in view (spec section 4), also when the panel comes back from minimised.
    const log = logRef.current;
    if (log) log.scrollTop = log.scrollHeight;
  }, [messages.length, pending, minimised]);

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
    <section
      ref={panelRef}
      id={PANEL_ID}
      role="dialog"
      aria-modal="false"
      aria-labelledby={TITLE_ID}
      tabIndex={-1}
      onKeyDown={(event) => {
        if (event.key === "Escape" && !event.defaultPrevented) {
          event.preventDefault();
          onClose();
        }
      }}
      className={[
        "fixed right-2 bottom-2 z-[45] flex w-80 max-w-[calc(100vw-1rem)] flex-col overflow-hidden rounded-2xl border border-forest-200 bg-white shadow-lift outline-none sm:right-4 sm:bottom-4",
        // Keeps the site's toasts (bottom right from sm up) above the panel instead of on it.
        minimised
          ? "h-14 sm:[html:has(&)_#notifications]:bottom-[4.5rem]"
          : "h-96 max-h-[calc(100dvh-5rem)] sm:[html:has(&)_#notifications]:bottom-[25rem]",
      ].join(" ")}
    >
      <header className="flex h-14 shrink-0 items-center gap-0.5 bg-forest-800 pr-1.5 pl-4 text-white">
        <h2 id={TITLE_ID} className="min-w-0 flex-1 truncate font-display text-base font-semibold text-white">
          {CHAT_TITLE}
        </h2>
        <a href={SITE.phoneHref} className={headerButton} aria-label={`Call ${SITE.phone}`} title={`Call ${SITE.phone} (24/7 emergencies)`}>
          <Icon name="phone" className="size-[1.125rem]" />
        </a>
        <button
          type="button"
          className={headerButton}
          onClick={minimised ? onRestore : onMinimise}
          aria-label={minimised ? "Restore chat" : "Minimise chat"}
          aria-expanded={!minimised}
          aria-controls="chat-panel-body"
        >
          <svg viewBox="0 0 24 24" className="size-[1.125rem]" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" aria-hidden="true">
            <path d={minimised ? "M6 15l6-6 6 6" : "M5 12h14"} />
          </svg>
        </button>
        <button type="button" className={headerButton} onClick={onClose} aria-label="Close chat">
          <Icon name="close" className="size-[1.125rem]" />
        </button>
      </header>

      <div id="chat-panel-body" hidden={minimised} className="flex min-h-0 flex-1 flex-col">
        <div ref={logRef} role="log" aria-live="polite" aria-label="Conversation" className="min-h-0 flex-1 space-y-3 overflow-y-auto overscroll-contain px-3 py-3 text-[0.9rem] leading-snug">
          {messages.map((m, i) =>
            m.role === "user" ? (
              <div key={i} className="ml-8 rounded-2xl rounded-br-md bg-forest-700 px-3 py-2 whitespace-pre-wrap break-words text-white">
                <span className="sr-only">You: </span>
                {m.content}
              </div>
            ) : (
              <div key={i} className="mr-6 rounded-2xl rounded-bl-md bg-forest-50 px-3 py-2 break-words text-slate-800">
                <span className="sr-only">{CHAT_TITLE}: </span>
                <MessageText text={m.content} />
                {m.actions?.map((action, j) => <QuoteButton key={j} action={action} />)}
              </div>
            ),
          )}
          {pending ? (
            <div className="mr-6 inline-flex items-center gap-1 rounded-2xl rounded-bl-md bg-forest-50 px-3 py-3" data-testid="chat-typing">
              <span className="sr-only">{CHAT_TITLE} is typing</span>
              {[0, 150, 300].map((delay) => (
                <span key={delay} className="size-1.5 animate-bounce rounded-full bg-forest-500 motion-reduce:animate-none" style={{ animationDelay: `${delay}ms` }} aria-hidden="true" />
              ))}
            </div>
          ) : null}
        </div>

        <form onSubmit={onSubmit} className="flex shrink-0 items-end gap-2 border-t border-forest-100 bg-white p-2">
          <label htmlFor="chat-input" className="sr-only">
            Message
          </label>
          <textarea
            ref={inputRef}
            id="chat-input"
            rows={1}
            value={draft}
            maxLength={MAX_MESSAGE_CHARS}
            onChange={(event) => setDraft(event.target.value)}
            onKeyDown={onKeyDown}
            placeholder="Type your message…"
            enterKeyHint="send"
            className="max-h-24 min-h-10 flex-1 resize-none rounded-xl border border-forest-200 bg-white px-3 py-2 text-base leading-snug sm:text-[0.9rem] text-slate-900 [field-sizing:content] placeholder:text-slate-500 focus:border-forest-500 focus:outline-2 focus:outline-forest-500/30"
          />
          <button
            type="submit"
            disabled={!canSend}
            aria-label="Send message"
            className="inline-flex size-10 shrink-0 items-center justify-center rounded-full bg-forest-700 text-white hover:bg-forest-800 disabled:cursor-not-allowed disabled:bg-forest-200 disabled:text-forest-50"
          >
            <svg viewBox="0 0 24 24" className="size-5" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round" aria-hidden="true">
              <path d="M5 12h14M13 6l6 6-6 6" />
            </svg>
          </button>
        </form>
      </div>
    </section>
  );
}
