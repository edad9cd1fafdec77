/**
 * The parts of the Tree Service Expert panel: the header (title, call link, minimize,
 * close), the conversation log and the message form. The panel element itself is the
 * `popover` in components/Chat.astro; the island renders these inside it, and POST
 * /api/chat renders the log and the form with renderToStaticMarkup for visitors without
 * JavaScript, so every rendering of the conversation is this one code.
 *
 * The form is a real `<form method="post" action="/api/chat">` carrying the conversation
 * as hidden fields: before (or without) JavaScript it posts and gets a server-rendered
 * reply page; once the island runs, it sends through the store instead.
 */
import { Fragment, type FormEvent, type KeyboardEvent, type ReactNode, type RefObject } from "react";
import {
  CHAT_FORM_FIELDS,
  CHAT_IDS,
  CHAT_TITLE,
  MAX_MESSAGE_CHARS,
  QUOTE_ACTION_LABEL,
  historyForRequest,
  type ChatAction,
} from "../../lib/chat.ts";
import { SITE } from "../../lib/site.ts";
import { Icon } from "../Icon.tsx";
import { MessageText } from "./MessageText.tsx";
import { ISLAND_SENDS, invokerProps } from "../../lib/dialogs.ts";

const {
  panel: PANEL_ID,
  title: TITLE_ID,
  body: BODY_ID,
  input: INPUT_ID,
  error: ERROR_ID,
  latest: LATEST_ID,
} = CHAT_IDS;

/** A message as the panel shows it. */
export interface ShownMessage {
  role: "user" | "assistant";
  content: string;
  actions?: ChatAction[];
}

/**
 * Where a quote action leads without JavaScript: a page whose quote button opens the
 * dialog with no script (the service's own page preselects its service).
 */
export function quoteActionHref(action: ChatAction): string {
  if (action.urgency === "emergency" || action.serviceType === "emergency") return "/services/emergency";
  return action.serviceType ? `/services/${action.serviceType}` : "/";
}

const actionClass =
  "mt-2 inline-flex min-h-9 items-center gap-1.5 rounded-full bg-forest-700 px-3.5 py-1.5 text-sm font-semibold text-white no-underline shadow-sm hover:bg-forest-800";

/**
 * The hand-over to a lead: an Invoker Command button like every quote button on the site,
 * so the page's native quote dialog opens with the reply's preselection (data-* read by
 * src/scripts/dialogs.ts on the `command` event). On a server-rendered reply page there is
 * no dialog: it links to a page whose quote button works without script.
 */
function QuoteAction({ action, asLink }: { action: ChatAction; asLink: boolean }) {
  if (asLink) {
    return (
      <a href={quoteActionHref(action)} className={actionClass} data-chat-action="quote">
        {QUOTE_ACTION_LABEL}
      </a>
    );
  }
  return (
    <button
      type="button"
      {...invokerProps("quote")}
      data-service-type={action.serviceType}
      data-urgency={action.urgency}
      className={actionClass}
    >
      {QUOTE_ACTION_LABEL}
    </button>
  );
}

const headerButton =
  "inline-flex size-9 shrink-0 sm:size-10 items-center justify-center rounded-full text-forest-50 hover:bg-forest-700 focus-visible:outline-2 focus-visible:outline-offset-0 focus-visible:outline-white";

interface HeaderProps {
  minimized: boolean;
  onMinimize: (event: { preventDefault(): void }) => void;
  onRestore: (event: { preventDefault(): void }) => void;
  onClose: () => void;
  headerRef?: RefObject<HTMLElement | null>;
}

/**
 * Minimize and close also work with no script at all: they hide the popover natively
 * (`popovertarget`), so a minimize before the island runs closes the panel, keeping what
 * was typed for the next opening. The island minimizes instead (it cancels the click;
 * restore cancels it too, as React puts `popovertarget` back before the click's default).
 */
