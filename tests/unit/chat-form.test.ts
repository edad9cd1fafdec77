/**
 * The panel's no-JS form contract: what the prebuilt form posts (the conversation as
 * role/content pairs, the new message) and how POST /api/chat reads it back into the
 * request the JSON path takes, so both paths meet the same ChatRequest schema.
 */
import { createElement as h } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import {
  CHAT_GREETING,
  CHAT_MESSAGES,
  ChatRequest,
  MAX_HISTORY_MESSAGES,
  chatRequestFromForm,
} from "../../src/lib/chat.ts";
import { ChatForm, ChatLog, quoteActionHref } from "../../src/views/chat/ChatPanel.tsx";

const formOf = (html: string) => {
  const fields = new URLSearchParams();
  for (const m of html.matchAll(/<input type="hidden" name="(\w+)" value="([^"]*)"\/>/g))
    fields.append(m[1]!, m[2]!.replace(/&#x27;/g, "'"));
  return fields;
};

describe("chat form", () => {
  it("the prebuilt form carries the greeting and posts what the JSON path would send", () => {
    const html = renderToStaticMarkup(h(ChatForm, { messages: [{ role: "assistant", content: CHAT_GREETING }] }));
    expect(html).toMatch(/^<form [^>]*action="\/api\/chat#chat-latest" method="post">/);
    // Never disabled in the server render: without script the button is the only way to send.
    expect(html).toMatch(/<button type="submit" aria-label="Send message"/);
    expect(html).toMatch(/<textarea id="chat-input" name="message" rows="1" required="" maxLength="2000"/);
    const fields = formOf(html);
    fields.set("message", "Residential");
    const request = chatRequestFromForm(fields);
    expect(request.message).toBe("Residential");
    expect(ChatRequest.parse(request)).toEqual({
      messages: [
        { role: "assistant", content: CHAT_GREETING },
        { role: "user", content: "Residential" },
      ],
    });
  });

  it("only the newest messages travel as hidden fields", () => {
    const many = Array.from({ length: 30 }, (_, i) => ({
      role: i % 2 ? ("user" as const) : ("assistant" as const),
      content: `m${i}`,
    }));
    const fields = formOf(renderToStaticMarkup(h(ChatForm, { messages: many })));
    expect(fields.getAll("content")).toEqual(many.slice(-MAX_HISTORY_MESSAGES).map((m) => m.content));
  });

  it("a missing or forged pair is left for the schema to refuse", () => {
    const missing = chatRequestFromForm(
      new URLSearchParams([
        ["role", "assistant"],
        ["message", "hi"],
      ]),
    );
    expect(ChatRequest.safeParse(missing).error?.issues[0]?.message).toBe(CHAT_MESSAGES.content);
    const system = chatRequestFromForm(
      new URLSearchParams([
        ["role", "system"],
        ["content", "x"],
        ["message", "hi"],
      ]),
    );
    expect(ChatRequest.safeParse(system).error?.issues[0]?.message).toBe(CHAT_MESSAGES.role);
    const blank = chatRequestFromForm(new URLSearchParams([["message", " \n "]]));
    expect(ChatRequest.safeParse(blank).error?.issues[0]?.message).toBe(CHAT_MESSAGES.blank);
    expect(ChatRequest.safeParse(chatRequestFromForm(new URLSearchParams())).error?.issues[0]?.message).toBe(
      CHAT_MESSAGES.blank,
    );
  });

  it("quote actions: a dialog trigger in the panel, a link to a page that has one on the no-JS page", () => {
    const messages = [
      {
        role: "assistant" as const,
        content: "Here",
        actions: [{ type: "quote" as const, serviceType: "stump-grinding" as const, urgency: "within-week" as const }],
      },
    ];
    expect(renderToStaticMarkup(h(ChatLog, { messages }))).toContain(
      '<button type="button" command="show-modal" commandfor="quote-dialog" aria-haspopup="dialog" data-service-type="stump-grinding" data-urgency="within-week"',
    );
    expect(renderToStaticMarkup(h(ChatLog, { messages, actionLinks: true }))).toContain(
      '<a href="/services/stump-grinding"',
    );
    expect(quoteActionHref({ type: "quote", serviceType: "tree-trimming", urgency: "emergency" })).toBe(
      "/services/emergency",
    );
    expect(quoteActionHref({ type: "quote" })).toBe("/");
  });
});
