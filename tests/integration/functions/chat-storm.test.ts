/**
 * The assistant inside a declared storm (real Redis, fake Anthropic on 127.0.0.1): a visitor
 * who gives a ZIP in a declared California area gets the same storm line as the quote form
 * (pre-storm range, no storm surcharge, Penal Code 396's 10% rule) from the built-in
 * assistant and in Claude's estimate_quote tool result; a ZIP outside gets neither.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { chatHandler } from "../../../netlify/lib/assistant/handler.ts";
import { zipInChat } from "../../../netlify/lib/assistant/storm.ts";
import { declareStorm } from "../../../netlify/lib/storms.ts";
import { CHAT_GREETING } from "../../../src/lib/chat.ts";
import { parseEnv } from "../../../src/lib/env.ts";
import { estimate } from "../../../src/lib/estimate.ts";
import { priceRuleFor, stormPricing } from "../../../src/lib/storm.ts";
import { FAKE_API_KEY, startFakeAnthropic, type FakeAnthropic } from "../../helpers/fake-anthropic.ts";
import { functionsHarness, jsonRequest, nextIp } from "../../helpers/functions.ts";

const h = await functionsHarness("chat-storm");
let fake: FakeAnthropic;
beforeAll(async () => {
  fake = await startFakeAnthropic();
  vi.spyOn(console, "info").mockImplementation(() => undefined);
  vi.spyOn(console, "warn").mockImplementation(() => undefined);
});
afterAll(async () => {
  vi.restoreAllMocks();
  await fake?.close();
  await h?.teardown();
});

type Msg = { role: "user" | "assistant"; content: string };
const greeting: Msg = { role: "assistant", content: CHAT_GREETING };
const NOW = Date.parse("2026-10-09T14:00:00Z");

describe.skipIf(!h)("the assistant in a storm", () => {
  const say = async (env: Record<string, string>, messages: Msg[]) => {
    const chat = chatHandler({
      store: () => h!.store,
      env: parseEnv({ CHAT_RATE_LIMIT_PER_MINUTE: "1000", ...env }),
      now: () => NOW,
    });
    const res = await chat(jsonRequest("/api/chat", { messages }), nextIp());
    expect(res.status).toBe(200);
    return (await res.json()) as { message: string };
  };
  const line = (service: string, urgency: string) => stormPricing(estimate(service, urgency), priceRuleFor("CA")).text;

  beforeAll(async () => {
    await declareStorm(
      {
        name: "Atmospheric River",
        area: { kind: "zips", zips: ["95814"] },
        startsAt: new Date(NOW - 3_600_000).toISOString(),
        declaration: { level: "governor", reference: "Proclamation 2026-10-09" },
      },
      { store: h!.store, now: NOW },
    );
  });

  it("finds the last ZIP the visitor wrote", () => {
    expect(zipInChat([{ role: "user", content: "I'm at 78701, no wait, 95814" }])).toBe("95814");
    expect(zipInChat([{ role: "user", content: "call 512-555-0142" }])).toBeUndefined();
    expect(
      zipInChat([
        { role: "user", content: "95814" },
        { role: "assistant", content: "Where? 78701?" },
      ]),
    ).toBe("95814");
  });

  it("the built-in assistant: the estimate and the emergency answer carry the storm line for 95814, not for 78701", async () => {
    const trim = await say({}, [
      greeting,
      { role: "user", content: "Residential, trim a tree within a few days, ZIP 95814" },
    ]);
    expect(trim.message).toContain(estimate("tree-trimming", "within-days").text);
    expect(trim.message).toContain(line("tree-trimming", "within-days"));
    expect(trim.message).toContain("California Penal Code 396");

    const down = await say({}, [greeting, { role: "user", content: "A tree fell on my house in 95814" }]);
    expect(down.message).toContain(line("emergency", "emergency"));

    const austin = await say({}, [
      greeting,
      { role: "user", content: "Residential, trim a tree within a few days, ZIP 78701" },
    ]);
    expect(austin.message).not.toContain("storm");
  });

  it("Claude's estimate_quote result carries the same line", async () => {
    fake.queue(
      {
        toolUse: [
          { name: "estimate_quote", id: "toolu_storm", input: { serviceType: "tree-removal", urgency: "emergency" } },
        ],
      },
      { text: "Done." },
    );
    await say({ ANTHROPIC_API_KEY: FAKE_API_KEY, ANTHROPIC_BASE_URL: fake.url }, [
      greeting,
      { role: "user", content: "Residential. How much to remove a tree right now? I'm in 95814" },
    ]);
    const sent = fake.requests.at(-1)!.body.messages.at(-1)!.content as { content: string }[];
    const result = JSON.parse(sent[0]!.content) as { storm?: string; range: string };
    expect(result.range).toBe(estimate("tree-removal", "emergency").text);
    expect(result.storm).toBe(line("tree-removal", "emergency"));
    // The prompt tells Claude to say that line and never add a surcharge.
    expect(fake.requests.at(-1)!.body.system).toContain('"storm" line');
  });
});
