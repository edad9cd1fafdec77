/**
 * Sign-in links and codes at rest, on a real Redis with providers faked in `fetch`: once a
 * provider took (or refused) the message, the log, /admin's answers and the outbox keep no
 * usable link or code, while the receiver's copy still signs in. A message kept for want of a
 * provider still shows its link (the operator is its only way out). SMS codes are capped per
 * business and per phone number a day, and wrong codes pause a business's code sign-in
 * whatever the address (a fake clock for the days).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { adminMessagesHandler } from "../../../netlify/lib/admin/messages.ts";
import { CODE_REMOVED, LINK_REMOVED } from "../../../netlify/lib/messages/owner.ts";
import { drainOutbox } from "../../../netlify/lib/notify/index.ts";
import { forgetSentSignIns } from "../../../netlify/lib/notify/owners.ts";
import { claimHandler } from "../../../netlify/lib/owners/forms.ts";
import { returningSignInHandler } from "../../../netlify/lib/owners/returning.ts";
import { addOwner } from "../../../netlify/lib/owners/session.ts";
import type { OwnerAuthDeps } from "../../../netlify/lib/owners/page.ts";
import { codeHandler, signInHandler } from "../../../netlify/lib/owners/sign-in.ts";
import { loadCode } from "../../../netlify/lib/page-data/owner-sign-in.ts";
import { takeSignInLink, tryCode } from "../../../netlify/lib/owners/tokens.ts";
import { createStore, type Store } from "../../../netlify/lib/store/index.ts";
import type { AdminMessagesReply } from "../../../src/lib/admin.ts";
import { parseEnv } from "../../../src/lib/env.ts";
import {
  CODE_FAILURES_PER_BUSINESS,
  CODE_MAX_TRIES,
  CODES_PAUSED,
  CODES_PER_BUSINESS_PER_DAY,
  CODES_PER_PHONE_PER_DAY,
  TOO_MANY_CODES_TODAY,
} from "../../../src/lib/owners/limits.ts";
import type { Message } from "../../../src/lib/schemas/message.ts";
import { ORIGIN, expectFlash, formRequest, getRequest, nextIp, testBusiness } from "../../helpers/functions.ts";
import { deleteKeysWithPrefix, resolveTestRedisUrl, uniquePrefix } from "../../helpers/redis.ts";

const url = await resolveTestRedisUrl();
const SITE = "https://treeline.test";
const TOKEN = "test-admin-token-secrets-0123456";
const DAY = 86_400_000;
const T0 = Date.parse("2026-11-28T15:00:00Z");

/** Anything in a text that could be a link's token (43 base64url characters) or a code (6 digits). */
const tokensIn = (text: string) => [...text.matchAll(/[A-Za-z0-9_-]{43}/g)].map((m) => m[0]);
const codesIn = (text: string) => [...text.matchAll(/(?<!\d)\d{6}(?!\d)/g)].map((m) => m[0]);
const linkIn = (text: string) => /\/owner\/sign-in\/([A-Za-z0-9_-]{43})/.exec(text)?.[1] ?? "";

