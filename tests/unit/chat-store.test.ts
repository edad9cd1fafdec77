/**
 * The widget's store without a browser: fetch and sessionStorage are stubbed. Covers the
 * spec's sending rules (blank and pending block), the request body, the reply and the
 * failure message, and what is kept for the next page.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import {
  CHAT_FAILURE,
  CHAT_GREETING,
  CHAT_OPEN_KEY,
  CHAT_STORAGE_KEY,
  MAX_HISTORY_MESSAGES,
} from "../../src/lib/chat.ts";
import {
  $chatMessages,
  $chatPending,
  $chatView,
  closeChat,
  openChat,
  persistChat,
  restoreChat,
  sendChatMessage,
} from "../../src/lib/stores/chat.ts";

const storage = new Map<string, string>();
const calls: { url: string; init: RequestInit }[] = [];
let answer: () => Promise<Response>;

beforeEach(() => {
  storage.clear();
  calls.length = 0;
  vi.stubGlobal("sessionStorage", {
    getItem: (k: string) => storage.get(k) ?? null,
    setItem: (k: string, v: string) => void storage.set(k, v),
    removeItem: (k: string) => void storage.delete(k),
  });
  vi.stubGlobal("fetch", async (url: string, init: RequestInit) => {
    calls.push({ url, init });
    return answer();
  });
  answer = async () =>
    Response.json({
      message: "Which service?",
      actions: [{ type: "quote", serviceType: "emergency" }, { type: "evil" }],
    });
  $chatMessages.set([{ role: "assistant", content: CHAT_GREETING, timestamp: 1 }]);
  $chatView.set("closed");
  $chatPending.set(false);
});
afterEach(() => vi.unstubAllGlobals());

describe("chat store", () => {
  it("posts the history and appends the reply (unknown actions dropped)", async () => {
    expect(await sendChatMessage("  Residential \n")).toBe(true);
    expect(calls).toHaveLength(1);
    expect(calls[0]!.url).toBe("/api/chat");
    expect(calls[0]!.init.method).toBe("POST");
    expect(calls[0]!.init.credentials).toBe("include");
    expect(JSON.parse(String(calls[0]!.init.body))).toEqual({
      messages: [
        { role: "assistant", content: CHAT_GREETING },
        { role: "user", content: "Residential" },
      ],
    });
    expect($chatMessages.get().map((m) => [m.role, m.content, m.actions])).toEqual([
      ["assistant", CHAT_GREETING, undefined],
      ["user", "Residential", undefined],
      ["assistant", "Which service?", [{ type: "quote", serviceType: "emergency" }]],
    ]);
    expect($chatPending.get()).toBe(false);
  });

  it("blank text and a pending reply send nothing", async () => {
    expect(await sendChatMessage(" \n\t")).toBe(false);
    let release!: () => void;
    answer = () => new Promise((resolve) => (release = () => resolve(Response.json({ message: "ok" }))));
    const first = sendChatMessage("one");
    expect($chatPending.get()).toBe(true);
    expect(await sendChatMessage("two")).toBe(false);
    release();
    await first;
    expect(calls).toHaveLength(1);
    expect($chatMessages.get().map((m) => m.content)).toEqual([CHAT_GREETING, "one", "ok"]);
  });

  it("a non-OK answer, a network error or an empty reply append the spec's failure text", async () => {
    for (const fail of [
      async () => new Response("boom", { status: 500 }),
      async () => Promise.reject(new TypeError("offline")),
      async () => Response.json({}),
    ]) {
      answer = fail;
      await sendChatMessage("hello?");
      expect(
        $chatMessages
          .get()
          .slice(-2)
          .map((m) => [m.role, m.content]),
      ).toEqual([
        ["user", "hello?"],
        ["assistant", CHAT_FAILURE],
      ]);
    }
  });

  it("sends at most the newest 20 messages", async () => {
    $chatMessages.set(
      Array.from(
        { length: 40 },
        (_, i) => ({ role: i % 2 ? "user" : "assistant", content: `m${i}`, timestamp: i }) as const,
      ),
    );
    await sendChatMessage("last");
    const sent = JSON.parse(String(calls[0]!.init.body)).messages;
    expect(sent).toHaveLength(MAX_HISTORY_MESSAGES);
    expect(sent.at(-1)).toEqual({ role: "user", content: "last" });
  });

  it("keeps the conversation and the open flag in sessionStorage for the next page", async () => {
    const stop = persistChat();
    openChat();
    await sendChatMessage("hi");
    expect(storage.get(CHAT_OPEN_KEY)).toBe("1");
    const saved = JSON.parse(storage.get(CHAT_STORAGE_KEY)!);
    expect(saved.view).toBe("open");
    expect(saved.messages.map((m: { content: string }) => m.content)).toEqual([CHAT_GREETING, "hi", "Which service?"]);
    closeChat();
    expect(storage.has(CHAT_OPEN_KEY)).toBe(false);
    stop();

    // The next page.
    $chatMessages.set([]);
    expect(restoreChat()).toBe("closed");
    expect($chatMessages.get().map((m) => m.content)).toEqual([CHAT_GREETING, "hi", "Which service?"]);
    storage.set(CHAT_STORAGE_KEY, "{not json");
    expect(restoreChat()).toBe("closed");
  });
});
