/**
 * The chat as a server-rendered page, for a message posted by the panel's form without
 * JavaScript (or before the island ran): the conversation with the assistant's reply and
 * the form to go on, rendered from the same React components as the panel (ChatLog,
 * ChatForm) inside the site's no-JS page shell (pages.ts). React escapes every value,
 * and the answer's CSP forbids scripts anyway.
 */
import { createElement as h } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { CHAT_TITLE } from "../../../src/lib/chat.ts";
import { ChatForm, ChatLog, type ShownMessage } from "../../../src/views/chat/ChatPanel.tsx";
import { renderPage } from "../pages.ts";

// The shell has no Tailwind: just enough for two columns of bubbles and the form.
const STYLE = `<style>
.chat [role=log]{display:grid;gap:.75rem;margin:1rem 0;padding:0}
.chat [data-chat-message]{max-width:85%;padding:.5rem .75rem;border-radius:1rem;overflow-wrap:anywhere}
.chat [data-chat-message=user]{justify-self:end;background:var(--forest);color:#fff;white-space:pre-wrap}
.chat [data-chat-message=assistant]{justify-self:start;background:var(--forest-50);border:1px solid #dcefe1}
.chat [data-chat-message] p{margin:0}.chat [data-chat-message] p+p{margin-top:.5rem}
.chat [data-chat-message=assistant] a{color:var(--forest-dark);font-weight:600}
.chat [data-chat-action]{display:inline-block;margin-top:.5rem;padding:.375rem .875rem;border-radius:999px;background:var(--forest);color:#fff!important;text-decoration:none}
.chat form{margin:0}.chat form>div{display:flex;gap:.5rem;align-items:flex-end}
.chat textarea{flex:1;min-height:2.75rem;padding:.5rem .75rem;border:1px solid #8ec5a2;border-radius:.75rem;font:inherit;font-size:1rem;resize:vertical}
.chat button[type=submit]{display:inline-flex;flex-shrink:0;align-items:center;justify-content:center;width:2.75rem;height:2.75rem;border:0;border-radius:999px;background:var(--forest);color:#fff;cursor:pointer}
.chat button svg{width:1.25rem;height:1.25rem}
.chat [role=alert]{margin:0 0 .5rem;color:#b91c1c;font-weight:600}
</style>`;

export interface ChatPageOptions {
  /** The conversation to show, oldest first; its newest messages go back as the form's hidden fields. */
  messages: readonly ShownMessage[];
  /** What went wrong with the post (400 page); the visitor's text is put back in the box. */
  error?: string;
  draft?: string;
}

export function chatPage({ messages, error, draft }: ChatPageOptions): string {
  const content = renderToStaticMarkup(
    h(
      "div",
      { className: "chat" },
      h("h1", null, CHAT_TITLE),
      h("p", { className: "lead" }, "Our assistant answers here; for anything urgent, call us."),
      h(ChatLog, { messages, actionLinks: true }),
      h(ChatForm, { messages, defaultDraft: draft, error }),
    ),
  );
  return renderPage({ title: error ? "Please check your message" : CHAT_TITLE, body: STYLE + content });
}
