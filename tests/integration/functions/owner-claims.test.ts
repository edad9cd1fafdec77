/**
 * How an owner gets a session, on a real Redis with a fake Resend and a fake Twilio on
 * 127.0.0.1: the posts in-process, the pages they lead to (303) from the built site on the
 * same store (tests/helpers/site.ts). A claim by the e-mail on file mails a single-use link
 * that signs in once (changed, reused or expired links sign nobody in); without a provider the
 * link is kept for /admin; another address waits for the operator, who approves (link) or
 * refuses (reason); the SMS code allows five tries; an added business is listed only once
 * approved.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { adminMessagesHandler } from "../../../netlify/lib/admin/messages.ts";
import { adminClaimHandler, adminClaimsHandler } from "../../../netlify/lib/admin/claims.ts";
import { getClaim } from "../../../netlify/lib/owners/claims.ts";
import { addOwner, isOwner, listOwners, readOwnerSession, removeOwner } from "../../../netlify/lib/owners/session.ts";
import { addBusinessHandler, claimHandler } from "../../../netlify/lib/owners/forms.ts";
import { returningSignInHandler } from "../../../netlify/lib/owners/returning.ts";
import { businessesHandler } from "../../../netlify/lib/directory-search.ts";
import type { ListPage } from "../../../src/lib/directory-list.ts";
import type { OwnerAuthDeps } from "../../../netlify/lib/owners/page.ts";
import { codeHandler, signInHandler, signOutHandler } from "../../../netlify/lib/owners/sign-in.ts";
import type { AdminMessagesReply } from "../../../src/lib/admin.ts";
import { parseEnv } from "../../../src/lib/env.ts";
import type { AdminClaimReply, AdminClaimsReply } from "../../../src/lib/owners/claims.ts";
import {
  CODE_MAX_TRIES,
  OWNER_MAX_FAILURES,
  SIGN_IN_LINK_TTL_MS,
  TOO_MANY_SENDS,
} from "../../../src/lib/owners/limits.ts";
import { OWNER_MESSAGES } from "../../../src/lib/owners/messages.ts";
import { ORIGIN, formRequest, getRequest, nextIp, patchRequest, testBusiness } from "../../helpers/functions.ts";
import { startWebhookReceiver, type WebhookReceiver } from "../../helpers/webhook-receiver.ts";
import { foreignStyles } from "../../helpers/dist.ts";
import { siteHarness, type SitePage } from "../../helpers/site.ts";
import { drainOutbox } from "../../../netlify/lib/notify/index.ts";
import { createStore } from "../../../netlify/lib/store/index.ts";
import { CROSS_SITE_ERROR } from "../../../netlify/lib/http.ts";

const SITE = "https://treeline.test";
const TOKEN = "test-admin-token-claims-0123456";
const SECRET = "owner-claims-link-secret-0123456789abcdef";
/** A provider set up for each channel: the pages offer and say what each can deliver (nothing is sent by a page). */
const PROVIDERS = {
  RESEND_API_KEY: "re_test",
  NOTIFY_EMAIL_FROM: "Treeline <owners@treeline.test>",
  TWILIO_ACCOUNT_SID: "AC123",
  TWILIO_AUTH_TOKEN: "twilio-token",
  TWILIO_FROM: "+15125550100",
};
const site = await siteHarness("owner-claims", { LINK_SIGNING_SECRET: SECRET, SITE_URL: SITE, ...PROVIDERS });
// The same store's pages as an install with no provider, and with e-mail only, would draw them.
const shared = { prefix: site?.env.REDIS_KEY_PREFIX ?? "" };
const noProvider =
  site && (await siteHarness("owner-claims-quiet", { LINK_SIGNING_SECRET: SECRET, SITE_URL: SITE }, shared));
const emailOnly =
  site &&
  (await siteHarness(
    "owner-claims-email",
    {
      LINK_SIGNING_SECRET: SECRET,
      SITE_URL: SITE,
      RESEND_API_KEY: PROVIDERS.RESEND_API_KEY,
      NOTIFY_EMAIL_FROM: PROVIDERS.NOTIFY_EMAIL_FROM,
    },
    shared,
  ));
afterAll(async () => {
  await noProvider?.stop();
  await emailOnly?.stop();
  await site?.stop();
});

interface Email {
  to: string[];
  subject: string;
  text: string;
}

const ON_FILE = "Office@Maple-Trees.test";

