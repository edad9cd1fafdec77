/**
 * The built-in assistant (deterministic, grounded in estimate()) and the pieces of the
 * chat contract that need no server: the request schema, the history the widget sends,
 * the history the model gets, and the system prompt's contents.
 */
import { DANGER_FIRST, HOTLINE } from "../../src/lib/forms/copy.ts";
import { describe, expect, it } from "vitest";
import { fallbackReply } from "../../netlify/lib/assistant/fallback.ts";
import { toModelMessages } from "../../netlify/lib/assistant/claude.ts";
import { ASSISTANT_PAGES, buildSystemPrompt } from "../../netlify/lib/assistant/prompt.ts";
import { runTool } from "../../netlify/lib/assistant/tools.ts";
import {
  CHAT_GREETING,
  ChatRequest,
  MAX_HISTORY_MESSAGES,
  historyForRequest,
  type ChatMessage,
} from "../../src/lib/chat.ts";
import { estimate } from "../../src/lib/estimate.ts";
import { SERVICE_TYPES, URGENCY } from "../../src/lib/options.ts";
import { STATIC_ROUTES } from "../../src/lib/routes.ts";
import { SITE } from "../../src/lib/site.ts";

const greeting: ChatMessage = { role: "assistant", content: CHAT_GREETING };

/** Plays a conversation through the built-in assistant; returns every reply. */
function play(...visitor: string[]) {
  const history: ChatMessage[] = [greeting];
  return visitor.map((text) => {
    history.push({ role: "user", content: text });
    const reply = fallbackReply(history);
    history.push({ role: "assistant", content: reply.message });
    return reply;
  });
}

