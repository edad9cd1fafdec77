/**
 * Counts the requests a piece of code sends to Redis. One Upstash REST call, one command or
 * one pipeline over ioredis is one round trip, which is what a page's latency grows with;
 * commands inside a pipeline are not counted separately. The count follows the async call
 * chain (AsyncLocalStorage), so concurrent requests in one function instance do not mix.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import type { Redis, Requester } from "@upstash/redis";

const counters = new AsyncLocalStorage<{ count: number }>();

/** Runs fn and reports how many round trips it made. */
export async function withRoundTrips<T>(fn: () => Promise<T>): Promise<{ value: T; roundTrips: number }> {
  const counter = { count: 0 };
  const value = await counters.run(counter, fn);
  return { value, roundTrips: counter.count };
}

/**
 * Makes a client report its requests. Every transport sits behind the client's requester
 * (`client`, set by its constructor for REST and custom requesters alike), so this one seam
 * covers Upstash, Redis and the embedded store.
 */
export function countRoundTrips(redis: Redis): Redis {
  const holder = redis as unknown as { client?: Requester };
  const requester = holder.client;
  if (!requester || typeof requester.request !== "function") return redis;
  const request = requester.request.bind(requester);
  requester.request = ((req) => {
    const counter = counters.getStore();
    if (counter) counter.count++;
    return request(req);
  }) as Requester["request"];
  return redis;
}