export function ChatHeader({ minimized, onMinimize, onRestore, onClose, headerRef }: HeaderProps) {
  return (
    <header
      ref={headerRef}
      className="flex h-14 shrink-0 items-center gap-0.5 bg-forest-800 pr-1.5 pl-3 text-white sm:pl-4"
    >
      <h2 id={TITLE_ID} className="min-w-0 flex-1 truncate font-display text-sm font-semibold text-white sm:text-base">
        {CHAT_TITLE}
      </h2>
      {/* The panel's own call button, labeled (it covers part of the page on a phone, maybe the page's). */}
      <a
        href={SITE.phoneHref}
        className="mr-1 inline-flex h-9 shrink-0 items-center gap-1 rounded-full bg-amber-300 px-2.5 text-sm font-bold text-forest-950 no-underline hover:bg-amber-200 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-white"
        aria-label={`Call ${SITE.phone}`}
        title={`Call ${SITE.phone} (24/7 emergencies)`}
        data-chat-call=""
      >
        <Icon name="phone" className="size-4" />
        Call
      </a>
      <button
        type="button"
        className={headerButton}
        onClick={minimized ? onRestore : onMinimize}
        popoverTarget={minimized ? undefined : PANEL_ID}
        popoverTargetAction={minimized ? undefined : "hide"}
        aria-label={minimized ? "Restore chat" : "Minimize chat"}
        aria-expanded={!minimized}
        aria-controls={BODY_ID}
      >
        <Icon name={minimized ? "chevronUp" : "minus"} className="size-[1.125rem]" />
      </button>
      <button
        type="button"
        className={headerButton}
        onClick={onClose}
        popoverTarget={PANEL_ID}
        popoverTargetAction="hide"
        aria-label="Close chat"
      >
        <Icon name="close" className="size-[1.125rem]" />
      </button>
    </header>
  );
}

/** The other ways to reach a person, one tap away under the conversation. */
export function ChatContact() {
  return (
    <p className="shrink-0 border-t border-forest-100 px-3 pt-1.5 text-center text-xs text-slate-600">
      Call{" "}
      <a
        href={SITE.phoneHref}
        className="font-semibold whitespace-nowrap text-forest-800 underline-offset-2 hover:underline"
      >
        {SITE.phone}
      </a>{" "}
      · E-mail{" "}
      <a href={`mailto:${SITE.email}`} className="font-semibold text-forest-800 underline-offset-2 hover:underline">
        {SITE.email}
      </a>
    </p>
  );
}

interface LogProps {
  messages: readonly ShownMessage[];
  pending?: boolean;
  logRef?: RefObject<HTMLDivElement | null>;
  /** Quote actions as links (server-rendered pages have no dialog to open). */
  actionLinks?: boolean;
  /** Extra classes (the standalone page does not scroll inside a box). */
  className?: string;
}

/** The conversation, oldest first, as a polite live region. */
export function ChatLog({ messages, pending = false, logRef, actionLinks = false, className = "" }: LogProps) {
  return (
    <div
      ref={logRef}
      role="log"
      aria-live="polite"
      aria-label="Conversation"
      className={`space-y-3 px-3 py-3 text-[0.9rem] leading-snug ${className}`}
    >
      {messages.map((m, i) =>
        m.role === "user" ? (
          <div
            key={i}
            id={i === messages.length - 1 ? LATEST_ID : undefined}
            data-chat-message="user"
            className="ml-8 rounded-2xl rounded-br-md bg-forest-700 px-3 py-2 whitespace-pre-wrap break-words text-white"
          >
            <span className="sr-only">You: </span>
            {m.content}
          </div>
        ) : (
          <div
            key={i}
            id={i === messages.length - 1 ? LATEST_ID : undefined}
            data-chat-message="assistant"
            className="mr-6 rounded-2xl rounded-bl-md bg-forest-50 px-3 py-2 break-words text-slate-800"
          >
            <span className="sr-only">{CHAT_TITLE}: </span>
            <MessageText text={m.content} />
            {m.actions?.map((action, j) => (
              <QuoteAction key={j} action={action} asLink={actionLinks} />
            ))}
          </div>
        ),
      )}
      {pending ? (
        <div
          className="mr-6 inline-flex items-center gap-1 rounded-2xl rounded-bl-md bg-forest-50 px-3 py-3"
          data-testid="chat-typing"
        >
          <span className="sr-only">{CHAT_TITLE} is typing</span>
          {[0, 150, 300].map((delay) => (
            <span
              key={delay}
              className="size-1.5 animate-bounce rounded-full bg-forest-500 motion-reduce:animate-none"
              style={{ animationDelay: `${delay}ms` }}
              aria-hidden="true"
            />
          ))}
        </div>
      ) : null}
    </div>
  );
}

