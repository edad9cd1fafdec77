/**
 * npm run bench:storm
 *
 * Storm load: COUNT emergency find-pros requests (default 1,000) arriving
 * evenly over DURATION seconds of storm time (default 600, ten minutes) into one declared storm
 * (20 Miami ZIPs, 40 crews answering emergencies 24/7), on each store transport in turn (real
 * Redis at REDIS_URL or 127.0.0.1:6379 under a unique prefix, then the embedded store in
 * memory). The real handlers run in this process (the find-pros endpoint, the notifier after
 * each answer, the response clock's scheduled run every storm minute), with a local fake
 * Resend on 127.0.0.1 taking every e-mail. Nobody answers, so every request takes the whole
 * emergency path: STORM_OFFER_PROS offers at minute 0, one more pro at minute 10, the operator
 * at minute 20.
 *
 * Storm time runs SPEEDUP times faster than the wall clock (default 1: a ten-minute run per
 * transport); the clock's budget is scaled with it, so each run still has RUN_BUDGET_MS of
 * storm time. It checks, and prints: every request stored once (201s, leads in the store, in
 * the storm's index, distinct ids); every offer made and its e-mail taken by the provider
 * once (offers per lead, offer messages sent); no duplicate message (the provider's
 * idempotency keys, each seen once); the clock keeping up (each run's wall time and what it
 * left due, the lag from an offer's deadline to its expiry). Writes bench/results/storm.json.
 * It measures; it never fails a build (exit code 1 only when a check above fails).
 *
 * With SPEEDUP above 1 the notifier's claim lease (CLAIM_LEASE_MS, 60 s) is storm time too, so
 * it lasts 60/SPEEDUP s of wall time while sends take wall time: a send slower than that can be
 * claimed and sent again. The duplicates line gives each repeat's kind and the wall time
 * between the two sends, to tell such an artifact from a real double send.
 *
 * Options: COUNT=1000 DURATION=600 SPEEDUP=1 TRANSPORTS=redis,embedded OUT=bench/results/storm.json
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { FIND_PROS_ENDPOINT } from "../netlify/lib/find-pros.ts";
import { leadHandler } from "../netlify/lib/leads.ts";
import { runClock, type ClockReport } from "../netlify/lib/delivery/progress.ts";
import { notifyLead } from "../netlify/lib/notify/index.ts";
import { RUN_BUDGET_MS } from "../netlify/lib/run-budget.ts";
import { createStore, type Store } from "../netlify/lib/store/index.ts";
import { declareStorm } from "../netlify/lib/storms.ts";
import { parseEnv } from "../src/lib/env.ts";
import { zipPoint } from "../src/lib/geo/places.ts";
import { STORM_OFFER_PROS } from "../src/lib/storm-routing.ts";
import type { BusinessInput } from "../src/lib/schemas/business.ts";
import { startWebhookReceiver, type WebhookReceiver } from "../tests/helpers/webhook-receiver.ts";
import { deleteKeysWithPrefix } from "../tests/helpers/redis.ts";

const COUNT = Math.max(1, Number(process.env.COUNT ?? 1000));
const DURATION_MS = Math.max(1, Number(process.env.DURATION ?? 600)) * 1000;
const SPEEDUP = Math.max(1, Number(process.env.SPEEDUP ?? 1));
const TRANSPORTS = (process.env.TRANSPORTS ?? "redis,embedded").split(",").filter(Boolean);
const REDIS_URL = process.env.REDIS_URL || "redis://127.0.0.1:6379";
const MIN = 60_000;
/**
 * After the last arrival: its next pro comes at the first clock run past minute 10 and the
 * operator at the first past that offer's own 10 minutes, so up to minute 22; a margin on top.
 */
const TAIL_MS = 25 * MIN;

const ZIPS = [
  "33101", "33125", "33126", "33127", "33128", "33129", "33130", "33131", "33132", "33133",
  "33134", "33135", "33136", "33137", "33138", "33142", "33144", "33145", "33146", "33147",
]; // prettier-ignore
const CREWS = 40;

