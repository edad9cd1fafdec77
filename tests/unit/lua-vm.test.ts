/**
 * The embedded store's compiled EVAL (transports/lua-vm.ts) answers every script as
 * ioredis-mock's own EVAL does, run after run on the same compiled state.
 */
import RedisMock from "ioredis-mock";
import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { EmbeddedBackend } from "../../netlify/lib/store/transports/embedded.ts";

const SCRIPTS: [string, string[], string[]][] = [
  ["return 1", [], []],
  ["return {1, 'two', {3, 'four'}}", [], []],
  ["return nil", [], []],
  ["return false", [], []],
  ["return KEYS[1] .. ARGV[1]", ["k"], ["a"]],
  ["redis.call('SET', KEYS[1], ARGV[1]); return redis.call('GET', KEYS[1])", ["s"], ["v"]],
  ["redis.call('HSET', KEYS[1], 'a', '1', 'b', '2'); return redis.call('HGETALL', KEYS[1])", ["h"], []],
  ["return redis.call('HMGET', KEYS[1], 'a', 'missing')", ["h"], []],
  ["return redis.call('ZADD', KEYS[1], 5, 'm') + redis.call('ZCARD', KEYS[1])", ["z"], []],
  ["return redis.call('GET', 'absent')", [], []],
  ["local r = redis.pcall('INCR', KEYS[1]); return type(r)", ["h"], []],
  ["return #ARGV", [], ["a", "b", "c"]],
  ["return cjson == nil", [], []],
];

async function mockReply(mock: InstanceType<typeof RedisMock>, script: string, keys: string[], args: string[]) {
  try {
    return { value: await mock.eval(script, keys.length, ...keys, ...args) };
  } catch (error) {
    return { error: String(error) };
  }
}

async function backendReply(backend: EmbeddedBackend, script: string, keys: string[], args: string[]) {
  try {
    return { value: await backend.command(["EVAL", script, String(keys.length), ...keys, ...args]) };
  } catch (error) {
    return { error: String(error) };
  }
}

describe("compiled EVAL", () => {
  it("answers as the mock's EVAL, twice in a row on the same compiled script", async () => {
    const mock = new RedisMock({ host: `lua-${randomUUID()}` });
    const backend = new EmbeddedBackend();
    for (let run = 0; run < 2; run++) {
      for (const [script, keys, args] of SCRIPTS) {
        expect(await backendReply(backend, script, keys, args), script).toEqual(
          await mockReply(mock, script, keys, args),
        );
      }
    }
    mock.disconnect();
    await backend.close();
  });

  it("fails a script that does not compile or raises, and keeps working after", async () => {
    const backend = new EmbeddedBackend();
    await expect(backend.command(["EVAL", "return (", "0"])).rejects.toThrow(/lua/i);
    await expect(backend.command(["EVAL", "error('boom')", "0"])).rejects.toThrow(/boom/);
    await expect(backend.command(["EVAL", "return redis.call('NOSUCH')", "0"])).rejects.toThrow();
    expect(await backend.command(["EVAL", "return 7", "0"])).toBe(7);
    await backend.close();
  });

  it("gives each run a fresh redis table: a script that wraps redis.call does not wrap it again next time", async () => {
    const backend = new EmbeddedBackend();
    const wrap =
      "local inner = redis.call; local depth = (redis.depth or 0) + 1; redis.depth = depth; " +
      "redis.call = function(...) return inner(...) end; return depth";
    for (let i = 0; i < 3; i++) expect(await backend.command(["EVAL", wrap, "0"])).toBe(1);
    await backend.close();
  });
});
