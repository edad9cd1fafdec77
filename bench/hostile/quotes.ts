/**
 * Bench b: 50 concurrent valid POST /api/quote, each with its own Idempotency-Key, on the
 * Redis at REDIS_URL (default redis://127.0.0.1:6379) under a unique REDIS_KEY_PREFIX, once
 * with RATE_LIMIT_PER_MINUTE=0 and once with the default limit: only 2xx, 429 or 503 may
 * answer; every 2xx's lead is stored exactly once and no refused payload is stored (matched
 * by a marker in treeDetails.condition). Its keys are deleted afterwards.
 */
import { randomBytes, randomUUID } from "node:crypto";
import { deleteKeysWithPrefix } from "../../tests/helpers/redis.ts";
import { createStore } from "../../netlify/lib/store/index.ts";
import { percentile, procStatus, request, sortedNumbers, startServer, table } from "../lib.mjs";
import { quoteBody, type HostileOptions } from "./shared.ts";

async function quoteBurst(redisUrl: string, limit: string | undefined): Promise<Record<string, unknown>> {
  const prefix = `treeline:bench-hostile:${randomBytes(4).toString("hex")}:`;
  const env: Record<string, string> = { REDIS_URL: redisUrl, REDIS_KEY_PREFIX: prefix, NODE_ENV: "production" };
  if (limit !== undefined) env.RATE_LIMIT_PER_MINUTE = limit;
  const server = await startServer(env);
  const store = createStore({ transport: "redis", url: redisUrl, prefix });
  try {
    // The first call to a function may pay for its bundling: an invalid body, from another
    // address, takes that cost out of the burst and stores nothing.
    await request(server.port, "POST", "/api/quote", {
      headers: { "content-type": "application/json" },
      body: "{}",
      localAddress: "127.0.0.2",
      timeoutMs: 120_000,
    });
    const run = randomBytes(3).toString("hex");
    let peakRss = procStatus(server.pid).rss;
    const sampler = setInterval(() => {
      try {
        peakRss = Math.max(peakRss, procStatus(server.pid).rss);
      } catch {
        // gone
      }
    }, 100);
    const sent = await Promise.all(
      Array.from({ length: 50 }, async (_, i) => {
        const marker = `bench-hostile-${run}-${i}`;
        const res = await request(server.port, "POST", "/api/quote", {
          headers: { "content-type": "application/json", "idempotency-key": randomUUID() },
          body: quoteBody(marker),
          timeoutMs: 120_000,
        });
        let id: string | undefined;
        try {
          id = JSON.parse(res.body.toString()).id;
        } catch {
          // not JSON
        }
        return {
          marker,
          status: res.status,
          error: res.error,
          ms: res.ms,
          id,
          body: res.body.toString().slice(0, 200),
        };
      }),
    );
    clearInterval(sampler);
    // Every stored quote under the prefix, by marker.
    const stored = new Map<string, string[]>();
    let cursor: string | null = null;
    do {
      const page = await store.leads.list("quote", { cursor, limit: 100 });
      for (const lead of page.items) {
        const marker = String((lead.data as { treeDetails?: { condition?: string } }).treeDetails?.condition ?? "");
        stored.set(marker, [...(stored.get(marker) ?? []), lead.id]);
      }
      cursor = page.nextCursor;
    } while (cursor);
    const statuses: Record<string, number> = {};
    const problems: string[] = [];
    for (const s of sent) {
      const key = String(s.status || s.error);
      statuses[key] = (statuses[key] ?? 0) + 1;
      const ids = stored.get(s.marker) ?? [];
      const ok = s.status >= 200 && s.status < 300;
      if (!(ok || s.status === 429 || s.status === 503))
        problems.push(`${s.marker}: answered ${s.status || s.error} ${JSON.stringify(s.body)}`);
      if (ok && (ids.length !== 1 || ids[0] !== s.id))
        problems.push(`${s.marker}: answered ${s.status} id ${s.id}, stored ${JSON.stringify(ids)}`);
      if (!ok && ids.length)
        problems.push(`${s.marker}: answered ${s.status || s.error} but stored ${JSON.stringify(ids)}`);
    }
    const markers = new Set(sent.map((s) => s.marker));
    for (const [m, ids] of stored)
      if (!markers.has(m)) problems.push(`stored lead(s) ${ids.join(", ")} with unknown marker ${m}`);
    const lat = sortedNumbers(sent.map((s) => s.ms));
    return {
      rateLimit: limit ?? "default",
      statuses,
      stored: [...stored.values()].reduce((n, ids) => n + ids.length, 0),
      p50: percentile(lat, 50),
      max: lat[lat.length - 1],
      peakRss,
      problems,
    };
  } finally {
    await server.stop();
    await store.close();
    await deleteKeysWithPrefix(redisUrl, prefix);
  }
}

/** Runs bench b, prints its table and returns its figures. */
export async function concurrentQuotes({ redisUrl }: HostileOptions): Promise<Record<string, unknown>[]> {
  console.log(`[hostile] b: 50 concurrent POST /api/quote on ${redisUrl}`);
  const runs = [await quoteBurst(redisUrl, "0"), await quoteBurst(redisUrl, undefined)];
  console.log("\nb. 50 concurrent valid POST /api/quote, each with its own Idempotency-Key, one client address\n");
  console.log(
    table(
      ["RATE_LIMIT_PER_MINUTE", "statuses", "stored", "p50 ms", "max ms", "peak RSS", "only 2xx/429/503, reconciled"],
      runs.map((r) => [
        String(r.rateLimit),
        Object.entries(r.statuses as Record<string, number>)
          .map(([s, n]) => `${s}: ${n}`)
          .join(", "),
        String(r.stored),
        (r.p50 as number).toFixed(0),
        (r.max as number).toFixed(0),
        `${((r.peakRss as number) / 1024 / 1024).toFixed(0)} MB`,
        (r.problems as string[]).length ? `NO (${(r.problems as string[]).length})` : "yes",
      ]),
    ),
  );
  for (const r of runs) for (const p of (r.problems as string[]).slice(0, 5)) console.log(`  ${r.rateLimit}: ${p}`);
  return runs;
}