function crew(i: number): BusinessInput {
  const zip = ZIPS[i % ZIPS.length]!;
  const { lat, lng } = zipPoint(zip)!;
  return {
    id: `storm-crew-${i}`,
    name: `Storm Crew ${i}`,
    slug: `storm-crew-${i}`,
    description: "Emergency tree removal.",
    city: "Miami",
    state: "FL",
    zipCode: zip,
    address: `${i} Storm Way`,
    phone: "(305) 555-0100",
    email: `crew${i}@crews.test`,
    isFeatured: false,
    rating: "4.5",
    reviewCount: 10,
    services: ["Tree Removal", "Emergency Service"],
    specialties: [],
    serviceAreas: [],
    businessHours: {},
    yearsInBusiness: 5,
    emergency247: true,
    timeZone: "America/New_York",
    // Spread the crews inside each ZIP so distances differ.
    location: { lat: lat + ((i * 7) % 11) * 0.001, lng: lng - ((i * 5) % 13) * 0.001 },
  };
}

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]! : 0;
};
const sleep = (ms: number) => new Promise((r) => setTimeout(r, Math.max(0, ms)));

interface Result {
  transport: string;
  count: number;
  durationSeconds: number;
  speedup: number;
  wallSeconds: number;
  answers: Record<string, number>;
  stored: { distinctIds: number; inStore: number; inStormIndex: number; once: boolean };
  offers: { expected: number; made: number; offerEmailsSent: number; leadsShort: number };
  messages: {
    providerCalls: number;
    distinctKeys: number;
    duplicates: number;
    notSent: number;
    /** Each repeated key's event kind and the wall seconds between its first and its repeat. */
    repeats: { kind: string; gapSeconds: number }[];
    /** The stored messages behind the repeats: state, attempts and note, counted. */
    repeatedAs: Record<string, number>;
  };
  clock: {
    runs: number;
    wallMsP50: number;
    wallMsMax: number;
    outOfTimeRuns: number;
    maxLeftDue: number;
    maxDue: number;
    /** The runs' cadence in wall time (one storm minute), which each run must fit in to keep up. */
    cadenceWallMs: number;
    expiryLagSecondsP50: number;
    expiryLagSecondsP95: number;
    expiryLagSecondsMax: number;
    escalated: number;
    failed: number;
    /** Runs that threw (a store timeout): the next minute's run took over. */
    runErrors: string[];
  };
  postMsP50: number;
  postMsP95: number;
}

