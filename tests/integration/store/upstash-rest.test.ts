/**
 * The production transport: @upstash/redis over HTTP (REST), against a local
 * Upstash-compatible endpoint in front of the real Redis. Runs the whole contract suite,
 * plus checks of the HTTP surface itself.
 */
import { describe, expect, it, afterAll } from "vitest";
import { Redis } from "@upstash/redis";
import { createStore } from "../../../netlify/lib/store/index.ts";
import { deleteKeysWithPrefix, resolveTestRedisUrl, uniquePrefix } from "../../helpers/redis.ts";
import { startUpstashRestServer, type UpstashRestServer } from "../../helpers/upstash-rest.ts";
import { defineStoreContract } from "./contract.ts";

let server: UpstashRestServer | undefined;
const url = await resolveTestRedisUrl();
if (url) server = await startUpstashRestServer({ redisUrl: url });
afterAll(async () => server?.close());

defineStoreContract("upstash-rest", async () => {
  if (!url || !server) return null;
  const rest = server;
  let count = 0;
  // One prefix for the suite: clean-up is one SCAN of the shared key space, not one per store.
  const suite = uniquePrefix("rest");
  return {
    async fresh(label) {
      count += 1;
      return createStore({
        transport: "upstash",
        url: rest.url,
        token: rest.token,
        prefix: `${suite}${label}-${count}:`,
      });
    },
    async teardown() {
      await deleteKeysWithPrefix(url, suite);
    },
  };
});

describe.runIf(url)("upstash REST endpoint", () => {
  it("went through HTTP for single commands, pipelines and transactions", () => {
    expect(server?.hits["/"]).toBeGreaterThan(0);
    expect(server?.hits["/pipeline"]).toBeGreaterThan(0);
    expect(server?.hits["/multi-exec"]).toBeGreaterThan(0);
  });

  it("refuses a wrong token", async () => {
    const bad = new Redis({ url: server!.url, token: "wrong", retry: false });
    await expect(bad.ping()).rejects.toThrow(/Unauthorized/);
  });

  it("reports a health check through the store", async () => {
    const store = createStore({
      transport: "upstash",
      url: server!.url,
      token: server!.token,
      prefix: uniquePrefix("rest-health"),
    });
    expect(store.kind).toBe("upstash");
    expect(await store.ping()).toBe(true);
    await deleteKeysWithPrefix(url!, store.prefix);
  });
});