describe.skipIf(!site)("owner claims and sign-in", () => {
  let mail: WebhookReceiver;
  let sms: WebhookReceiver;
  let env: ReturnType<typeof parseEnv>;
  let quiet: ReturnType<typeof parseEnv>;
  let quietBase: Record<string, string>;
  const store = () => site!.store;

  // The per-business send limit has its own test; the others claim one business many times.
  const deps = (over: Partial<OwnerAuthDeps> = {}): OwnerAuthDeps => ({ store, env, sendsPerBusiness: 1000, ...over });
  const emailsTo = (to: string) => mail.calls.map((c) => c.body as Email).filter((e) => e.to.includes(to));
  const linkIn = (text: string) => /\/owner\/sign-in\/([A-Za-z0-9_-]{43})/.exec(text)?.[0] ?? "";
  const texts = () => sms.calls.map((c) => new URLSearchParams(String(c.body)));
  const auth = { authorization: `Bearer ${TOKEN}` };

  const claimFields = (over: Record<string, string> = {}): [string, string][] =>
    Object.entries({ name: "Mia Maple", email: ON_FILE.toLowerCase(), role: "owner", proof: "email", ...over });

  const post = (
    handler: (r: Request, c?: { ip: string }) => Promise<Response>,
    path: string,
    fields: [string, string][] = [],
    cookie?: string,
  ) => handler(formRequest(path, fields, cookie ? { cookie } : {}), nextIp());
  const cookieOf = (res: Response) => (res.headers.get("set-cookie") ?? "").split(";")[0]!;
  /** A page of the built site (with a cookie when given). */
  const page = (path: string, cookie?: string) => site!.page(path, cookie ? { headers: { cookie } } : {});
  /** Where a post's 303 leads, as the built site then shows it. */
  const follow = async (res: Response, cookie?: string): Promise<SitePage> => {
    expect(res.status).toBe(303);
    expect(res.headers.get("cache-control")).toBe("private, no-store");
    return page(res.headers.get("location")!, cookie);
  };
  const heading = (p: SitePage) => p.inMain.getByRole("heading", { level: 1 }).textContent?.trim();

  beforeAll(async () => {
    mail = await startWebhookReceiver("/emails");
    sms = await startWebhookReceiver("/");
    const base = {
      SITE_URL: SITE,
      RATE_LIMIT_PER_MINUTE: "1000",
      LINK_SIGNING_SECRET: SECRET,
      ADMIN_TOKEN: TOKEN,
      NOTIFY_EMAIL_FROM: "Treeline <owners@treeline.test>",
    };
    env = parseEnv({
      ...base,
      RESEND_API_KEY: "re_test",
      RESEND_API_URL: mail.url,
      TWILIO_ACCOUNT_SID: "AC123",
      TWILIO_AUTH_TOKEN: "twilio-token",
      TWILIO_FROM: "+15125550100",
      TWILIO_API_URL: new URL(sms.url).origin,
    });
    quiet = parseEnv(base);
    quietBase = base;
    await store().businesses.upsert(
      testBusiness("oc-maple", {
        name: "Maple Trees",
        slug: "maple-trees",
        email: ON_FILE,
        phone: "(512) 555-0142",
      }),
    );
  });
  afterEach(() => {
    mail.calls.length = 0;
    sms.calls.length = 0;
  });
  afterAll(async () => {
    await mail.close();
    await sms.close();
  });

  /** Claims Maple Trees by the e-mail on file and returns the mailed link's path. */
  async function linkByEmail(): Promise<string> {
    const res = await post(claimHandler(deps()), "/owner/claim/maple-trees", claimFields());
    expect(res.status).toBe(303);
    const [email] = emailsTo(ON_FILE.toLowerCase());
    mail.calls.length = 0;
    return linkIn(email!.text);
  }

  it("shows the claim form with the contact on file masked, privately, on the site's layout", async () => {
    const shown = await page("/owner/claim/maple-trees");
    expect(shown.response.status).toBe(200);
    expect(shown.response.headers.get("cache-control")).toBe("private, no-store");
    expect(shown.response.headers.get("x-robots-tag")).toBe("noindex, nofollow");
    const { html } = shown;
    expect(heading(shown)).toBe("Claim Maple Trees");
    expect(html).toContain("O•••@Maple-Trees.test");
    expect(html).toContain("(•••) •••-0142");
    expect(html).not.toMatch(/office@maple-trees\.test/i);
    expect(html).not.toContain("555-0142)");
    // A name ending in s takes the apostrophe alone.
    expect(shown.inMain.getByRole("link", { name: "Back to Maple Trees' page" })).toHaveProperty(
      "href",
      `${site!.origin}/directory/maple-trees`,
    );
    expect(shown.document.querySelector("header nav")).not.toBeNull();
    expect(shown.document.querySelector("footer")).not.toBeNull();
    expect(foreignStyles(shown.document)).toEqual([]);
    expect((await page("/owner/claim/no-such-business")).response.status).toBe(404);
    expect((await page("/owner/claim/%3Cscript%3E")).response.status).toBe(404);
  });

  it("mails a link to the e-mail on file; the link's page does not use it up; posting it signs in once", async () => {
    const res = await post(claimHandler(deps()), "/owner/claim/maple-trees", claimFields({ email: ON_FILE }));
    const sent = await follow(res);
    expect(sent.response.status).toBe(200);
    expect(heading(sent)).toBe("Check your e-mail");
    expect(sent.main.textContent).toContain("o•••@maple-trees.test");
    const [email] = emailsTo(ON_FILE.toLowerCase());
    expect(email!.subject).toBe("Sign in to manage Maple Trees");
    const path = linkIn(email!.text);
    expect(email!.text).toContain(`${SITE}${path}`);

    // A mail scanner's GET leaves the link working.
    for (let i = 0; i < 2; i++) {
      const shown = await page(path);
      expect(shown.response.status).toBe(200);
      expect(heading(shown)).toBe("Sign in to manage Maple Trees");
      expect(shown.html).toContain(`<form method="post" action="${path}">`);
      // The address is the key: written nowhere else in the page.
      expect(shown.document.querySelector('link[rel="canonical"]')).toBeNull();
      expect(shown.html.split(path.split("/").at(-1)!)).toHaveLength(2);
    }
    const signedIn = await post(signInHandler(deps()), path);
    expect(signedIn.status).toBe(303);
    expect(signedIn.headers.get("location")).toBe("/owner");
    const setCookie = signedIn.headers.get("set-cookie") ?? "";
    expect(setCookie).toMatch(/^tl_owner=[A-Za-z0-9_-]{32}\.[A-Za-z0-9_-]{22}; /);
    expect(setCookie).toContain("Path=/owner; HttpOnly; SameSite=Lax");
    expect(setCookie).toContain("Secure");
    expect(signedIn.headers.get("cache-control")).toBe("private, no-store");

    const session = await readOwnerSession(
      new Request(`${ORIGIN}/owner`, { headers: { cookie: cookieOf(signedIn) } }),
      store(),
      env,
      Date.now(),
    );
    expect(session).toMatchObject({ businessId: "oc-maple", email: ON_FILE.toLowerCase() });
    expect((await listOwners(store(), "oc-maple")).find((o) => o.email === ON_FILE.toLowerCase())?.via).toBe("email");

    // Used twice: refused, nobody signed in; the page shows the way back to a new link. It goes
    // to the sign-in page, not back to the link: the flash would otherwise keep the token.
    const again = await post(signInHandler(deps()), path);
    expect(again.headers.get("set-cookie")).toBeNull();
    expect(again.headers.get("location")).toMatch(/^\/owner\/sign-in\?form=[\w-]{22}$/);
    const againPage = await follow(again);
    expect(againPage.response.status).toBe(404);
    expect(againPage.inMain.getByRole("alert").textContent).toContain(OWNER_MESSAGES.linkInvalid);
    expect(againPage.html).toContain('<form method="get" action="/directory"');
    // The same tap from the browser that is signed in already: sent on to the listing instead.
    const cookie = cookieOf(signedIn);
    const tappedTwice = await page(path, cookie);
    expect(tappedTwice.response.status).toBe(404);
    expect(tappedTwice.html).toContain('You are signed in already: <a href="/owner">go to your listing</a>');
    const postedTwice = await follow(await post(signInHandler(deps()), path, [], cookie));
    expect(postedTwice.html).toContain('You are signed in already: <a href="/owner">go to your listing</a>');
  });

  it("refuses a link with one character changed, and one used after it expired", async () => {
    const path = await linkByEmail();
    const last = path.at(-1)!;
    const changed = path.slice(0, -1) + (last === "A" ? "B" : "A");
    const tampered = await post(signInHandler(deps()), changed);
    expect(tampered.headers.get("set-cookie")).toBeNull();
    expect((await follow(tampered)).response.status).toBe(404);
    // Opening the changed link's page says so too (and counts as a failed try, as its post does).
    expect((await page(changed)).response.status).toBe(404);

    const later = Date.now() + SIGN_IN_LINK_TTL_MS + 60_000;
    const expired = await post(signInHandler(deps({ now: () => later })), path);
    expect(expired.headers.get("set-cookie")).toBeNull();
    const expiredPage = await follow(expired);
    expect(expiredPage.response.status).toBe(410);
    expect(expiredPage.inMain.getByRole("alert").textContent).toContain(OWNER_MESSAGES.linkExpired);
  });

  it("with no provider, offers no e-mail or text, sends a claim to the team and never says sent or texted", async () => {
    const form = await noProvider!.page("/owner/claim/maple-trees");
    expect(form.response.status).toBe(200);
    expect(form.document.querySelectorAll('input[name="proof"][type="radio"]')).toHaveLength(0);
    expect(form.document.querySelector<HTMLInputElement>('input[name="proof"]')?.value).toBe("operator");
    expect(form.main.textContent).toContain("your claim goes to the Treeline team, who check it by hand");
    // Even the address on file (and a posted "sms" from an old form) goes to the team.
    for (const proof of ["email", "sms"]) {
      const res = await post(claimHandler(deps({ env: quiet })), "/owner/claim/maple-trees", claimFields({ proof }));
      expect(res.status).toBe(303);
      expect(res.headers.get("location")).toMatch(/^\/owner\/claim\/maple-trees\?form=/);
      const answer = await noProvider!.page(res.headers.get("location")!);
      expect(heading(answer)).toBe("Claim received");
      const words = answer.main.textContent!.replace(/\s+/g, " ");
      expect(words).not.toMatch(/\bsent\b|\btexted\b|on its way|We'll e-mail/i);
      expect(words).toContain("The Treeline team will contact you at o•••@maple-trees.test");
    }
    expect(mail.calls).toHaveLength(0);
    expect(texts()).toHaveLength(0);
    const queue = await adminClaimsHandler({ store, env: quiet })(
      getRequest("/api/admin/claims", { headers: auth }),
      nextIp(),
    );
    const mine = ((await queue.json()) as AdminClaimsReply).data.filter(
      (c) => c.claimant.email === ON_FILE.toLowerCase() && c.status === "pending",
    );
    expect(mine.map((c) => c.proof)).toEqual(["operator", "operator"]);
  });

  it("with e-mail only, the claim form offers no text message, JS on or off", async () => {
    const form = await emailOnly!.page("/owner/claim/maple-trees");
    const proofs = [...form.document.querySelectorAll<HTMLInputElement>('input[name="proof"]')].map((i) => i.value);
    expect(proofs).toEqual(["email", "operator"]);
    expect(form.html).not.toContain("Text a code");
    // A posted "sms" (an old form) texts nothing: the address on file gets its link instead.
    const emailEnv = parseEnv({ ...quietBase, RESEND_API_KEY: "re_test", RESEND_API_URL: mail.url });
    const res = await post(
      claimHandler(deps({ env: emailEnv })),
      "/owner/claim/maple-trees",
      claimFields({ proof: "sms" }),
    );
    expect(texts()).toHaveLength(0);
    expect(heading(await emailOnly!.page(res.headers.get("location")!))).toBe("Check your e-mail");
    expect(emailsTo(ON_FILE.toLowerCase())).toHaveLength(1);
  });

  it("answers the visitor even when Resend fails: the link is stored and its message waits in the log", async () => {
    mail.respondWith(500);
    const res = await post(claimHandler(deps()), "/owner/claim/maple-trees", claimFields());
    const onHold = await follow(res);
    // Not "Check your e-mail": nothing went yet.
    expect(heading(onHold)).toBe("Your sign-in link is on hold");
    expect(onHold.main.textContent).not.toMatch(/We sent/);
    expect(onHold.main.textContent).toContain("We'll try again in the next few minutes");
    const list = await adminMessagesHandler({ store, env })(
      getRequest("/api/admin/messages?limit=5", { headers: auth }),
      nextIp(),
    );
    const [latest] = ((await list.json()) as AdminMessagesReply).data;
    expect(latest).toMatchObject({ kind: "owner-sign-in", state: "retrying", attempts: 1 });
    expect(latest!.note).toContain("HTTP 500");

    // It waits in the outbox under its claim, like a lead's messages, until its next attempt is due.
    const due = Date.parse(latest!.nextAttemptAt!);
    expect(await store().outbox.get(latest!.leadId)).toMatchObject({
      type: "owner",
      attempts: 1,
      nextAttemptAt: latest!.nextAttemptAt,
      lastError: "email: Attempt 1: HTTP 500",
    });
    expect(await drainOutbox(store(), { env, now: () => due - 1 })).toMatchObject({ claimed: 0 });
    mail.calls.length = 0;
    // Two scheduled runs at once: the lease lets one of them send it.
    const runs = await Promise.all([
      drainOutbox(store(), { env, now: () => due }),
      drainOutbox(store(), { env, now: () => due }),
    ]);
    expect(runs.map((r) => r.claimed).sort()).toEqual([0, 1]);
    expect(mail.calls).toHaveLength(1);
    expect(await store().messages.get(latest!.id)).toMatchObject({ state: "sent", attempts: 2 });
    expect(await store().outbox.get(latest!.leadId)).toBeNull();
    // A later run finds nothing to send again.
    expect(await drainOutbox(store(), { env, now: () => due + 3_600_000 })).toMatchObject({ claimed: 0 });
    expect(mail.calls).toHaveLength(1);

    expect((await post(signInHandler(deps()), linkIn(latest!.text))).status).toBe(303);
  });

  it("moves the messages an earlier version left in its own retry queue into the outbox, once, and sends them", async () => {
    // As that version left them: a sign-in link whose send failed, waiting in msgs:retry with no
    // outbox item, and one that went meanwhile.
    const at = Date.now() - 60_000;
    const waiting = "cl_legacyqueue000000001";
    const went = "cl_legacyqueue000000002";
    const message = (claimId: string, state: "retrying" | "sent") => ({
      id: `${claimId}~owner-sign-in~email`,
      leadId: claimId,
      kind: "owner-sign-in",
      audience: "business" as const,
      channel: "email" as const,
      to: "legacy@maple-trees.test",
      subject: "Sign in to manage Maple Trees",
      text: `Sign in: ${SITE}/owner/sign-in/legacy`,
      state,
      note: "Attempt 1: HTTP 500",
      createdAt: new Date(at).toISOString(),
      attempts: 1,
      ...(state === "retrying" ? { nextAttemptAt: new Date(at + 60_000).toISOString() } : {}),
    });
    await store().messages.ensure([message(waiting, "retrying"), message(went, "sent")]);
    const legacyKey = `${store().prefix}msgs:retry`;
    await store().redis.zadd(
      legacyKey,
      { score: at + 60_000, member: `${waiting}~owner-sign-in~email` },
      { score: at + 60_000, member: `${went}~owner-sign-in~email` },
    );

    // A new deployment's first scheduled run (a fresh process: a store it has not seen).
    const fresh = createStore({ transport: "redis", url: site!.env.REDIS_URL!, prefix: store().prefix });
    try {
      const report = await drainOutbox(fresh, { env, now: () => at + 60_000 });
      expect(report).toMatchObject({ claimed: 1, delivered: 1 });
      expect(await store().redis.exists(legacyKey)).toBe(0);
      expect(emailsTo("legacy@maple-trees.test")).toHaveLength(1);
      expect(await store().messages.get(`${waiting}~owner-sign-in~email`)).toMatchObject({
        state: "sent",
        attempts: 2,
      });
      expect(await store().outbox.get(waiting)).toBeNull();
      expect(await store().outbox.get(went)).toBeNull();
      // Once moved, nothing is sent again.
      expect(await drainOutbox(fresh, { env, now: () => at + 3_600_000 })).toMatchObject({ claimed: 0 });
      expect(emailsTo("legacy@maple-trees.test")).toHaveLength(1);
    } finally {
      await fresh.close();
    }
  });

  it("sends another address's claim to the operator, who approves it: the claimant gets a link", async () => {
    const res = await post(
      claimHandler(deps()),
      "/owner/claim/maple-trees",
      claimFields({ email: "nephew@gmail.test", proof: "operator", note: "I run the office" }),
    );
    const received = await follow(res);
    expect(heading(received)).toBe("Claim received");
    expect(received.main.textContent).toContain("n•••@gmail.test");
    expect(mail.calls).toHaveLength(0);
    expect(await isOwner(store(), "oc-maple", "nephew@gmail.test")).toBe(false);

    const queue = await adminClaimsHandler({ store, env })(
      getRequest("/api/admin/claims", { headers: auth }),
      nextIp(),
    );
    const { data, pending } = (await queue.json()) as AdminClaimsReply;
    const claim = data.find((c) => c.claimant.email === "nephew@gmail.test")!;
    expect(claim).toMatchObject({ kind: "claim", status: "pending", businessId: "oc-maple", proof: "operator" });
    expect(claim.claimant.note).toBe("I run the office");
    expect(pending).toBeGreaterThanOrEqual(1);

    const decide = (body: unknown) =>
      adminClaimHandler({ store, env, purge: async () => {} })(
        patchRequest(`/api/admin/claims/${claim.id}`, body, auth),
        nextIp(),
      );
    const approved = await decide({ decision: "approve" });
    expect(approved.status).toBe(200);
    expect((await approved.json()) as AdminClaimReply).toMatchObject({ data: { status: "approved" }, mail: "sent" });
    expect((await listOwners(store(), "oc-maple")).find((o) => o.email === "nephew@gmail.test")?.via).toBe("operator");
    const [email] = emailsTo("nephew@gmail.test");
    expect(email!.subject).toBe("Your claim of Maple Trees is approved");
    // The claimant asked days ago: the approval's link lasts a week, not the 20 minutes of one they asked for.
    expect(email!.text).toContain("The link works once, for 7 days.");
    expect((await decide({ decision: "refuse", reason: "changed my mind" })).status).toBe(409);

    const signedIn = await post(signInHandler(deps()), linkIn(email!.text));
    expect(signedIn.status).toBe(303);
    expect(signedIn.headers.get("set-cookie")).toMatch(/^tl_owner=/);
    const after = await adminClaimsHandler({ store, env })(
      getRequest("/api/admin/claims", { headers: auth }),
      nextIp(),
    );
    expect(((await after.json()) as AdminClaimsReply).data.map((c) => c.id)).not.toContain(claim.id);

    // The operator removes that owner: a reason is required, and their session ends at once.
    const cookie = cookieOf(signedIn);
    const readSession = () =>
      readOwnerSession(new Request(`${ORIGIN}/owner`, { headers: { cookie } }), store(), env, Date.now());
    expect(await readSession()).not.toBeNull();
    expect((await decide({ decision: "revoke" })).status).toBe(400);
    const revoked = await decide({ decision: "revoke", reason: "Not staff after all" });
    expect(revoked.status).toBe(200);
    expect(((await revoked.json()) as AdminClaimReply).data).toMatchObject({
      status: "revoked",
      reason: "Not staff after all",
    });
    expect(await isOwner(store(), "oc-maple", "nephew@gmail.test")).toBe(false);
    expect(await readSession()).toBeNull();
    // Revoked once is revoked: nothing left to remove.
    expect((await decide({ decision: "revoke", reason: "again" })).status).toBe(409);
  });

  it("revokes only a claim that made someone an owner", async () => {
    const res = await post(
      claimHandler(deps()),
      "/owner/claim/maple-trees",
      claimFields({ email: "cousin@gmail.test", proof: "operator" }),
    );
    expect(res.status).toBe(303);
    const queue = await adminClaimsHandler({ store, env })(
      getRequest("/api/admin/claims", { headers: auth }),
      nextIp(),
    );
    const claim = ((await queue.json()) as AdminClaimsReply).data.find(
      (c) => c.claimant.email === "cousin@gmail.test",
    )!;
    const revoke = await adminClaimHandler({ store, env, purge: async () => {} })(
      patchRequest(`/api/admin/claims/${claim.id}`, { decision: "revoke", reason: "no" }, auth),
      nextIp(),
    );
    expect(revoke.status).toBe(409);
    expect(((await revoke.json()) as { error: string }).error).toBe(OWNER_MESSAGES.notAnOwnersClaim);
  });

  it("mails an owner a new link at their own address; removing them first makes it worthless", async () => {
    await addOwner(store(), "oc-maple", "manager@elsewhere.test", "operator", Date.now());
    const res = await post(
      claimHandler(deps()),
      "/owner/claim/maple-trees",
      claimFields({ email: "Manager@Elsewhere.test", proof: "operator" }),
    );
    expect(heading(await follow(res))).toBe("Check your e-mail");
    const [email] = emailsTo("manager@elsewhere.test");
    await removeOwner(store(), "oc-maple", "manager@elsewhere.test");
    const refused = await post(signInHandler(deps()), linkIn(email!.text));
    expect(refused.headers.get("set-cookie")).toBeNull();
    expect((await follow(refused)).response.status).toBe(404);
    expect(await isOwner(store(), "oc-maple", "manager@elsewhere.test")).toBe(false);
  });

  it("refuses a claim only with a reason, keeps the reason and e-mails it", async () => {
    await post(
      claimHandler(deps()),
      "/owner/claim/maple-trees",
      claimFields({ email: "someone@else.test", proof: "operator" }),
    );
    const list = await adminClaimsHandler({ store, env })(getRequest("/api/admin/claims", { headers: auth }), nextIp());
    const claim = ((await list.json()) as AdminClaimsReply).data.find((c) => c.claimant.email === "someone@else.test")!;
    const patch = (body: unknown) =>
      adminClaimHandler({ store, env })(patchRequest(`/api/admin/claims/${claim.id}`, body, auth), nextIp());
    const missing = await patch({ decision: "refuse" });
    expect(missing.status).toBe(400);
    expect(((await missing.json()) as { fields: Record<string, string> }).fields.reason).toBe(
      OWNER_MESSAGES.reasonRequired,
    );

    const refused = await patch({ decision: "refuse", reason: "Not listed as staff on the business's website" });
    expect(refused.status).toBe(200);
    expect(((await refused.json()) as AdminClaimReply).mail).toBe("sent");
    expect(await getClaim(store(), claim.id)).toMatchObject({
      status: "refused",
      reason: "Not listed as staff on the business's website",
    });
    const [email] = emailsTo("someone@else.test");
    expect(email!.text).toContain("Reason: Not listed as staff on the business's website");
    expect(await isOwner(store(), "oc-maple", "someone@else.test")).toBe(false);
  });

  it("with no e-mail provider, the decision's answer says its e-mail was only kept, not sent", async () => {
    for (const email of ["kept-approve@gmail.test", "kept-refuse@gmail.test"])
      await post(
        claimHandler(deps({ env: quiet })),
        "/owner/claim/maple-trees",
        claimFields({ email, proof: "operator" }),
      );
    const list = await adminClaimsHandler({ store, env: quiet })(
      getRequest("/api/admin/claims", { headers: auth }),
      nextIp(),
    );
    const claims = ((await list.json()) as AdminClaimsReply).data;
    const idOf = (email: string) => claims.find((c) => c.claimant.email === email && c.status === "pending")!.id;
    const patch = (email: string, body: unknown) =>
      adminClaimHandler({ store, env: quiet, purge: async () => {} })(
        patchRequest(`/api/admin/claims/${idOf(email)}`, body, auth),
        nextIp(),
      );

    const approved = await patch("kept-approve@gmail.test", { decision: "approve" });
    expect(approved.status).toBe(200);
    expect((await approved.json()) as AdminClaimReply).toMatchObject({ data: { status: "approved" }, mail: "kept" });
    const refused = await patch("kept-refuse@gmail.test", { decision: "refuse", reason: "Not staff" });
    expect(refused.status).toBe(200);
    expect((await refused.json()) as AdminClaimReply).toMatchObject({ data: { status: "refused" }, mail: "kept" });
    expect(mail.calls).toHaveLength(0);
    // The sign-in link and the reason wait in /admin Messages, kept, for the operator to pass on.
    const kept = [
      ...(await store().messages.forLead(idOf("kept-approve@gmail.test"))),
      ...(await store().messages.forLead(idOf("kept-refuse@gmail.test"))),
    ];
    expect(kept.map((m) => [m.kind, m.state])).toEqual([
      ["claim-approved", "kept"],
      ["claim-refused", "kept"],
    ]);
  });

  it("texts a code to the phone on file: five wrong tries and it is gone", async () => {
    const res = await post(
      claimHandler(deps()),
      "/owner/claim/maple-trees",
      claimFields({ email: "texter@maple.test", proof: "sms" }),
    );
    expect(res.status).toBe(303);
    const codePath = res.headers.get("location")!;
    expect(codePath).toMatch(/^\/owner\/code\/[A-Za-z0-9_-]{32}$/);
    const [text] = texts();
    expect(text!.get("To")).toBe("+15125550142");
    const code = /\b(\d{6})\b/.exec(text!.get("Body") ?? "")![1]!;
    const wrong = code === "000000" ? "111111" : "000000";

    const form = await page(codePath);
    expect(form.response.status).toBe(200);
    expect(form.main.textContent?.replace(/\s+/g, " ")).toContain("Maple Trees' phone on file (•••) •••-0142");
    for (let left = CODE_MAX_TRIES - 1; left > 0; left--) {
      const tried = await follow(await post(codeHandler(deps()), codePath, [["code", wrong]]));
      expect(tried.response.status).toBe(422);
      const field = tried.document.querySelector('input[name="code"]')!;
      expect(field.getAttribute("aria-invalid")).toBe("true");
      expect(tried.document.getElementById(field.getAttribute("aria-describedby")!)?.textContent).toContain(
        `${left} ${left === 1 ? "try" : "tries"} left`,
      );
    }
    const last = await post(codeHandler(deps()), codePath, [["code", wrong]]);
    expect((await follow(last)).response.status).toBe(410);
    const right = await post(codeHandler(deps()), codePath, [["code", code]]);
    expect(right.headers.get("set-cookie")).toBeNull();
    expect((await follow(right)).response.status).toBe(410);
    expect((await page(codePath)).response.status).toBe(410);
    expect(await isOwner(store(), "oc-maple", "texter@maple.test")).toBe(false);
  });

  it("signs in with the right code, once", async () => {
    const res = await post(
      claimHandler(deps()),
      "/owner/claim/maple-trees",
      claimFields({ email: "texter2@maple.test", proof: "sms" }),
    );
    const codePath = res.headers.get("location")!;
    const code = /\b(\d{6})\b/.exec(texts()[0]!.get("Body") ?? "")![1]!;
    const signedIn = await post(codeHandler(deps()), codePath, [["code", `${code.slice(0, 3)} ${code.slice(3)}`]]);
    expect(signedIn.status).toBe(303);
    expect(signedIn.headers.get("set-cookie")).toMatch(/^tl_owner=/);
    expect((await listOwners(store(), "oc-maple")).find((o) => o.email === "texter2@maple.test")?.via).toBe("sms");
    expect((await follow(await post(codeHandler(deps()), codePath, [["code", code]]))).response.status).toBe(410);
  });

  it("answers a bad claim with the form and its field messages", async () => {
    const res = await post(
      claimHandler(deps()),
      "/owner/claim/maple-trees",
      claimFields({ email: "not-an-email", role: "" }),
    );
    const refused = await follow(res);
    expect(refused.response.status).toBe(422);
    const { document } = refused;
    expect(document.getElementById("err-email")?.textContent?.trim()).toBe(OWNER_MESSAGES.email);
    expect(document.getElementById("err-role")?.textContent?.trim()).toBe(OWNER_MESSAGES.role);
    expect(document.querySelector('input[name="email"]')?.getAttribute("aria-describedby")).toBe("err-email");
    expect(document.querySelector<HTMLInputElement>('input[name="name"]')?.value).toBe("Mia Maple");
  });

  it("the add-a-business form promises a sign-in link by e-mail only where e-mail can be sent", async () => {
    // The e-mail field's label holds its hint.
    const hint = (p: SitePage) =>
      p.document.querySelector('input[name="email"]')!.closest("label")!.textContent!.replace(/\s+/g, " ").trim();
    const words = (p: SitePage) => p.main.textContent!.replace(/\s+/g, " ");
    const ready = await page("/owner/add");
    expect(words(ready)).toContain("once it is approved you get a sign-in link to manage its page.");
    expect(hint(ready)).toContain("Your sign-in link goes here.");
    const none = await noProvider!.page("/owner/add");
    expect(none.response.status).toBe(200);
    expect(words(none)).toContain("the Treeline team contacts you once it is approved.");
    expect(words(none)).not.toMatch(/sign-in link/i);
    expect(hint(none)).toContain("The Treeline team contacts you here once your business is approved.");
    expect(hint(none)).not.toMatch(/sign-in link/i);
  });

  it("adds a business in Boise, ID 83702: listed only once approved, found near 83702, with the hours given", async () => {
    const fields: [string, string][] = [
      ["businessName", "Sawtooth Tree Care"],
      ["address", "150 N Capitol Blvd"],
      ["zipCode", "83702"],
      ["phone", "(208) 555-0177"],
      ["businessEmail", "hello@sawtooth-trees.test"],
      ["services", "Tree Removal"],
      ["services", "Stump Grinding"],
      ["schedule", "hours"],
      ["monday.mode", "open"],
      ["monday.open", "07:00"],
      ["monday.close", "17:30"],
      ["tuesday.mode", "open"],
      ["tuesday.open", "07:00"],
      ["tuesday.close", "17:30"],
      ["saturday.mode", "closed"],
      ["yearsInBusiness", ""],
      ["name", "Sam Sawtooth"],
      ["email", "sam@sawtooth-trees.test"],
      ["role", "owner"],
    ];
    const add = (list: [string, string][]) => post(addBusinessHandler(deps()), "/owner/add", list);

    // The form: no city list, any ZIP, hours per day or by appointment, no holiday ticked.
    const form = await page("/owner/add");
    expect(form.response.status).toBe(200);
    expect(form.document.querySelector('select[name="city"]')).toBeNull();
    expect(form.document.querySelector('input[name="zipCode"]')).not.toBeNull();
    expect(form.document.querySelectorAll('input[name="schedule"]')).toHaveLength(2);
    expect(form.document.querySelectorAll('input[name="monday.mode"]')).toHaveLength(3);
    expect(form.document.querySelectorAll('input[name="closedHolidays"]:checked')).toHaveLength(0);

    const badPage = await follow(await add(fields.filter(([k]) => k !== "services")));
    expect(badPage.response.status).toBe(422);
    expect(badPage.document.getElementById("err-services")?.textContent?.trim()).toBe(OWNER_MESSAGES.services);
    expect(badPage.document.querySelector<HTMLInputElement>('input[name="businessName"]')?.value).toBe(
      "Sawtooth Tree Care",
    );
    expect(badPage.document.querySelector<HTMLInputElement>('input[name="monday.open"]')?.value).toBe("07:00");
    // A ZIP the dataset does not know: a 4xx with the field's message, nothing stored.
    const unknown = await add(fields.map(([k, v]) => [k, k === "zipCode" ? "00000" : v] as [string, string]));
    const unknownPage = await follow(unknown);
    expect(unknownPage.response.status).toBe(422);
    expect(unknownPage.document.getElementById("err-zipCode")?.textContent?.trim()).toBe(OWNER_MESSAGES.zipUnknown);
    // "Set hours" with no open day is refused rather than listed closed all week.
    const noHours = await follow(
      await add(fields.map(([k, v]) => [k, k.endsWith(".mode") ? "closed" : v] as [string, string])),
    );
    expect(noHours.response.status).toBe(422);
    expect(noHours.main.textContent).toContain(OWNER_MESSAGES.hoursMissing);

    const thanks = await follow(await add(fields));
    expect(heading(thanks)).toBe("Thanks: we'll check it");
    expect(thanks.main.textContent).toContain("Sawtooth Tree Care is not listed");
    const search = () => store().businesses.list({ search: "Sawtooth" });
    expect((await search()).data).toHaveLength(0);

    const list = await adminClaimsHandler({ store, env })(getRequest("/api/admin/claims", { headers: auth }), nextIp());
    const claim = ((await list.json()) as AdminClaimsReply).data.find(
      (c) => c.kind === "add" && c.proposal?.businessName === "Sawtooth Tree Care",
    )!;
    expect(claim.proposal).toMatchObject({
      city: "Boise",
      state: "ID",
      zipCode: "83702",
      services: ["Tree Removal", "Stump Grinding"],
      businessHours: { monday: "7:00 AM - 5:30 PM", tuesday: "7:00 AM - 5:30 PM" },
      closedHolidays: [],
    });
    const purged: string[][] = [];
    const approved = await adminClaimHandler({ store, env, purge: async (tags) => void purged.push(tags) })(
      patchRequest(`/api/admin/claims/${claim.id}`, { decision: "approve" }, auth),
      nextIp(),
    );
    expect(approved.status).toBe(200);
    const { business } = (await approved.json()) as AdminClaimReply;
    expect(business!.slug).toBe("sawtooth-tree-care-boise");
    const listed = (await store().businesses.getBySlug("sawtooth-tree-care-boise"))!;
    expect(listed).toMatchObject({
      name: "Sawtooth Tree Care",
      city: "Boise",
      state: "ID",
      zipCode: "83702",
      timeZone: "America/Boise",
      email: "hello@sawtooth-trees.test",
      businessHours: { monday: "7:00 AM - 5:30 PM", tuesday: "7:00 AM - 5:30 PM" },
      closedHolidays: [],
    });
    // Only what the owner gave: no years, not closed on holidays nobody chose.
    expect(listed.yearsInBusiness).toBeUndefined();
    expect(listed.byAppointment).toBeUndefined();
    expect(listed.location!.lat).toBeCloseTo(43.6, 0);
    expect((await search()).data.map((b) => b.id)).toEqual([business!.id]);
    expect(purged.flat()).toContain("directory");

    // Found by a near search of its own ZIP, with its hours.
    const near = await businessesHandler({ store, env })(getRequest("/api/businesses?near=83702&radius=10"), nextIp());
    expect(near.status).toBe(200);
    const found = ((await near.json()) as ListPage).data.find((b) => b.id === business!.id);
    expect(found).toMatchObject({ city: "Boise", state: "ID", businessHours: { monday: "7:00 AM - 5:30 PM" } });
    expect(found!.distanceMiles).toBeLessThan(2);

    // Its public page: the hours as given, the rest of the week closed, no "years in business".
    const shown = await page(`/directory/${business!.slug}`);
    expect(shown.response.status).toBe(200);
    const hours = shown.document.querySelector('[data-day="monday"]')?.textContent?.replace(/\s+/g, " ");
    expect(hours).toContain("7:00 AM - 5:30 PM");
    expect(shown.main.textContent).not.toMatch(/years? in business/);
    expect(shown.main.textContent).toContain("Open on public holidays.");

    expect(await isOwner(store(), business!.id, "sam@sawtooth-trees.test")).toBe(true);
    const [email] = emailsTo("sam@sawtooth-trees.test");
    expect((await post(signInHandler(deps()), linkIn(email!.text))).status).toBe(303);
  });

  it("adds a business by appointment with its years: the page says By appointment, never Closed", async () => {
    const res = await post(addBusinessHandler(deps()), "/owner/add", [
      ["businessName", "Boise Canopy by Appointment"],
      ["address", "9 Main St"],
      ["zipCode", "83702"],
      ["phone", "(208) 555-0188"],
      ["businessEmail", "hi@canopy-appt.test"],
      ["services", "Tree Trimming"],
      ["schedule", "appointment"],
      ["yearsInBusiness", "12"],
      ["closedHolidays", "Christmas Day"],
      ["name", "Ada Canopy"],
      ["email", "ada@canopy-appt.test"],
      ["role", "owner"],
    ]);
    expect(res.status).toBe(303);
    const list = await adminClaimsHandler({ store, env })(getRequest("/api/admin/claims", { headers: auth }), nextIp());
    const claim = ((await list.json()) as AdminClaimsReply).data.find(
      (c) => c.proposal?.businessName === "Boise Canopy by Appointment",
    )!;
    const approved = await adminClaimHandler({ store, env, purge: async () => {} })(
      patchRequest(`/api/admin/claims/${claim.id}`, { decision: "approve" }, auth),
      nextIp(),
    );
    const { business } = (await approved.json()) as AdminClaimReply;
    const listed = (await store().businesses.get(business!.id))!;
    expect(listed).toMatchObject({
      byAppointment: true,
      businessHours: {},
      yearsInBusiness: 12,
      closedHolidays: ["Christmas Day"],
    });
    const shown = await page(`/directory/${business!.slug}`);
    expect(shown.document.querySelector("[data-open-status]")?.textContent?.trim()).toBe("By appointment");
    expect(shown.document.querySelector("[data-hours-appointment]")).not.toBeNull();
    expect(shown.document.querySelector('[data-day="monday"]')).toBeNull();
    expect(shown.main.textContent).toContain("12 years in business");
    // Never "open now": on a Monday at 10 AM in Boise the near search's filter finds the business
    // with hours (added above), never this one.
    const mondayMorning = Date.parse("2026-11-30T17:00:00Z");
    const open = await businessesHandler({ store, env, now: () => mondayMorning })(
      getRequest("/api/businesses?near=83702&radius=10&open=now"),
      nextIp(),
    );
    const openIds = ((await open.json()) as ListPage).data.map((b) => b.slug);
    expect(openIds).toContain("sawtooth-tree-care-boise");
    expect(openIds).not.toContain(business!.slug);
  });

  it("a returning owner signs in from /owner with the address on file; the answer is the same for any address", async () => {
    await store().businesses.upsert(
      testBusiness("oc-return", { name: "Return Trees", slug: "return-trees", phone: "(512) 555-0199" }),
    );
    await addOwner(store(), "oc-return", "back@return-trees.test", "operator", Date.now());
    const ask = (address: string, over: Partial<OwnerAuthDeps> = {}) =>
      post(returningSignInHandler(deps(over)), "/owner", [["address", address]]);

    // The signed-out /owner has the form, JS or not (a plain post).
    const signedOut = await page("/owner");
    expect(signedOut.response.status).toBe(401);
    const form = signedOut.document.querySelector<HTMLFormElement>('form[method="post"][action="/owner"]');
    expect(form?.querySelector('input[name="address"]')).not.toBeNull();

    const known = await ask("Back@Return-Trees.test");
    expect(known.status).toBe(303);
    expect(known.headers.get("location")).toMatch(/^\/owner\?form=/);
    const [email] = emailsTo("back@return-trees.test");
    expect(email!.subject).toBe("Sign in to manage Return Trees");
    const unknown = await ask("nobody@nowhere.test");
    expect(emailsTo("nobody@nowhere.test")).toHaveLength(0);
    // Same status, same words (but the masked address) whether or not it is on file.
    const [knownPage, unknownPage] = [await follow(known), await follow(unknown)];
    expect(knownPage.response.status).toBe(unknownPage.response.status);
    const said = (p: SitePage) =>
      p.document
        .querySelector("[data-sign-in-requested]")!
        .textContent!.replace(/\s+/g, " ")
        .replace(/\S+@\S+/g, "@");
    expect(said(knownPage)).toBe(said(unknownPage));
    expect(said(knownPage)).not.toMatch(/We sent|\btexted\b/);

    const signedIn = await post(signInHandler(deps()), linkIn(email!.text));
    expect(signedIn.status).toBe(303);
    const session = await readOwnerSession(
      new Request(`${ORIGIN}/owner`, { headers: { cookie: cookieOf(signedIn) } }),
      store(),
      env,
      Date.now(),
    );
    expect(session).toMatchObject({ businessId: "oc-return", email: "back@return-trees.test" });

    // The business's phone on file gets a link by text, signing in as its owner.
    await ask("512-555-0199");
    const [text] = texts();
    expect(text!.get("To")).toBe("+15125550199");
    const byText = await post(signInHandler(deps()), linkIn(text!.get("Body") ?? ""));
    expect(byText.status).toBe(303);
    // A phone with no owned business, and a bad address: nothing sent; the bad one is a 422 with its message.
    sms.calls.length = 0;
    await ask("(208) 555-0999");
    expect(texts()).toHaveLength(0);
    const bad = await follow(await ask("not an address"));
    expect(bad.response.status).toBe(422);
    expect(bad.document.getElementById("err-address")?.textContent?.trim()).toBe(OWNER_MESSAGES.signInAddress);

    // The per-business limit skips in silence: still the same page.
    const limited = await follow(await ask("back@return-trees.test", { sendsPerBusiness: 0 }));
    expect(limited.response.status).toBe(knownPage.response.status);

    // Removed as an owner: no link any more.
    mail.calls.length = 0;
    await removeOwner(store(), "oc-return", "back@return-trees.test");
    await ask("back@return-trees.test");
    expect(emailsTo("back@return-trees.test")).toHaveLength(0);

    // With no provider the page says the request is kept for the team, not that anything went.
    const quietAsk = await post(returningSignInHandler(deps({ env: quiet })), "/owner", [["address", "x@y.test"]]);
    const quietPage = await noProvider!.page(quietAsk.headers.get("location")!);
    expect(quietPage.main.textContent).toContain("your request is kept for the Treeline team, who will contact you");
    expect(quietPage.main.textContent).not.toMatch(/we're e-mailing|We sent/);
    // Nothing can be sent by e-mail or by phone: no "check your spam folder", no other address to try.
    expect(quietPage.main.textContent).not.toMatch(/spam|Nothing arrives|try the/i);
    // A phone where only e-mail can be sent: the request is kept, and the e-mail is the one to try.
    const phoneAsk = await post(returningSignInHandler(deps({ env: quiet })), "/owner", [["address", "512-555-0199"]]);
    const phonePage = await emailOnly!.page(phoneAsk.headers.get("location")!);
    const phoneWords = phonePage.main.textContent!.replace(/\s+/g, " ");
    expect(phoneWords).toContain("can't send sign-in texts yet");
    expect(phoneWords).not.toMatch(/spam|Nothing arrives/i);
    expect(phoneWords).toContain(
      "This site can send sign-in e-mails: try the e-mail you manage the listing with instead.",
    );
  });

  it("says the code was texted only once Twilio took it", async () => {
    sms.respondWith(500);
    const res = await post(
      claimHandler(deps()),
      "/owner/claim/maple-trees",
      claimFields({ email: "texter3@maple.test", proof: "sms" }),
    );
    const codePage = await follow(res);
    expect(codePage.response.status).toBe(200);
    const line = codePage.document.querySelector("[data-delivery]")!;
    expect(line.getAttribute("data-delivery")).toBe("retrying");
    expect(line.textContent).not.toMatch(/We texted/);
    expect(line.textContent).toContain("We couldn't text");
    // Texted: the page says so.
    const ok = await follow(
      await post(
        claimHandler(deps()),
        "/owner/claim/maple-trees",
        claimFields({ email: "texter4@maple.test", proof: "sms" }),
      ),
    );
    expect(ok.document.querySelector("[data-delivery]")?.textContent).toContain("We texted a 6-digit code");
  });

  it("signs out: the cookie is cleared and the session no longer reads", async () => {
    const signedIn = await post(signInHandler(deps()), await linkByEmail());
    const cookie = cookieOf(signedIn);
    const out = await signOutHandler(deps())(
      new Request(`${ORIGIN}/owner/sign-out`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded", accept: "text/html", cookie },
        body: "",
      }),
      nextIp(),
    );
    expect(out.status).toBe(303);
    expect(out.headers.get("location")).toBe("/owner/sign-out");
    expect(out.headers.get("set-cookie")).toMatch(/^tl_owner=; Path=\/owner; HttpOnly; SameSite=Lax; Max-Age=0/);
    const req = new Request(`${ORIGIN}/owner`, { headers: { cookie } });
    expect(await readOwnerSession(req, store(), env, Date.now())).toBeNull();
    const after = await follow(out);
    expect(heading(after)).toBe("Signed out");
    expect(after.inMain.getByRole("status").textContent).toContain(OWNER_MESSAGES.signedOut);
    expect((await page("/owner", cookie)).response.status).toBe(401);
  });

  it("locks a client address out after repeated bad links", async () => {
    const ip = { ip: `198.51.100.7:${process.pid}` };
    const bad = `/owner/sign-in/${"x".repeat(43)}`;
    for (let i = 0; i < OWNER_MAX_FAILURES; i++) {
      expect((await follow(await signInHandler(deps())(formRequest(bad, []), ip))).response.status).toBe(404);
    }
    const path = await linkByEmail();
    const locked = await signInHandler(deps())(formRequest(path, []), ip);
    expect(locked.headers.get("set-cookie")).toBeNull();
    const lockedPage = await follow(locked);
    expect(lockedPage.response.status).toBe(429);
    expect(lockedPage.inMain.getByRole("alert").textContent).toContain(OWNER_MESSAGES.lockedOut);
    // Another address is not affected, and the link was not used up by the refused try.
    expect((await post(signInHandler(deps()), path)).status).toBe(303);
  });

  it("sends the contact on file only a few links or codes a minute, whoever asks", async () => {
    await store().businesses.upsert(
      testBusiness("oc-birch", { name: "Birch Bros", slug: "birch-bros", email: "desk@birch.test" }),
    );
    const claim = () =>
      post(
        claimHandler(deps({ sendsPerBusiness: 2 })),
        "/owner/claim/birch-bros",
        claimFields({ email: "desk@birch.test" }),
      );
    expect(heading(await follow(await claim()))).toBe("Check your e-mail");
    expect(heading(await follow(await claim()))).toBe("Check your e-mail");
    const third = await follow(await claim());
    expect(third.response.status).toBe(429);
    expect(third.inMain.getByRole("alert").textContent).toContain(TOO_MANY_SENDS);
    // The form is still there, to try again in a minute.
    expect(third.document.querySelector('main form[method="post"]')).not.toBeNull();
    expect(emailsTo("desk@birch.test")).toHaveLength(2);
    // A claim for the operator is not a send: it still goes through.
    const other = await post(
      claimHandler(deps({ sendsPerBusiness: 2 })),
      "/owner/claim/birch-bros",
      claimFields({ email: "someone@birch.test", proof: "operator" }),
    );
    expect(heading(await follow(other))).toBe("Claim received");
  });

  it("refuses a claim posted from another site", async () => {
    const res = await claimHandler(deps())(
      formRequest("/owner/claim/maple-trees", claimFields(), { origin: "https://evil.test" }),
      nextIp(),
    );
    const refused = await follow(res);
    expect(refused.response.status).toBe(403);
    expect(refused.inMain.getByRole("alert").textContent).toContain(CROSS_SITE_ERROR);
    expect(mail.calls).toHaveLength(0);
  });
});