async function runOn(transport: string, mail: WebhookReceiver): Promise<Result> {
  const prefix = `storm-bench-${process.pid}-${transport}:`;
  const store: Store =
    transport === "redis"
      ? createStore({ transport: "redis", url: REDIS_URL, prefix })
      : createStore({ transport: "embedded", prefix });
  mail.calls.length = 0;
  const sentAt = new Map<string, number>();
  const repeats: { kind: string; gapSeconds: number; key: string }[] = [];
  mail.route = (call) => {
    const key = String(call.headers["idempotency-key"] ?? "");
    const first = sentAt.get(key);
    if (first === undefined) sentAt.set(key, Date.now());
    else repeats.push({ key, kind: key.split("~")[1] ?? key, gapSeconds: Math.round((Date.now() - first) / 100) / 10 });
    return undefined;
  };
  // Storm time: starts now and runs SPEEDUP times faster than the wall clock.
  const wall0 = Date.now();
  const t0 = wall0;
  const clock = () => t0 + (Date.now() - wall0) * SPEEDUP;
  const env = parseEnv({
    RATE_LIMIT_PER_MINUTE: "100000",
    LINK_SIGNING_SECRET: "storm-bench-link-secret-0123456789abcdef",
    RESEND_API_KEY: "re_bench",
    RESEND_API_URL: mail.url,
    NOTIFY_EMAIL_FROM: "Treeline <leads@treeline.test>",
    NOTIFY_EMAIL_TO: "ops@treeline.test",
    SITE_URL: "http://127.0.0.1:8888",
  });
  try {
    for (let i = 0; i < CREWS; i++) await store.businesses.upsert(crew(i));
    const storm = await declareStorm(
      {
        name: "Bench Hurricane",
        area: { kind: "zips", zips: ZIPS },
        startsAt: new Date(t0 - MIN).toISOString(),
        declaration: { level: "governor", reference: "EO bench" },
      },
      { store, now: t0 },
    );
    const pending: Promise<unknown>[] = [];
    const handler = leadHandler(FIND_PROS_ENDPOINT, {
      store: () => store,
      env,
      now: clock,
      notify: (s, id) => notifyLead(s, id, { env, now: clock }),
    });
    const answers: Record<string, number> = {};
    const ids: string[] = [];
    const postMs: number[] = [];
    const clockReports: { report: ClockReport; wallMs: number }[] = [];
    let arrivalsDone = false;
    const clockErrors: string[] = [];
    let lastArrival = t0;

    // The response clock: its scheduled run every storm minute, with the run budget in storm time.
    const clockLoop = (async () => {
      let next = t0 + MIN;
      for (;;) {
        await sleep((next - clock()) / SPEEDUP);
        const started = Date.now();
        try {
          const report = await runClock(store, {
            env,
            now: clock,
            deadline: clock() + RUN_BUDGET_MS * SPEEDUP,
            purge: async () => {},
          });
          clockReports.push({ report, wallMs: Date.now() - started });
        } catch (error) {
          // As on Netlify: a failed run is logged and the next minute's run takes over.
          clockErrors.push(`${(error as Error).name}: ${(error as Error).message}`.slice(0, 120));
        }
        next += MIN;
        if (arrivalsDone && clock() > lastArrival + TAIL_MS) return;
      }
    })();

    const sends: Promise<void>[] = [];
    for (let i = 0; i < COUNT; i++) {
      const at = t0 + Math.floor((i * DURATION_MS) / COUNT);
      await sleep((at - clock()) / SPEEDUP);
      lastArrival = clock();
      const body = {
        location: ZIPS[i % ZIPS.length],
        serviceType: "Tree Removal",
        propertyType: "residential",
        description: `Oak down on the roof, storm request ${i}`,
        timeline: "emergency",
        name: `Storm Caller ${i}`,
        phone: "305-555-0123",
        email: `caller${i}@homes.test`,
      };
      sends.push(
        (async () => {
          const started = performance.now();
          const res = await handler(
            new Request("http://127.0.0.1:8888/api/find-pros", {
              method: "POST",
              headers: {
                "content-type": "application/json",
                accept: "application/json",
                origin: "http://127.0.0.1:8888",
              },
              body: JSON.stringify(body),
            }),
            { ip: `198.51.100.${i % 250}:${i}`, waitUntil: (p: Promise<unknown>) => void pending.push(p) },
          );
          postMs.push(performance.now() - started);
          answers[res.status] = (answers[res.status] ?? 0) + 1;
          if (res.status === 201) ids.push(((await res.json()) as { id: string }).id);
        })(),
      );
    }
    await Promise.all(sends);
    arrivalsDone = true;
    await Promise.all(pending);
    await clockLoop;
    // Anything the clock's runs left for the outbox (none expected): not retried here, counted below.

    // Stored once.
    const distinct = new Set(ids);
    const inStore = (await store.leads.counts())["find-pros"];
    const inStormIndex = await store.stormLeads.count(storm.id);

    // Offers, messages and the clock's lag, lead by lead.
    let made = 0;
    let leadsShort = 0;
    let offerEmailsSent = 0;
    let notSent = 0;
    let escalated = 0;
    const lags: number[] = [];
    for (const id of distinct) {
      const lead = (await store.leads.get(id))!;
      const deliveries = lead.routing?.deliveries ?? [];
      made += deliveries.length;
      if (deliveries.length < STORM_OFFER_PROS + 1) leadsShort++;
      if (lead.routing?.escalatedAt) escalated++;
      for (const e of lead.routing?.events ?? []) {
        if (e.kind !== "expired") continue;
        const d = deliveries.find((x) => x.businessId === e.businessId)!;
        lags.push((Date.parse(e.at) - Date.parse(d.deadlineAt)) / 1000);
      }
      const messages = await store.messages.forLead(id);
      for (const m of messages) {
        if (m.channel === "email" && m.state !== "sent") notSent++;
        if (m.kind === "offer" && m.channel === "email" && m.state === "sent") offerEmailsSent++;
      }
    }
    const keys = mail.calls.map((c) => String(c.headers["idempotency-key"] ?? ""));
    const repeatedAs: Record<string, number> = {};
    for (const r of repeats) {
      const [m] = await store.messages.getMany([r.key]);
      const as = m ? `${m.state}, ${m.attempts} attempts${m.note ? `, ${m.note}` : ""}` : "not stored";
      repeatedAs[as] = (repeatedAs[as] ?? 0) + 1;
    }
    const distinctKeys = new Set(keys).size;
    const wall = clockReports.map((r) => r.wallMs);
    return {
      transport,
      count: COUNT,
      durationSeconds: DURATION_MS / 1000,
      speedup: SPEEDUP,
      wallSeconds: Math.round((Date.now() - wall0) / 100) / 10,
      answers,
      stored: {
        distinctIds: distinct.size,
        inStore,
        inStormIndex,
        once: distinct.size === COUNT && inStore === COUNT && inStormIndex === COUNT,
      },
      offers: { expected: COUNT * (STORM_OFFER_PROS + 1), made, offerEmailsSent, leadsShort },
      messages: {
        providerCalls: keys.length,
        distinctKeys,
        duplicates: keys.length - distinctKeys,
        notSent,
        repeats: repeats.map(({ kind, gapSeconds }) => ({ kind, gapSeconds })),
        repeatedAs,
      },
      clock: {
        runs: clockReports.length,
        wallMsP50: Math.round(pct(wall, 50)),
        wallMsMax: Math.round(Math.max(0, ...wall)),
        outOfTimeRuns: clockReports.filter((r) => r.report.outOfTime).length,
        maxLeftDue: Math.max(0, ...clockReports.map((r) => r.report.left)),
        maxDue: Math.max(0, ...clockReports.map((r) => r.report.due)),
        cadenceWallMs: Math.round(MIN / SPEEDUP),
        expiryLagSecondsP50: Math.round(pct(lags, 50)),
        expiryLagSecondsP95: Math.round(pct(lags, 95)),
        expiryLagSecondsMax: Math.round(Math.max(0, ...lags)),
        escalated,
        failed: clockReports.reduce((n, r) => n + r.report.failed, 0),
        runErrors: clockErrors,
      },
      postMsP50: Math.round(pct(postMs, 50)),
      postMsP95: Math.round(pct(postMs, 95)),
    };
  } finally {
    await store.close();
    if (transport === "redis") await deleteKeysWithPrefix(REDIS_URL, prefix);
  }
}

