/**
 * The review invitation's time, on a fake clock, in-process on a real Redis with a fake
 * Resend: it is not sent before the booked day is over in the job's zone (nor the day the
 * pro's answer names), it goes at once when the homeowner marks the job done, never when the
 * pro gave the job back, and POST /review/:token makes a Verified review only once its time
 * has come. The invitation's own page: tests/integration/delivery.test.ts.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { INVITE_WITHDRAWN_NOTE, REVIEW_INVITE_DELAY_MS } from "../../../netlify/lib/delivery/compose.ts";
import { jobDoneHandler, respondHandler } from "../../../netlify/lib/delivery/handlers.ts";
import { reviewInviteHandler } from "../../../netlify/lib/delivery/review-invite.ts";
import { initialRouting } from "../../../netlify/lib/delivery/routing.ts";
import { signer } from "../../../netlify/lib/delivery/signing.ts";
import { drainOutbox } from "../../../netlify/lib/notify/index.ts";
import { parseEnv } from "../../../src/lib/env.ts";
import { REVIEW_NOTICES } from "../../../netlify/lib/messages/review.ts";
import {
  expectFlash,
  formRequest,
  functionsHarness,
  nextIp,
  testBusiness,
  validBooking,
} from "../../helpers/functions.ts";
import { startWebhookReceiver, type WebhookReceiver } from "../../helpers/webhook-receiver.ts";

const SECRET = "review-invite-secret-0123456789abcdefgh";
const h = await functionsHarness("review-invite");

/** Monday, Nov 30 2026, 10:00 in Chicago (the job's zone: Austin). */
const T0 = Date.parse("2026-11-30T16:00:00Z");
const HOUR = 60 * 60_000;
/** The end of Thursday, Dec 3 in Chicago: midnight CST. */
const DEC_3_OVER = Date.parse("2026-12-04T06:00:00Z");

