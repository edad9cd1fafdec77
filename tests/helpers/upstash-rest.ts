/** The Upstash-REST-compatible endpoint in front of a real Redis, for the REST smoke tests. */
import { startRestServer, type UpstashRestServer } from "../../netlify/lib/store/rest-server.ts";
import { IORedisBackend } from "../../netlify/lib/store/transports/redis.ts";

export type { UpstashRestServer };

export function startUpstashRestServer(options: { redisUrl: string; token?: string }): Promise<UpstashRestServer> {
  return startRestServer({ backend: new IORedisBackend(options.redisUrl), token: options.token ?? "test-token" });
}
