/**
 * The function files as Netlify loads them: default export + config, store picked from the
 * environment (REDIS_URL/REDIS_KEY_PREFIX set before import), limit from RATE_LIMIT_PER_MINUTE.
 */
import { afterAll, describe, expect, it } from "vitest";
import { createStore } from "../../../netlify/lib/store/index.ts";
import { deleteKeysWithPrefix, resolveTestRedisUrl, uniquePrefix } from "../../helpers/redis.ts";
import {
  jsonRequest,
  nextIp,
  validAssessment,
  validAudit,
  validFindPros,
  validQuote,
} from "../../helpers/functions.ts";

const url = await resolveTestRedisUrl();
const prefix = uniquePrefix("fn-deployed");

describe.skipIf(!url)("netlify/functions/*.mts", () => {
  const saved = { ...process.env };
  afterAll(async () => {
    process.env = saved;
    await deleteKeysWithPrefix(url!, prefix);
  });

  it("each endpoint is wired to its path and stores through getStore()", async () => {
    Object.assign(process.env, { REDIS_URL: url!, REDIS_KEY_PREFIX: prefix, RATE_LIMIT_PER_MINUTE: "2" });
    delete process.env.UPSTASH_REDIS_REST_URL;
    const cases = [
      ["quote", validQuote()],
      ["audit", validAudit()],
      ["assessment", validAssessment()],
      ["find-pros", validFindPros()],
    ] as const;
    const check = createStore({ transport: "redis", url: url!, prefix });
    try {
      for (const [name, payload] of cases) {
        const mod = await import(`../../../netlify/functions/${name}.mts`);
        expect(mod.config.path).toBe(`/api/${name}`);
        expect(mod.config.method).toBeUndefined();
        const res: Response = await mod.default(jsonRequest(`/api/${name}`, payload), nextIp());
        expect(res.status, name).toBe(201);
        const { id } = await res.json();
        expect((await check.leads.get(id))?.type).toBe(name);
      }
      const quote = (await import("../../../netlify/functions/quote.mts")).default;
      const ip = nextIp();
      await quote(jsonRequest("/api/quote", {}), ip);
      await quote(jsonRequest("/api/quote", {}), ip);
      expect((await quote(jsonRequest("/api/quote", {}), ip)).status).toBe(429);
    } finally {
      await check.close();
    }
  });
});