describe.skipIf(!h)("the review invitation's time", () => {
  let mail: WebhookReceiver;
  let env: ReturnType<typeof parseEnv>;
  let t = T0;
  const clock = () => t;
  const sign = signer(SECRET);

  beforeAll(async () => {
    mail = await startWebhookReceiver("/emails");
    env = parseEnv({
      SITE_URL: "https://treeline.test",
      RATE_LIMIT_PER_MINUTE: "1000",
      LINK_SIGNING_SECRET: SECRET,
      RESEND_API_KEY: "re_test",
      RESEND_API_URL: mail.url,
      NOTIFY_EMAIL_FROM: "Treeline <leads@treeline.test>",
    });
    await h!.store.businesses.upsert(
      testBusiness("rv-1", { name: "Pecan Tree Co", slug: "pecan-tree-co", email: "pecan@pros.test" }),
    );
  });
  afterEach(() => {
    t = T0;
  });
  afterAll(async () => {
    await mail.close();
    await h?.teardown();
  });

  const deps = () => ({
    store: () => h!.store,
    env,
    now: clock,
    notify: { now: clock },
    purge: async () => {},
  });
  async function run(handler: ReturnType<typeof respondHandler>, req: Request) {
    const pending: Promise<unknown>[] = [];
    const res = await handler(req, { ...nextIp(), waitUntil: (p) => void pending.push(p) });
    await Promise.all(pending);
    return res;
  }
  /** Invitations mailed to `to` so far. */
  const invitations = (to: string) =>
    mail.calls
      .map((c) => c.body as { to: string[]; subject: string; text: string })
      .filter((e) => e.to.includes(to) && e.subject.startsWith("How did"));
  const drainAt = (at: number) => drainOutbox(h!.store, { env, now: () => at });

  /** A booking for `preferredDate`, offered to rv-1 at T0 and accepted then (with `window`). */
  async function accepted(email: string, preferredDate?: string, window?: string) {
    const { lead } = await h!.store.leads.create(
      "booking",
      { ...validBooking("rv-1"), customerEmail: email, ...(preferredDate ? { preferredDate } : {}) },
      {
        sourcePage: "/",
        urgency: "routine",
        routing: initialRouting([{ businessId: "rv-1", name: "Pecan Tree Co", slug: "pecan-tree-co" }], "routine", T0),
      },
    );
    const answerPath = sign.answerPath(lead.id, "rv-1", T0 + 7 * 24 * HOUR);
    const fields: [string, string][] = [
      ["action", "accept"],
      ...(window ? [["window", window] as [string, string]] : []),
    ];
    await run(respondHandler(deps()), formRequest(answerPath, fields));
    const invite = (await h!.store.messages.forLead(lead.id)).find((m) => m.kind === "review-invite")!;
    return { lead, answerPath, invite, statusPath: sign.statusPath(lead.id) };
  }
  const review = (path: string) =>
    reviewInviteHandler(deps())(
      formRequest(path, [
        ["rating", "5"],
        ["customerName", "Rita R."],
      ]),
      nextIp(),
    );

  it("is not sent before the booked day is over, and only then makes a Verified review", async () => {
    const { lead, invite } = await accepted("booked@example.com", "2026-12-03");
    expect(invite).toMatchObject({ state: "queued", nextAttemptAt: new Date(DEC_3_OVER).toISOString() });
    const reviewPath = sign.reviewPath(lead.id, "rv-1", DEC_3_OVER + 60 * 24 * HOUR);

    // Every run before the day is over, the job's day itself included, leaves it waiting.
    for (const at of [T0 + HOUR, T0 + 48 * HOUR, Date.parse("2026-12-03T18:00:00Z"), DEC_3_OVER - 1_000]) {
      await drainAt(at);
      expect(invitations("booked@example.com"), new Date(at).toISOString()).toEqual([]);
      t = at;
      const early = await review(reviewPath);
      expect(await expectFlash(h!.store, early, reviewPath)).toMatchObject({
        status: 409,
        problem: expect.stringContaining("once the job is done"),
      });
    }
    expect(await h!.store.reviews.list("rv-1")).toEqual([]);

    await drainAt(DEC_3_OVER + 1_000);
    const [sent] = invitations("booked@example.com");
    expect(sent!.subject).toBe(`How did Pecan Tree Co do? (${lead.reference})`);
    expect(sent!.text).toContain(`https://treeline.test${reviewPath}`);
    await drainAt(DEC_3_OVER + 2 * HOUR);
    expect(invitations("booked@example.com")).toHaveLength(1);

    t = DEC_3_OVER + HOUR;
    const posted = await review(reviewPath);
    expect(await expectFlash(h!.store, posted, reviewPath)).toMatchObject({
      status: 200,
      notice: REVIEW_NOTICES.stored("Pecan Tree Co"),
    });
    expect(await h!.store.reviews.list("rv-1")).toMatchObject([{ customerName: "Rita R.", isVerified: true }]);
  });

  it("waits for the day the pro's answer names; a window with no day keeps the booked day; no day at all, a few days", async () => {
    const later = await accepted("later@example.com", "2026-12-03", "Fri Dec 4, 8-10 AM");
    expect(later.invite.nextAttemptAt).toBe("2026-12-05T06:00:00.000Z");
    const hours = await accepted("hours@example.com", "2026-12-03", "8-10 AM");
    expect(hours.invite.nextAttemptAt).toBe(new Date(DEC_3_OVER).toISOString());
    const tomorrow = await accepted("tomorrow@example.com", undefined, "Tomorrow afternoon");
    expect(tomorrow.invite.nextAttemptAt).toBe("2026-12-02T06:00:00.000Z");
    const none = await accepted("none@example.com");
    expect(Date.parse(none.invite.nextAttemptAt!)).toBe(T0 + REVIEW_INVITE_DELAY_MS);
  });

  it("goes at once when the homeowner marks the job done, and the review is Verified then", async () => {
    const { lead, statusPath } = await accepted("done@example.com", "2026-12-03");
    t = T0 + 5 * HOUR;
    await drainAt(t);
    expect(invitations("done@example.com")).toEqual([]);
    const res = await run(jobDoneHandler(deps()), formRequest(`${statusPath}/done`, [["businessId", "rv-1"]]));
    expect(res.status).toBe(303);
    const [sent] = invitations("done@example.com");
    expect(sent, "sent by the answer's own notifier").toBeDefined();
    const invite = (await h!.store.messages.forLead(lead.id)).find((m) => m.kind === "review-invite")!;
    expect(invite).toMatchObject({ state: "sent" });
    const reviewPath = new URL(/https:\/\/treeline\.test(\/review\/\S+)/.exec(sent!.text)![1]!, "https://x").pathname;
    const posted = await review(reviewPath);
    expect(await expectFlash(h!.store, posted, reviewPath)).toMatchObject({ status: 200 });
    expect((await h!.store.reviews.get(`inv-${lead.id}-rv-1`))?.isVerified).toBe(true);
  });

  it("is never sent once the pro gave the job back, and its link takes no review", async () => {
    const { lead, answerPath, invite } = await accepted("gone@example.com", "2026-12-03");
    expect(invite.state).toBe("queued");
    t = T0 + HOUR;
    await run(
      respondHandler(deps()),
      formRequest(answerPath, [
        ["action", "withdraw"],
        ["reason", "cant-make-it"],
      ]),
    );
    const stopped = (await h!.store.messages.forLead(lead.id)).find((m) => m.kind === "review-invite")!;
    expect(stopped).toMatchObject({ state: "kept", note: INVITE_WITHDRAWN_NOTE });
    expect(stopped.nextAttemptAt).toBeUndefined();
    await drainAt(DEC_3_OVER + HOUR);
    expect(invitations("gone@example.com")).toEqual([]);
    t = DEC_3_OVER + HOUR;
    const reviewPath = sign.reviewPath(lead.id, "rv-1", DEC_3_OVER + 60 * 24 * HOUR);
    expect(await expectFlash(h!.store, await review(reviewPath), reviewPath)).toMatchObject({ status: 404 });
  });
});
