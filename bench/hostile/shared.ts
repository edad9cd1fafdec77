/**
 * What the hostile benches share: their options (from the command line), the seed business
 * they aim at, and a valid quote with a marker to find it in the store again.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { validQuote } from "../../tests/helpers/functions.ts";
import { ROOT, argValue } from "../lib.mjs";

export interface HostileOptions {
  /** Generated cases of bench a (`--runs`). */
  runs: number;
  /** fast-check's seed for them (`--seed`). */
  seed: number;
  /** Requests in flight at once in bench a (`--concurrency`). */
  concurrency: number;
  /** The Redis of bench b (REDIS_URL). */
  redisUrl: string;
  /** A client's wait for an answer in bench a (TIMEOUT_MS). */
  timeoutMs: number;
}

/** The options from `args` (`--runs N --seed S --concurrency C`) and the environment. */
export function hostileOptions(args: string[]): HostileOptions {
  return {
    runs: Number(argValue(args, "--runs") ?? 10_000),
    seed: Number(argValue(args, "--seed") ?? Date.now() % 2 ** 31),
    concurrency: Number(argValue(args, "--concurrency") ?? 8),
    redisUrl: process.env.REDIS_URL || "redis://127.0.0.1:6379",
    timeoutMs: Number(process.env.TIMEOUT_MS || 30_000),
  };
}

/** The first business of the seed file: the one the embedded store surely holds. */
export const BIZ = (
  JSON.parse(readFileSync(path.join(ROOT, "content/directory/businesses.json"), "utf8")) as {
    id: string;
    slug: string;
  }[]
)[0]!;

/** A valid quote whose tree condition is `marker`, to find its lead in the store. */
export const quoteBody = (marker: string): string =>
  JSON.stringify({
    ...validQuote(),
    treeDetails: { treeType: "Live oak", height: "40 ft", condition: marker },
    _started: String(Date.now() - 60_000),
  });
