/**
 * Per-IP sliding-window limits for the public POST endpoints, counted by the store
 * (repos/rate-limits.ts) so every function instance shares one count.
 *
 * Each endpoint passes its allowance from the configuration (env.ts: RATE_LIMIT_PER_MINUTE
 * and the chat's and admin's own); 0 turns the limiter off, e.g. for load tests.
 */
import { HttpError } from "./http-responses.ts";
import type { Store } from "./store/index.ts";

/** The 429 message of every public endpoint. */
export const RATE_LIMIT_ERROR = "Too many requests. Please wait a minute and try again.";

export type RateLimitResult = { ok: true } | { ok: false; retryAfterSeconds: number };

/**
 * Counts one request from `ip` against `endpoint`. Fails open: if the store cannot answer,
 * the visitor is let through (the write that follows will then report the outage as a 503).
 * A request without a client address (neither Netlify nor `npm start` sends one) is not
 * counted: pooling all of them in one bucket would let one client block every other.
 */
export async function checkRateLimit(
  store: Store,
  endpoint: string,
  ip: string | null,
  perMinute: number,
  now: () => number = Date.now,
): Promise<RateLimitResult> {
  if (perMinute <= 0) return { ok: true };
  if (ip === null) {
    console.warn(`[ratelimit] ${endpoint}: request without a client address, not counted`);
    return { ok: true };
  }
  try {
    const result = await store.rateLimits.perMinute(`${endpoint}:${ip}`, perMinute);
    if (result.success) return { ok: true };
    return { ok: false, retryAfterSeconds: Math.max(1, Math.ceil((result.reset - now()) / 1000)) };
  } catch (error) {
    console.warn(
      `[ratelimit] ${endpoint}: limiter unavailable, allowing request (${error instanceof Error ? error.name : "error"})`,
    );
    return { ok: true };
  }
}

/** Counts one request like checkRateLimit; over the allowance it throws the 429 (with Retry-After). */
export async function enforceRateLimit(
  store: Store,
  endpoint: string,
  ip: string | null,
  perMinute: number,
  now: () => number = Date.now,
  message = RATE_LIMIT_ERROR,
): Promise<void> {
  const limited = await checkRateLimit(store, endpoint, ip, perMinute, now);
  if (!limited.ok) throw new HttpError(429, message, { headers: { "retry-after": String(limited.retryAfterSeconds) } });
}