describe.skipIf(!url)("sign-in secrets at rest, and code guessing", () => {
  let store: Store;
  /** What the fake providers were asked to send, and how they answer next. */
  const sent: { url: string; body: string }[] = [];
  let answer = 200;
  const fakeFetch = (async (input: RequestInfo | URL, init: RequestInit = {}) => {
    sent.push({ url: String(input), body: String(init.body ?? "") });
    const body = String(input).includes("twilio") ? { sid: "SM1" } : { id: "re_1" };
    return new Response(JSON.stringify(body), { status: answer });
  }) as typeof fetch;
  const base = {
    SITE_URL: SITE,
    RATE_LIMIT_PER_MINUTE: "1000",
    LINK_SIGNING_SECRET: "secrets-test-link-secret-0123456789abcdef",
    ADMIN_TOKEN: TOKEN,
    NOTIFY_EMAIL_FROM: "Treeline <owners@treeline.test>",
  };
  const env = parseEnv({
    ...base,
    RESEND_API_KEY: "re_test",
    RESEND_API_URL: "https://resend.test/emails",
    TWILIO_ACCOUNT_SID: "AC123",
    TWILIO_AUTH_TOKEN: "twilio-token",
    TWILIO_FROM: "+15125550100",
    TWILIO_API_URL: "https://twilio.test",
  });
  const quiet = parseEnv(base);
  let clock = T0;
  const deps = (over: Partial<OwnerAuthDeps> = {}): OwnerAuthDeps => ({
    store: () => store,
    env,
    now: () => clock,
    sendsPerBusiness: 1000,
    notify: { fetch: fakeFetch },
    ...over,
  });
  // Each claim a second later: the log lists the newest first.
  const claim = (slug: string, fields: Record<string, string>, over: Partial<OwnerAuthDeps> = {}) =>
    claimHandler(deps({ now: () => (clock += 1_000), ...over }))(
      formRequest(
        `/owner/claim/${slug}`,
        Object.entries({ name: "Mia Maple", role: "owner", proof: "email", ...fields }),
      ),
      nextIp(),
    );
  /** The newest stored message of a kind, as the log keeps it. */
  const latest = async (kind: string): Promise<Message> => {
    const { items } = await store.messages.list({ limit: 200 });
    return items.find((m) => m.kind === kind)!;
  };
  /** Everything the log keeps of a message, as one text. */
  const stored = (m: Message) => JSON.stringify(m);
  const adminView = async () => {
    const res = await adminMessagesHandler({ store: () => store, env })(
      getRequest("/api/admin/messages?limit=100", { headers: { authorization: `Bearer ${TOKEN}` } }),
      nextIp(),
    );
    expect(res.status).toBe(200);
    return JSON.stringify(((await res.json()) as AdminMessagesReply).data);
  };

  beforeAll(async () => {
    store = createStore({ transport: "redis", url: url!, prefix: uniquePrefix("secrets") });
    await store.businesses.upsert(
      testBusiness("sec-maple", {
        name: "Maple Trees",
        slug: "maple-trees",
        email: "office@maple.test",
        phone: "(512) 555-0142",
      }),
    );
  });
  afterAll(async () => {
    await store.close();
    await deleteKeysWithPrefix(url!, store.prefix);
  });

  it("a sent sign-in link: the log, /admin and the outbox keep no usable token; the e-mail's copy signs in", async () => {
    sent.length = 0;
    expect((await claim("maple-trees", { email: "office@maple.test" })).status).toBe(303);
    const mailed = JSON.parse(sent[0]!.body) as { text: string; html: string };
    const token = linkIn(mailed.text);
    expect(token).toHaveLength(43);
    expect(mailed.html).toContain(token);

    const m = await latest("owner-sign-in");
    expect(m.state).toBe("sent");
    expect(m.text).toContain(`Sign in: ${LINK_REMOVED}`);
    expect(m.html).toContain(LINK_REMOVED);
    expect(stored(m)).not.toContain(token);
    expect(await adminView()).not.toContain(token);
    expect(await store.outbox.get(m.leadId)).toBeNull();
    // Try whatever in the log looks like a token: nothing signs in.
    for (const candidate of [...tokensIn(stored(m)), linkIn(stored(m))]) {
      expect((await takeSignInLink(store, candidate, clock)).ok).toBe(false);
    }
    // The receiver's copy was not spent by any of that, and still signs in once.
    const signedIn = await signInHandler(deps())(formRequest(`/owner/sign-in/${token}`, []), nextIp());
    expect(signedIn.headers.get("location")).toBe("/owner");
  });

  it("a sent code: the log keeps no code; the text's copy signs in", async () => {
    sent.length = 0;
    const res = await claim("maple-trees", { email: "texter@maple.test", proof: "sms" });
    const codePath = res.headers.get("location")!;
    const code = codesIn(new URLSearchParams(sent[0]!.body).get("Body") ?? "")[0]!;
    expect(code).toMatch(/^\d{6}$/);

    const m = await latest("owner-code");
    expect(m.state).toBe("sent");
    expect(m.text).toContain(CODE_REMOVED);
    expect(stored(m)).not.toContain(code);
    expect(await adminView()).not.toContain(code);
    const id = codePath.split("/").at(-1)!;
    // Nothing in the log is the code (a wrong try would count; there is none to make).
    expect(codesIn(stored(m))).toEqual([]);
    const signedIn = await codeHandler(deps())(formRequest(codePath, [["code", code]]), nextIp());
    expect(signedIn.headers.get("location")).toBe("/owner");
    expect((await tryCode(store, id, code, clock)).ok).toBe(false);
  });

  it("a refused message drops its link too; one that failed keeps it until a retry sends it", async () => {
    answer = 422;
    await claim("maple-trees", { email: "office@maple.test" });
    const refused = await latest("owner-sign-in");
    expect(refused.state).toBe("failed");
    expect(tokensIn(stored(refused))).toEqual([]);

    answer = 500;
    sent.length = 0;
    await claim("maple-trees", { email: "office@maple.test" });
    const waiting = await latest("owner-sign-in");
    expect(waiting.state).toBe("retrying");
    const token = linkIn(waiting.text);
    expect(token).toHaveLength(43);
    // The outbox item says why, never what.
    expect(JSON.stringify(await store.outbox.get(waiting.leadId))).not.toContain(token);

    answer = 200;
    const due = Date.parse(waiting.nextAttemptAt!);
    expect(await drainOutbox(store, { env, fetch: fakeFetch, now: () => due })).toMatchObject({ delivered: 1 });
    const after = (await store.messages.get(waiting.id))!;
    expect(after.state).toBe("sent");
    expect(stored(after)).not.toContain(token);
    expect(await store.outbox.get(waiting.leadId)).toBeNull();
  });

  it("a message sent before the log dropped its link is rewritten once; kept ones are left alone", async () => {
    const token = "L".repeat(43);
    const legacy: Message = {
      id: "cl_legacysecret00000001~owner-sign-in~email",
      leadId: "cl_legacysecret00000001",
      kind: "owner-sign-in",
      audience: "business",
      channel: "email",
      to: "old@maple.test",
      subject: "Sign in to manage Maple Trees",
      text: `Sign in: ${SITE}/owner/sign-in/${token}`,
      html: `<a href="${SITE}/owner/sign-in/${token}">Sign in</a>`,
      state: "sent",
      createdAt: new Date(T0 - DAY).toISOString(),
      attempts: 1,
    };
    const kept: Message = {
      ...legacy,
      id: "cl_legacysecret00000002~owner-sign-in~email",
      leadId: "cl_legacysecret00000002",
      state: "kept",
    };
    await store.messages.ensure([legacy, kept]);
    // /admin shows it without the link even before the rewrite.
    const shown = (JSON.parse(await adminView()) as Message[]).find((m) => m.id === legacy.id)!;
    expect(JSON.stringify(shown)).not.toContain(token);
    const first = await forgetSentSignIns(store, 3);
    expect(first.rewritten).toBe(1);
    expect(first.read).toBeGreaterThanOrEqual(2);
    expect(stored((await store.messages.get(legacy.id))!)).not.toContain(token);
    expect((await store.messages.get(kept.id))!.text).toContain(token);
    expect((await forgetSentSignIns(store)).rewritten).toBe(0);
  });

  it("without a provider the kept message shows the link: the operator is the only way to deliver it", async () => {
    // Without a provider a claim goes to the operator; an owner asking again from /owner gets a
    // link that only the operator can pass on.
    await addOwner(store, "sec-maple", "office@maple.test", "operator", clock);
    const asked = await returningSignInHandler(deps({ env: quiet, now: () => (clock += 1_000) }))(
      formRequest("/owner", [["address", "office@maple.test"]]),
      nextIp(),
    );
    expect(asked.status).toBe(303);
    const kept = await latest("owner-sign-in");
    expect(kept.state).toBe("kept");
    const token = linkIn(kept.text);
    expect((await takeSignInLink(store, token, clock)).ok).toBe(true);
  });

  it(`texts a business at most ${CODES_PER_BUSINESS_PER_DAY} codes a day, and a phone ${CODES_PER_PHONE_PER_DAY}, whoever asks`, async () => {
    // Three listings sharing one phone, written two ways.
    for (const [id, phone] of [
      ["sec-oak", "(512) 555-0199"],
      ["sec-elm", "+1 512 555 0199"],
      ["sec-ash", "512.555.0199"],
    ] as const)
      await store.businesses.upsert(testBusiness(id, { name: id, slug: id, phone }));
    clock = Date.parse("2026-12-01T10:00:00Z");
    const ask = async (slug: string) => claim(slug, { email: `x${Math.random()}@else.test`, proof: "sms" });
    for (let i = 0; i < CODES_PER_BUSINESS_PER_DAY; i++)
      expect((await ask("sec-oak")).headers.get("location")).toMatch(/^\/owner\/code\//);
    sent.length = 0;
    const capped = await ask("sec-oak");
    const flash = await expectFlash(store, capped, "/owner/claim/sec-oak");
    expect(flash).toMatchObject({ status: 429, problem: TOO_MANY_CODES_TODAY });
    expect(sent).toHaveLength(0);
    expect(
      (await store.claims.list({ status: "all", limit: 200 })).items.filter((c) => c.businessId === "sec-oak"),
    ).toHaveLength(CODES_PER_BUSINESS_PER_DAY);

    // The same phone on other listings: counted together, to the phone's cap.
    const left = CODES_PER_PHONE_PER_DAY - CODES_PER_BUSINESS_PER_DAY;
    for (let i = 0; i < left; i++) {
      const slug = i % 2 === 0 ? "sec-elm" : "sec-ash";
      expect((await ask(slug)).headers.get("location")).toMatch(/^\/owner\/code\//);
    }
    const phoneCapped = await expectFlash(store, await ask("sec-ash"), "/owner/claim/sec-ash");
    expect(phoneCapped).toMatchObject({ status: 429, problem: TOO_MANY_CODES_TODAY });

    // The next UTC day counts afresh.
    clock += DAY;
    expect((await ask("sec-oak")).headers.get("location")).toMatch(/^\/owner\/code\//);
  });

  it(`pauses a business's code sign-in after ${CODE_FAILURES_PER_BUSINESS} wrong codes from any addresses`, async () => {
    await store.businesses.upsert(testBusiness("sec-fir", { name: "Fir", slug: "sec-fir", phone: "(512) 555-0123" }));
    clock = Date.parse("2026-12-05T10:00:00Z");
    const codes: { path: string; code: string }[] = [];
    const ask = async () => {
      sent.length = 0;
      const res = await claim("sec-fir", { email: `g${codes.length}@else.test`, proof: "sms" });
      const code = codesIn(new URLSearchParams(sent[0]!.body).get("Body") ?? "")[0]!;
      codes.push({ path: res.headers.get("location")!, code });
      return codes.at(-1)!;
    };
    const first = await ask();
    const second = await ask();
    const third = await ask();
    const wrong = (c: string) => (c === "000000" ? "111111" : "000000");
    // Each wrong try from its own address: the per-address lockout never starts.
    let tries = 0;
    for (const c of [first, second]) {
      for (let i = 0; i < CODE_MAX_TRIES && tries < CODE_FAILURES_PER_BUSINESS; i++, tries++) {
        const res = await codeHandler(deps())(formRequest(c.path, [["code", wrong(c.code)]]), nextIp());
        expect(res.headers.get("set-cookie")).toBeNull();
      }
    }
    expect(tries).toBe(CODE_FAILURES_PER_BUSINESS);
    // Now even the right code, from a new address, is refused, with the page's reason.
    const refused = await codeHandler(deps())(formRequest(third.path, [["code", third.code]]), nextIp());
    expect(refused.headers.get("set-cookie")).toBeNull();
    expect(await expectFlash(store, refused, third.path)).toMatchObject({ status: 429, problem: CODES_PAUSED });
    // Its code page, opened without a post, shows why instead of a form.
    const shown = await loadCode(
      new Request(`${ORIGIN}${third.path}`),
      third.path.split("/").at(-1)!,
      () => "192.0.2.77",
      { store: () => store, env, now: () => clock },
    );
    expect(shown).toMatchObject({ status: 429, view: { kind: "refused", problem: CODES_PAUSED } });
    expect(Number(shown.headers["retry-after"])).toBeGreaterThan(0);
    // And no more codes are texted to it meanwhile.
    sent.length = 0;
    const asked = await claim("sec-fir", { email: "late@else.test", proof: "sms" });
    expect(await expectFlash(store, asked, "/owner/claim/sec-fir")).toMatchObject({
      status: 429,
      problem: CODES_PAUSED,
    });
    expect(sent).toHaveLength(0);
    // Another business is not affected.
    await store.businesses.upsert(testBusiness("sec-yew", { name: "Yew", slug: "sec-yew", phone: "(512) 555-0124" }));
    expect((await claim("sec-yew", { email: "y@else.test", proof: "sms" })).headers.get("location")).toMatch(
      /^\/owner\/code\//,
    );
  });
});