interface FormProps {
  /** The conversation so far; its newest messages travel as hidden fields for the no-JS post. */
  messages: readonly ShownMessage[];
  /** Controlled text (the island); omitted, the box starts with `defaultDraft`. */
  draft?: string;
  defaultDraft?: string;
  /** Send is disabled (the island: blank text or a reply pending). Never set before hydration. */
  sendDisabled?: boolean;
  onDraft?: (text: string) => void;
  onSubmit?: (event: FormEvent<HTMLFormElement>) => void;
  onKeyDown?: (event: KeyboardEvent<HTMLTextAreaElement>) => void;
  inputRef?: RefObject<HTMLTextAreaElement | null>;
  /** A message about the last post (server-rendered page), tied to the box. */
  error?: ReactNode;
  className?: string;
  /** Rendered by the island: with script on, a submit before it is in waits for it (ISLAND_SENDS). */
  islandSends?: boolean;
}

/** The message box and send button, a real form that posts to /api/chat. */
export function ChatForm({
  messages,
  draft,
  defaultDraft,
  sendDisabled = false,
  onDraft,
  onSubmit,
  onKeyDown,
  inputRef,
  error,
  className = "",
  islandSends = false,
}: FormProps) {
  return (
    <form
      method="post"
      action={`/api/chat#${LATEST_ID}`}
      onSubmit={onSubmit}
      {...(islandSends ? { [ISLAND_SENDS]: "" } : {})}
      className={`shrink-0 bg-white p-2 ${className}`}
    >
      {historyForRequest(messages).map((m, i) => (
        <Fragment key={i}>
          <input type="hidden" name={CHAT_FORM_FIELDS.role} value={m.role} />
          <input type="hidden" name={CHAT_FORM_FIELDS.content} value={m.content} />
        </Fragment>
      ))}
      {error ? (
        <p id={ERROR_ID} role="alert" className="mb-2 text-sm font-medium text-red-700">
          {error}
        </p>
      ) : null}
      <div className="flex items-end gap-2">
        <label htmlFor={INPUT_ID} className="sr-only">
          Message
        </label>
        <textarea
          ref={inputRef}
          id={INPUT_ID}
          name={CHAT_FORM_FIELDS.message}
          rows={1}
          required
          value={draft}
          defaultValue={draft === undefined ? defaultDraft : undefined}
          maxLength={MAX_MESSAGE_CHARS}
          onChange={onDraft ? (event) => onDraft(event.target.value) : undefined}
          onKeyDown={onKeyDown}
          placeholder="Type your message…"
          enterKeyHint="send"
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? ERROR_ID : undefined}
          className="max-h-24 min-h-10 flex-1 resize-none rounded-xl border border-forest-200 bg-white px-3 py-2 text-base leading-snug sm:text-[0.9rem] text-slate-900 [field-sizing:content] placeholder:text-slate-500 focus:border-forest-500 focus:outline-2 focus:outline-forest-500/30"
        />
        <button
          type="submit"
          disabled={sendDisabled}
          aria-label="Send message"
          className="inline-flex size-10 shrink-0 items-center justify-center rounded-full bg-forest-700 text-white hover:bg-forest-800 disabled:cursor-not-allowed disabled:bg-forest-200 disabled:text-forest-50"
        >
          <Icon name="arrowRight" />
        </button>
      </div>
    </form>
  );
}
