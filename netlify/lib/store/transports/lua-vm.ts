/**
 * EVAL for the embedded store, compiled once per script. ioredis-mock builds a new Lua state
 * for every EVAL, loads its libraries and compiles the script again (tens of milliseconds a
 * call on a busy machine, all on the event loop, and every request's rate limit is a script).
 * Here each distinct script gets one state, compiled on first use; a call sets KEYS, ARGV and
 * a fresh `redis` table, runs the compiled function and reads the reply exactly as the mock
 * does (same conversions, same error texts), so scripts behave as before, only faster.
 *
 * fengari is loaded from ioredis-mock's own dependencies, so both use the same copy.
 */
import { createRequire } from "node:module";

/* eslint-disable @typescript-eslint/no-explicit-any -- fengari ships no types */
const requireFromMock = createRequire(createRequire(import.meta.url).resolve("ioredis-mock"));
const { lua, lualib, lauxlib, to_luastring: toLuaString } = requireFromMock("fengari") as any;
const interop = requireFromMock("fengari-interop") as any;

/** A command as ioredis-mock implements it (synchronous, `this` = the mock). */
export type SyncCommand = (...args: unknown[]) => unknown;

/** The `redis` object scripts see, as the mock defines it: `call(pcall?, name, ...args)` underneath. */
const REDIS_OBJECT = `
  local redis = {}
  function repair(val)
    if val == nil then
      return false
    end
    return val
  end
  unpack = table.unpack
  redis.call = function(...)
      return repair(call(false, ...))
  end
  redis.pcall = function(...)
      return repair(call(true, ...))
  end
  return redis
`;

/** Scripts kept compiled; a store runs about a dozen distinct ones. */
const MAX_SCRIPTS = 64;

interface Compiled {
  L: any;
  redisObject: number;
  script: number;
}

function loadError(L: any): Error {
  return new Error(`Error trying to loading or executing lua code string in VM: ${lua.lua_tojsstring(L, -1)}`);
}

function getTopKeys(L: any): unknown[] {
  if (lua.lua_isnil(L, -1)) throw new Error("cannot get keys on nil");
  if (!lua.lua_istable(L, -1)) throw new Error("non-tables don't have keys!");
  lua.lua_pushnil(L);
  const keys: unknown[] = [];
  while (lua.lua_next(L, -2) !== 0) {
    keys.push(interop.tojs(L, -2));
    lua.lua_pop(L, 1);
  }
  return keys;
}

function isTopArray(L: any): boolean {
  try {
    return getTopKeys(L)
      .reverse()
      .every((v, i) => v === i + 1);
  } catch {
    return false;
  }
}

function topLength(L: any): number {
  lua.lua_len(L, -1);
  const length = lua.lua_tointeger(L, -1);
  lua.lua_pop(L, 1);
  return length;
}

function makeReturnValue(L: any): unknown {
  if (!isTopArray(L)) {
    const value = interop.tojs(L, -1);
    return Array.isArray(value) ? value.slice(1) : value;
  }
  const length = topLength(L);
  const table = interop.tojs(L, -1);
  const out: unknown[] = [];
  if (length === 0) {
    lua.lua_pop(L, 1);
    return out;
  }
  for (let i = 1; i <= length; i++) {
    interop.push(L, table.get(i));
    out.push(makeReturnValue(L));
  }
  lua.lua_pop(L, 1);
  return out;
}

function push(L: any, value: unknown): void {
  if (Array.isArray(value)) {
    lua.lua_newtable(L);
    const index = lua.lua_gettop(L);
    value.forEach((e, i) => {
      interop.push(L, i + 1);
      interop.push(L, e);
      lua.lua_settable(L, index);
    });
  } else if (value && typeof value === "object") {
    lua.lua_newtable(L);
    const index = lua.lua_gettop(L);
    for (const [field, v] of Object.entries(value)) {
      interop.push(L, field);
      push(L, v);
      lua.lua_settable(L, index);
    }
  } else {
    interop.push(L, value);
  }
}