describe("built-in assistant", () => {
  it("residential -> service -> urgency -> estimate, phone and quote action", () => {
    const [a, b, c] = play("residential", "stump grinding please", "no rush");
    expect(a!.message).toMatch(/^Thanks, a residential property\. Which service/);
    expect(b!.message).toMatch(/How soon do you need it/);
    expect(c!.message).toContain(estimate("stump-grinding", "not-urgent").text);
    expect(c!.message).toContain(SITE.phone);
    expect(c!.actions).toEqual([{ type: "quote", serviceType: "stump-grinding", urgency: "not-urgent" }]);
  });

  it("every service and urgency lands on estimate()'s range", () => {
    const says: Record<string, string> = {
      "tree-trimming": "trim my oak",
      "tree-removal": "remove a dead tree",
      "stump-grinding": "grind a stump",
    };
    const when: Record<string, string> = {
      "not-urgent": "no rush",
      "within-week": "within a week",
      "within-days": "in a few days",
    };
    for (const [service, text] of Object.entries(says)) {
      for (const [urgency, soon] of Object.entries(when)) {
        const reply = play("commercial", text, soon).at(-1)!;
        expect(reply.message, `${service} ${urgency}`).toContain(estimate(service, urgency).text);
        expect(reply.message).toMatch(/commercial/);
        expect(reply.actions).toEqual([{ type: "quote", serviceType: service, urgency }]);
      }
    }
  });

  it("takes everything from one message, and asks the segment when there was no greeting", () => {
    expect(play("Residential: trim two maples, within a week")[0]!.message).toContain(
      estimate("tree-trimming", "within-week").text,
    );
    expect(fallbackReply([{ role: "user", content: "how much is stump grinding?" }]).message).toBe(
      "Happy to price stump grinding. Is the work for a residential or a commercial property?",
    );
  });

  it("an answer it cannot place does not block: the segment is asked once", () => {
    const [a] = play("hello there");
    expect(a!.message).toMatch(/^Which service do you need/);
  });

  it("emergencies get 911 and the power lines first, then the site's own line, at any step", () => {
    for (const text of [
      "A tree fell on my house",
      "branch on the power line!",
      "storm damage, limb hanging over the driveway",
      "emergency",
    ]) {
      const reply = play("residential", text).at(-1)!;
      expect(reply.message.startsWith(`${DANGER_FIRST.hurt} ${DANGER_FIRST.lines}`), text).toBe(true);
      expect(reply.message.split("\n\n")[1]).toContain(HOTLINE.text);
      // Nobody can promise when a crew arrives for a job no crew has accepted yet.
      expect(reply.message).not.toMatch(/dispatch|on site within/i);
      expect(reply.actions).toEqual([{ type: "quote", serviceType: "emergency", urgency: "emergency" }]);
    }
  });

  it("owners, directory seekers and thanks", () => {
    expect(play("I run a tree service business and want to grow my business")[0]!.message).toContain(
      "](/business-growth)",
    );
    expect(play("find a tree service near me")[0]!.message).toContain("](/directory)");
    const replies = play("residential", "remove a tree", "within a week", "thanks!");
    expect(replies.at(-1)!.message).toMatch(/^You're welcome/);
    // A changed answer is priced again.
    const changed = play("residential", "remove a tree", "within a week", "actually no rush").at(-1)!;
    expect(changed.message).toContain(estimate("tree-removal", "not-urgent").text);
  });

  it("is deterministic", () => {
    expect(play("residential", "trim", "asap")).toEqual(play("residential", "trim", "asap"));
  });
});

describe("request contract", () => {
  it("the widget sends role and content of the newest 20 messages, never system ones", () => {
    const stored = [
      { role: "assistant", content: CHAT_GREETING, timestamp: 1 },
      { role: "system", content: "x", timestamp: 2 },
      ...Array.from({ length: 30 }, (_, i) => ({ role: i % 2 ? "assistant" : "user", content: `m${i}`, timestamp: i })),
    ];
    const sent = historyForRequest(stored);
    expect(sent).toHaveLength(MAX_HISTORY_MESSAGES);
    expect(sent.at(-1)).toEqual({ role: "assistant", content: "m29" });
    expect(sent.every((m) => Object.keys(m).join() === "role,content")).toBe(true);
    expect(ChatRequest.safeParse({ messages: [...sent, { role: "user", content: "next" }] }).success).toBe(true);
  });

  it("the model gets a history that starts with the visitor and alternates", () => {
    expect(
      toModelMessages([
        greeting,
        { role: "user", content: "a" },
        { role: "user", content: "b" },
        { role: "assistant", content: "c" },
        { role: "user", content: "d" },
      ]),
    ).toEqual([
      { role: "user", content: "a\n\nb" },
      { role: "assistant", content: "c" },
      { role: "user", content: "d" },
    ]);
  });
});

describe("system prompt and tools", () => {
  const prompt = buildSystemPrompt();

  it("is built from src/lib: services, ranges, urgencies, phone, e-mail, 24/7, pages", () => {
    for (const s of SERVICE_TYPES)
      expect(prompt).toContain(`${s.label} (${s.value}): base ${estimate(s.value, "not-urgent").text}`);
    for (const u of URGENCY) expect(prompt).toContain(`${u.label} (${u.value})`);
    expect(prompt).toContain(SITE.phone);
    expect(prompt).toContain(SITE.email);
    expect(prompt).toContain(HOTLINE.text);
    expect(prompt).toContain(DANGER_FIRST.hurt);
    expect(prompt).toContain("$200 - $1,500");
    for (const page of ASSISTANT_PAGES) {
      expect(STATIC_ROUTES).toContain(page.path);
      expect(prompt).toContain(`- ${page.path}: `);
    }
  });

  it("estimate_quote answers with estimate(); open_quote_form yields the action", () => {
    for (const s of SERVICE_TYPES) {
      for (const u of URGENCY) {
        expect(JSON.parse(runTool("estimate_quote", { serviceType: s.value, urgency: u.value }).content).range).toBe(
          estimate(s.value, u.value).text,
        );
      }
    }
    expect(runTool("open_quote_form", { serviceType: "emergency" })).toMatchObject({
      action: { type: "quote", serviceType: "emergency" },
    });
    expect(runTool("open_quote_form", {}).action).toEqual({ type: "quote" });
    expect(runTool("open_quote_form", { serviceType: "<script>" }).isError).toBe(true);
    expect(runTool("estimate_quote", { serviceType: "tree-removal" }).isError).toBe(true);
    expect(runTool("rm_rf", {}).isError).toBe(true);
  });
});
