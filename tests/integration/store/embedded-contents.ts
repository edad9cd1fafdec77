/** Everything an embedded backend holds, read through its commands, in a form to compare. */
import type { EmbeddedBackend } from "../../../netlify/lib/store/transports/embedded.ts";

export interface Held {
  type: string;
  value: unknown;
  /** Absolute expiry in ms, -1 without one. */
  expiresAt: number;
}

export async function contentsOf(backend: EmbeddedBackend): Promise<Record<string, Held>> {
  const keys = ((await backend.command(["KEYS", "*"])) as string[]).sort();
  const out: Record<string, Held> = {};
  for (const key of keys) {
    const type = String(await backend.command(["TYPE", key]));
    const value =
      type === "string"
        ? await backend.command(["GET", key])
        : type === "hash"
          ? await backend.command(["HGETALL", key])
          : type === "set"
            ? ((await backend.command(["SMEMBERS", key])) as string[]).sort()
            : type === "zset"
              ? await backend.command(["ZRANGE", key, "0", "-1", "WITHSCORES"])
              : await backend.command(["LRANGE", key, "0", "-1"]);
    out[key] = { type, value, expiresAt: Number(await backend.command(["PEXPIRETIME", key])) };
  }
  return out;
}
