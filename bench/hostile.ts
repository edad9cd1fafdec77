/**
 * npm run bench:hostile [-- --runs N --seed S --concurrency C --parts abc]: hostile traffic
 * through the real `node runtime/serve.mjs` over HTTP, in three benches (--parts picks them):
 *
 *   a. hostile requests (bench/hostile/requests.ts): >= 10,000 of them, target 0 x 5xx;
 *   b. 50 concurrent quotes on Redis, reconciled with the store (bench/hostile/quotes.ts);
 *   c. a frozen Redis, target 503 within 5 s (bench/hostile/frozen-redis.ts).
 *
 * Prints a summary, writes bench/results/hostile-<timestamp>.json and stops every process it
 * started by PID, even on failure. Measures only: the exit code is 0 whatever the figures.
 */
import path from "node:path";
import { ROOT, argValue, ensureBuilt, writeResult } from "./lib.mjs";
import { frozenRedis } from "./hostile/frozen-redis.ts";
import { concurrentQuotes } from "./hostile/quotes.ts";
import { hostileRequests } from "./hostile/requests.ts";
import { hostileOptions } from "./hostile/shared.ts";

const args = process.argv.slice(2);
const options = hostileOptions(args);
const parts = argValue(args, "--parts") ?? "abc";
const result: Record<string, unknown> = {
  node: process.version,
  seed: options.seed,
  runs: options.runs,
  concurrency: options.concurrency,
};

ensureBuilt("hostile");
// The store's Redis socket is unref'd while idle: hold the loop open.
const keepAlive = setInterval(() => {}, 1_000);
let exitCode = 0;
try {
  if (parts.includes("a")) result.a = await hostileRequests(options);
  if (parts.includes("b")) result.b = await concurrentQuotes(options);
  if (parts.includes("c")) result.c = await frozenRedis();
  console.log(`\n[hostile] wrote ${path.relative(ROOT, writeResult("hostile", result))}`);
} catch (error) {
  console.error("[hostile] failed:", error);
  exitCode = 1;
} finally {
  clearInterval(keepAlive);
}
process.exit(exitCode);