function setGlobal(L: any, name: string, value: unknown[]): void {
  push(L, value);
  lua.lua_setglobal(L, toLuaString(name));
}

/** Loads a chunk and keeps it in the state's registry; returns its reference. */
function compile(L: any, code: string): number {
  if (lauxlib.luaL_loadstring(L, toLuaString(code)) !== lua.LUA_OK) {
    const error = loadError(L);
    lua.lua_pop(L, 1);
    throw error;
  }
  return lauxlib.luaL_ref(L, lua.LUA_REGISTRYINDEX);
}

export class LuaScripts {
  private readonly compiled = new Map<string, Compiled>();

  /** commands: the mock's synchronous commands by lower-case name, already bound to it. */
  constructor(private readonly commands: (name: string) => SyncCommand | undefined) {}

  /** EVAL script numkeys key... arg...: the reply as the mock's own EVAL gives it. */
  eval(code: string, numberOfKeys: string | number, args: string[]): unknown {
    const { L, redisObject, script } = this.compiledOf(code);
    const count = Number(numberOfKeys);
    setGlobal(L, "KEYS", args.slice(0, count));
    setGlobal(L, "ARGV", args.slice(count));
    lua.lua_rawgeti(L, lua.LUA_REGISTRYINDEX, redisObject);
    lua.lua_call(L, 0, 1);
    lua.lua_setglobal(L, toLuaString("redis"));
    const top = lua.lua_gettop(L);
    lua.lua_rawgeti(L, lua.LUA_REGISTRYINDEX, script);
    if (lua.lua_pcall(L, 0, lua.LUA_MULTRET, 0) !== lua.LUA_OK) {
      const error = loadError(L);
      lua.lua_settop(L, top);
      throw error;
    }
    // As the mock reads a reply: whatever is on top once the script returned.
    const returned = lua.lua_gettop(L) - top + 1;
    const reply = returned > 0 ? makeReturnValue(L) : undefined;
    lua.lua_settop(L, top);
    return reply;
  }

  close(): void {
    for (const { L } of this.compiled.values()) lua.lua_close(L);
    this.compiled.clear();
  }

  private compiledOf(code: string): Compiled {
    const hit = this.compiled.get(code);
    if (hit) return hit;
    if (this.compiled.size >= MAX_SCRIPTS) this.close();
    const L = lauxlib.luaL_newstate();
    lualib.luaL_openlibs(L);
    interop.luaopen_js(L);
    lua.lua_pushjsfunction(L, this.callFrom(L));
    lua.lua_setglobal(L, toLuaString("call"));
    let entry: Compiled;
    try {
      entry = { L, redisObject: compile(L, REDIS_OBJECT), script: compile(L, code) };
    } catch (error) {
      lua.lua_close(L);
      throw error;
    }
    this.compiled.set(code, entry);
    return entry;
  }

  /** `call(pcall?, name, ...args)` as the mock's: errors raise, or come back as a table under pcall. */
  private callFrom(L: any) {
    return () => {
      const top = lua.lua_gettop(L);
      const raw: unknown[] = [];
      for (let i = 1; i <= top; i++) raw.push(interop.tojs(L, i));
      const [returnError, name, ...rest] = raw;
      let result: unknown;
      try {
        const command = this.commands(String(name).toLowerCase());
        if (!command) throw new TypeError(`Unsupported command: ${JSON.stringify(name)}`);
        result = command(...rest);
        if (String(name).toLowerCase() === "hgetall")
          result = ([] as unknown[]).concat(...Object.entries(result as object));
      } catch (error) {
        if (!returnError) throw error;
        interop.push(L, ["error", String(error)]);
        return 1;
      }
      if (!result && result !== 0) return 0;
      if (Array.isArray(result)) {
        result.unshift(null);
        (result as unknown as Record<symbol, unknown>)[Symbol.for("__len")] = function (this: unknown[]) {
          return this.length - 1;
        };
      }
      interop.push(L, result);
      return 1;
    };
  }
}