// The handlers log a line per lead and message: thousands here. Errors still print.
console.info = () => {};
console.warn = () => {};

const mail = await startWebhookReceiver("/emails");
const results: Result[] = [];
let ok = true;
try {
  console.log(
    `[storm] ${COUNT} emergency requests over ${DURATION_MS / 1000} s of storm time (x${SPEEDUP} the wall clock), ` +
      `${CREWS} crews, ${STORM_OFFER_PROS} offers at once; transports: ${TRANSPORTS.join(", ")}`,
  );
  for (const transport of TRANSPORTS) {
    const r = await runOn(transport, mail);
    results.push(r);
    const checks = {
      "stored once": r.stored.once,
      "every offer made": r.offers.made === r.offers.expected && r.offers.offerEmailsSent === r.offers.expected,
      "no duplicate message": r.messages.duplicates === 0,
      "clock kept up":
        r.clock.outOfTimeRuns === 0 &&
        r.clock.failed === 0 &&
        r.clock.runErrors.length === 0 &&
        r.clock.maxLeftDue === 0 &&
        r.clock.wallMsMax < r.clock.cadenceWallMs &&
        r.clock.escalated === r.count,
    };
    for (const passed of Object.values(checks)) ok &&= passed;
    console.log(`\n[storm] ${transport}: ${JSON.stringify(r, null, 2)}`);
    console.log(
      `[storm] ${transport}: ${Object.entries(checks)
        .map(([k, v]) => `${k}: ${v ? "yes" : "NO"}`)
        .join("; ")}`,
    );
  }
} finally {
  await mail.close();
}
const out = process.env.OUT ?? "bench/results/storm.json";
mkdirSync(dirname(out), { recursive: true });
writeFileSync(out, JSON.stringify({ at: new Date().toISOString(), results }, null, 2));
console.log(`\n[storm] wrote ${out}`);
process.exit(ok ? 0 : 1);
