/**
 * POST /api/quote against a real Redis: the whole pipeline (status codes, messages, bot
 * traps, limits, idempotency, outages) and both the JSON and the no-JavaScript HTML path.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { QUOTE_ENDPOINT } from "../../../netlify/lib/lead-endpoints.ts";
import { IDEMPOTENCY_CONFLICT, SAVE_ERROR } from "../../../netlify/lib/leads.ts";
import { CROSS_SITE_ERROR } from "../../../netlify/lib/http.ts";
import { MESSAGES, VALIDATION_ERROR } from "../../../src/lib/schemas/forms.ts";
import {
  ORIGIN,
  deadStore,
  formRequest,
  functionsHarness,
  humanStarted,
  jsonRequest,
  nextIp,
  toEntries,
  validQuote,
  type FunctionsHarness,
  receiptReply,
  expectFlash,
} from "../../helpers/functions.ts";
import { parseEnv } from "../../../src/lib/env.ts";

const h = await functionsHarness("quote");

describe.skipIf(!h)("POST /api/quote", () => {
  let harness: FunctionsHarness;
  let quote: ReturnType<FunctionsHarness["handler"]>;
  beforeAll(() => {
    harness = h!;
    quote = harness.handler(QUOTE_ENDPOINT);
  });
  afterAll(async () => {
    await h?.teardown();
  });

  const leadsOfType = async () => (await harness.store.leads.list("quote", { limit: 100 })).items;

  it("stores the lead with the server's estimate and answers 201", async () => {
    const res = await quote(
      jsonRequest("/api/quote", { ...validQuote(), _started: humanStarted(), _source: "/services/tree-removal" }),
      nextIp(),
    );
    expect(res.status).toBe(201);
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    const body = await res.json();
    // No business is listed near it here: the operator has it at once, and the reply says so.
    expect(body).toEqual({
      ok: true,
      id: expect.stringMatching(/^ld_/),
      estimatedCost: "$900 - $4,500",
      matches: [],
      offers: {
        offered: 0,
        near: "Austin, TX",
        aroundTheClock: true,
        timeZone: "America/Chicago",
        toOperator: "no-pros",
      },
      ...receiptReply("emergency"),
    });

    const lead = await harness.store.leads.get(body.id);
    expect(lead).toMatchObject({
      type: "quote",
      sourcePage: "/services/tree-removal",
      data: {
        name: "Jane Customer",
        serviceType: "tree-removal",
        urgency: "emergency",
        estimatedCost: "$900 - $4,500",
        clientEstimate: "$1 - $2",
      },
    });
    expect((lead!.data as Record<string, unknown>)._started).toBeUndefined();
  });

  it("answers every spec message for an empty JSON object", async () => {
    const res = await quote(jsonRequest("/api/quote", {}), nextIp());
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({
      error: VALIDATION_ERROR,
      fields: {
        name: "Name must be at least 2 characters",
        email: "Please enter a valid email",
        phone: "Please enter a valid phone number",
        address: "Please enter your full address",
        serviceType: "Please select a service type",
        urgency: "Please select urgency level",
      },
    });
  });

  it("405 with Allow for other methods", async () => {
    for (const method of ["GET", "PUT", "DELETE", "OPTIONS"]) {
      const res = await quote(new Request(`${ORIGIN}/api/quote`, { method }), nextIp());
      expect(res.status).toBe(405);
      expect(res.headers.get("allow")).toBe("POST");
      expect((await res.json()).error).toMatch(/POST/);
    }
  });

  it("415 for other content types, and for none", async () => {
    for (const headers of [{ "content-type": "text/plain" }, {} as Record<string, string>]) {
      const res = await quote(
        new Request(`${ORIGIN}/api/quote`, { method: "POST", headers, body: JSON.stringify(validQuote()) }),
        nextIp(),
      );
      expect(res.status).toBe(415);
      expect((await res.json()).error).toMatch(/content type/i);
    }
  });

  it("413 above 16 KB, declared or streamed", async () => {
    const big = { ...validQuote(), treeDetails: { treeType: "x".repeat(17 * 1024) } };
    const res = await quote(jsonRequest("/api/quote", big), nextIp());
    expect(res.status).toBe(413);
    expect((await res.json()).error).toMatch(/16 KB/);

    const declared = new Request(`${ORIGIN}/api/quote`, {
      method: "POST",
      headers: { "content-type": "application/json", "content-length": String(10 * 1024 * 1024) },
      body: "{}",
    });
    expect((await quote(declared, nextIp())).status).toBe(413);
  });

  it("400 JSON for malformed JSON, non-objects and invalid UTF-8", async () => {
    for (const body of ['{"name": "Jane"', "", "[]", "null", '"text"', "42"]) {
      const res = await quote(jsonRequest("/api/quote", body), nextIp());
      expect(res.status, body).toBe(400);
      expect(typeof (await res.json()).error).toBe("string");
    }
    const bytes = new Request(`${ORIGIN}/api/quote`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: new Uint8Array([0x7b, 0xff, 0xfe, 0x7d]),
    });
    expect((await quote(bytes, nextIp())).status).toBe(400);
  });

  it("answers 400, never 5xx, for wrong types, nested junk and __proto__ keys", async () => {
    const bodies: unknown[] = [
      '{"__proto__": {"name": "x", "polluted": true}, "name": 5}',
      '{"constructor": {"prototype": {"polluted": true}}, "name": ["a"]}',
      { ...validQuote(), name: { toString: "x" } },
      { ...validQuote(), treeDetails: "not an object" },
      { ...validQuote(), treeDetails: { height: { deep: [1, 2, { a: null }] } } },
      { ...validQuote(), email: 42, phone: true, urgency: null },
      { ...validQuote(), address: "y".repeat(5000) },
      `{"name": ${"[".repeat(3000)}${"]".repeat(3000)}}`,
    ];
    for (const body of bodies) {
      const res = await quote(jsonRequest("/api/quote", body), nextIp());
      expect(res.status, JSON.stringify(body).slice(0, 80)).toBe(400);
      const json = await res.json();
      expect(json.error).toBe(VALIDATION_ERROR);
      expect(Object.keys(json.fields).length).toBeGreaterThan(0);
    }
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    const huge = await quote(jsonRequest("/api/quote", { ...validQuote(), address: "y".repeat(5000) }), nextIp());
    expect((await huge.json()).fields).toEqual({ address: MESSAGES.tooLong });
  });

  it("honeypot: fake success, nothing stored", async () => {
    const before = (await leadsOfType()).length;
    const res = await quote(
      jsonRequest("/api/quote", { ...validQuote(), company_website: "http://spam.example" }),
      nextIp(),
    );
    expect(res.status).toBe(201);
    const body = await res.json();
    // The same reply a stored quote gets.
    expect(body).toEqual({
      ok: true,
      id: expect.stringMatching(/^ld_/),
      estimatedCost: "$900 - $4,500",
      matches: [],
      offers: {
        offered: 0,
        near: "Austin, TX",
        aroundTheClock: true,
        timeZone: "America/Chicago",
        toOperator: "no-pros",
      },
      ...receiptReply("emergency"),
    });
    expect(await harness.store.leads.get(body.id)).toBeNull();
    expect((await leadsOfType()).length).toBe(before);
  });

  it("too fast (< 2.5 s since _started): stored, but held for the operator and nothing sent; missing _started is fine", async () => {
    const pending: Promise<unknown>[] = [];
    const fast = await harness.handler(QUOTE_ENDPOINT, {
      env: parseEnv({
        RATE_LIMIT_PER_MINUTE: "1000",
        RESEND_API_KEY: "re_x",
        RESEND_API_URL: "http://127.0.0.1:9/emails",
      }),
    })(jsonRequest("/api/quote", { ...validQuote(), _started: String(Date.now() - 500) }), {
      ...nextIp(),
      waitUntil: (p) => void pending.push(p),
    });
    expect(fast.status).toBe(201);
    const reply = (await fast.json()) as { id: string; statusUrl: string; willEmail: boolean };
    // A real receipt: its status link works; no e-mail is promised.
    expect(reply.willEmail).toBe(false);
    expect(reply.statusUrl).toMatch(new RegExp(`^/requests/${reply.id}/`));
    const lead = await harness.store.leads.get(reply.id);
    expect(lead!.routing).toMatchObject({
      deliveries: [],
      escalatedAt: expect.any(String),
      events: [{ kind: "escalated", reason: "too-fast" }],
    });
    await Promise.all(pending);
    // The operator hears (kept here: no operator channel); the address given gets nothing.
    const messages = await harness.store.messages.forLead(reply.id);
    expect(messages.map((m) => [m.audience, m.kind])).toEqual([
      ["operator", "escalated"],
      ["operator", "new-lead"],
    ]);

    const noClock = await quote(jsonRequest("/api/quote", validQuote()), nextIp());
    expect(noClock.status).toBe(201);
    const normal = await harness.store.leads.get((await noClock.json()).id);
    expect(normal).not.toBeNull();
    expect(normal!.routing!.events).toEqual([expect.objectContaining({ kind: "escalated", reason: "no-pros" })]);
  });

  it("429 with Retry-After once the per-IP limit is used up", async () => {
    const limited = harness.handler(QUOTE_ENDPOINT, { env: parseEnv({ RATE_LIMIT_PER_MINUTE: "2" }) });
    const ip = nextIp();
    expect((await limited(jsonRequest("/api/quote", {}), ip)).status).toBe(400);
    expect((await limited(jsonRequest("/api/quote", {}), ip)).status).toBe(400);
    const res = await limited(jsonRequest("/api/quote", validQuote()), ip);
    expect(res.status).toBe(429);
    expect(Number(res.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect(Number(res.headers.get("retry-after"))).toBeLessThanOrEqual(60);
    expect((await res.json()).error).toMatch(/too many/i);
    // Another visitor is unaffected.
    expect((await limited(jsonRequest("/api/quote", validQuote()), nextIp())).status).toBe(201);
  });

  it("the IP falls back to x-nf-client-connection-ip; X-Forwarded-For is not an identity", async () => {
    const limited = harness.handler(QUOTE_ENDPOINT, { env: parseEnv({ RATE_LIMIT_PER_MINUTE: "1" }) });
    const headers = {
      "x-forwarded-for": `198.51.100.${process.pid % 250}, 10.0.0.1`,
      "x-nf-client-connection-ip": `nf-${Date.now()}`,
    };
    expect((await limited(jsonRequest("/api/quote", {}, headers))).status).toBe(400);
    // A new X-Forwarded-For per request changes nothing.
    expect(
      (await limited(jsonRequest("/api/quote", {}, { ...headers, "x-forwarded-for": "192.0.2.7" }), null)).status,
    ).toBe(429);
    // Requests with no address at all share no bucket: the sixth is not blocked by the first five.
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    try {
      for (let i = 0; i < 6; i++) expect((await limited(jsonRequest("/api/quote", {}), null)).status).toBe(400);
    } finally {
      warn.mockRestore();
    }
  });

  it("409 with a clear JSON error when an idempotency key comes back with different content", async () => {
    const key = `conflict-${Date.now()}-${Math.random()}`;
    const first = await quote(jsonRequest("/api/quote", validQuote(), { "idempotency-key": key }), nextIp());
    expect(first.status).toBe(201);
    const { id } = await first.json();
    const other = await quote(
      jsonRequest(
        "/api/quote",
        { ...validQuote(), name: "Someone Else", email: "else@example.com" },
        { "idempotency-key": key },
      ),
      nextIp(),
    );
    expect(other.status).toBe(409);
    expect(other.headers.get("content-type")).toMatch(/application\/json/);
    expect((await other.json()).error).toBe(IDEMPOTENCY_CONFLICT);
    // Only the first lead exists, and the same content still replays to it.
    expect((await leadsOfType()).filter((l) => (l.data as { name?: string }).name === "Someone Else")).toHaveLength(0);
    const replay = await quote(jsonRequest("/api/quote", validQuote(), { "idempotency-key": key }), nextIp());
    expect(replay.status).toBe(201);
    expect((await replay.json()).id).toBe(id);
    // The no-JS form: back to its page, which explains the conflict, with what was typed.
    const form = await quote(
      formRequest("/api/quote", [...toEntries({ ...validQuote(), name: "Form Person" }), ["_idempotencyKey", key]]),
      nextIp(),
    );
    const flash = await expectFlash(harness.store, form, "/forms/quote");
    expect(flash).toMatchObject({ status: 409, problem: IDEMPOTENCY_CONFLICT, values: { name: "Form Person" } });
  });

  it("403 for a post another site makes a browser send, JSON or form; same-site and header-less posts pass", async () => {
    const before = (await leadsOfType()).length;
    const evil = { origin: "https://evil.example" };
    const json = await quote(jsonRequest("/api/quote", validQuote(), evil), nextIp());
    expect(json.status).toBe(403);
    expect((await json.json()).error).toBe(CROSS_SITE_ERROR);
    const form = await quote(
      formRequest("/api/quote", toEntries(validQuote()), { "sec-fetch-site": "cross-site" }),
      nextIp(),
    );
    expect(await expectFlash(harness.store, form, "/forms/quote")).toMatchObject({
      status: 403,
      problem: CROSS_SITE_ERROR,
    });
    expect((await quote(jsonRequest("/api/quote", validQuote(), { origin: "null" }), nextIp())).status).toBe(403);
    expect((await leadsOfType()).length).toBe(before);
    // The site's own pages, and clients that send neither header (curl, scripts), are served.
    expect(
      (
        await quote(
          jsonRequest("/api/quote", validQuote(), { origin: ORIGIN, "sec-fetch-site": "same-origin" }),
          nextIp(),
        )
      ).status,
    ).toBe(201);
    expect((await quote(jsonRequest("/api/quote", validQuote()), nextIp())).status).toBe(201);
  });

  it("stores text without control or bidi-override characters", async () => {
    const res = await quote(
      jsonRequest("/api/quote", {
        ...validQuote(),
        name: "Jane\u0000 \u202eremmacS",
        address: "123 Oak St\r\nX-Injected: yes",
        treeDetails: { treeType: "Live\u001b[31m oak\u2066" },
      }),
      nextIp(),
    );
    expect(res.status).toBe(201);
    const lead = await harness.store.leads.get((await res.json()).id);
    expect(lead!.data).toMatchObject({
      name: "Jane remmacS",
      address: "123 Oak St X-Injected: yes",
      treeDetails: { treeType: "Live[31m oak" },
    });
  });

  it("idempotency: the same key twice stores one lead (header or _idempotencyKey field)", async () => {
    const key = `test-${Date.now()}-${Math.random()}`;
    const first = await quote(jsonRequest("/api/quote", validQuote(), { "idempotency-key": key }), nextIp());
    const second = await quote(jsonRequest("/api/quote", validQuote(), { "idempotency-key": key }), nextIp());
    expect(first.status).toBe(201);
    expect(second.status).toBe(201);
    const a = await first.json();
    const b = await second.json();
    expect(b.id).toBe(a.id);
    const stored = (await leadsOfType()).filter((l) => l.id === a.id);
    expect(stored).toHaveLength(1);

    const fieldKey = `field-${Date.now()}`;
    const c = await (
      await quote(jsonRequest("/api/quote", { ...validQuote(), _idempotencyKey: fieldKey }), nextIp())
    ).json();
    const d = await (
      await quote(jsonRequest("/api/quote", { ...validQuote(), _idempotencyKey: fieldKey }), nextIp())
    ).json();
    expect(d.id).toBe(c.id);

    const bad = await quote(jsonRequest("/api/quote", validQuote(), { "idempotency-key": "k".repeat(300) }), nextIp());
    expect(bad.status).toBe(400);
  });

  it("503 JSON when the store is down (the limiter fails open first)", async () => {
    const down = harness.handler(QUOTE_ENDPOINT, { store: () => deadStore(harness.store), env: parseEnv({}) });
    const res = await down(jsonRequest("/api/quote", validQuote()), nextIp());
    expect(res.status).toBe(503);
    expect(await res.json()).toEqual({ error: SAVE_ERROR });
  });

  it("sourcePage: _source or the Referer path, same-site only, query dropped", async () => {
    const viaReferer = await (
      await quote(
        jsonRequest("/api/quote", validQuote(), { referer: `${ORIGIN}/services/emergency?name=Jane#x` }),
        nextIp(),
      )
    ).json();
    expect((await harness.store.leads.get(viaReferer.id))?.sourcePage).toBe("/services/emergency");

    for (const source of [
      "https://evil.example/phish",
      "//evil.example/x",
      "javascript:alert(1)",
      "relative/path",
      "/a\\b",
    ]) {
      const res = await (
        await quote(
          jsonRequest("/api/quote", { ...validQuote(), _source: source }, { referer: "https://evil.example/" }),
          nextIp(),
        )
      ).json();
      expect((await harness.store.leads.get(res.id))?.sourcePage, source).toBe("/");
    }
  });

  describe("form posts (no JavaScript)", () => {
    it("303 to the lead's own confirmation page, under its status link", async () => {
      const fields = toEntries({ ...validQuote(), name: "Form Quote Person", _started: humanStarted(), _source: "/" });
      const res = await quote(formRequest("/api/quote", fields), nextIp());
      expect(res.status).toBe(303);
      expect(res.headers.get("cache-control")).toBe("no-store");
      const location = res.headers.get("location")!;
      expect(location).toMatch(/^\/requests\/ld_[0-9a-z]+\/[\w-]{22}\/received$/);
      const lead = (await leadsOfType()).find((l) => (l.data as Record<string, unknown>).name === "Form Quote Person");
      expect(lead?.id).toBe(location.split("/")[2]);
      expect((lead!.data as { treeDetails?: { height?: string } }).treeDetails?.height).toBe("40 ft");
      expect((lead!.data as { estimatedCost?: string }).estimatedCost).toBe("$900 - $4,500");
      // Posting the same form again (a double click: the same key) leads to the same page, one lead.
      const key: [string, string] = ["_idempotencyKey", `double-${Date.now()}`];
      const once = await quote(formRequest("/api/quote", [...fields, key]), nextIp());
      const twice = await quote(formRequest("/api/quote", [...fields, key]), nextIp());
      expect(twice.headers.get("location")).toBe(once.headers.get("location"));
    });

    it("a refused form goes back to its page with the messages and what was typed; nothing is stored", async () => {
      const fields: [string, string][] = [
        ["name", '<script>alert("x")</script>'],
        ["email", "not-an-email"],
        ["phone", "123"],
        ["address", "12 Elm"],
        ["serviceType", "stump-grinding"],
        ["urgency", ""],
        ["treeDetails.height", '"><img src=x onerror=alert(1)>'],
        ["_source", "/services/stump-grinding"],
      ];
      const res = await quote(formRequest("/api/quote", fields), nextIp());
      const flash = await expectFlash(harness.store, res, "/forms/quote");
      expect(flash.status).toBe(422);
      expect(flash.errors).toMatchObject({ email: MESSAGES.email, phone: MESSAGES.phone, urgency: MESSAGES.urgency });
      expect(flash.errors.name).toBeUndefined();
      expect(flash.values).toMatchObject({
        name: '<script>alert("x")</script>',
        address: "12 Elm",
        serviceType: "stump-grinding",
        "treeDetails.height": '"><img src=x onerror=alert(1)>',
        _source: "/services/stump-grinding",
      });
      expect((await leadsOfType()).some((l) => (l.data as Record<string, unknown>).address === "12 Elm")).toBe(false);
    });

    it("a form post asking for JSON gets JSON", async () => {
      const res = await quote(
        formRequest("/api/quote", toEntries(validQuote()), { accept: "application/json" }),
        nextIp(),
      );
      expect(res.status).toBe(201);
      expect((await res.json()).estimatedCost).toBe("$900 - $4,500");
    });

    it("limits and outages go back to the form's page, which explains them", async () => {
      // The store is down: the flash cannot be kept either, so the page is told of the outage.
      const down = harness.handler(QUOTE_ENDPOINT, { store: () => deadStore(harness.store) });
      const res = await down(formRequest("/api/quote", toEntries(validQuote())), nextIp());
      expect(res.status).toBe(303);
      expect(res.headers.get("location")).toBe("/forms/quote?problem=unavailable");

      const big = await quote(formRequest("/api/quote", [["name", "x".repeat(20_000)]]), nextIp());
      expect(await expectFlash(harness.store, big, "/forms/quote")).toMatchObject({ status: 413, values: {} });

      const limited = harness.handler(QUOTE_ENDPOINT, { env: parseEnv({ RATE_LIMIT_PER_MINUTE: "1" }) });
      const ip = nextIp();
      await limited(formRequest("/api/quote", toEntries(validQuote())), ip);
      const refused = await limited(formRequest("/api/quote", toEntries(validQuote())), ip);
      expect(await expectFlash(harness.store, refused, "/forms/quote")).toMatchObject({ status: 429 });
      expect(refused.headers.get("retry-after")).toMatch(/^\d+$/);
    });
  });
});
