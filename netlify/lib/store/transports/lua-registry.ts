/**
 * Script bookkeeping for the transports that are not Upstash. Upstash accepts the
 * `#!lua flags=allow-key-locking` shebang that @upstash/ratelimit puts on its scripts; Redis 7
 * rejects that flag and ioredis-mock cannot parse a shebang at all. So scripts are rewritten
 * on the way in, while the client keeps addressing them by the SHA-1 of the text it sent.
 */
import { createHash } from "node:crypto";

export const sha1 = (text: string) => createHash("sha1").update(text).digest("hex");

const SHEBANG = /^#!lua([^\n]*)(\n|$)/;

/**
 * Drops Upstash-only flags. keepOtherFlags: Redis understands the standard ones; the mock
 * understands none, so there the whole shebang becomes a comment (line numbers stay).
 */
export function portableScript(script: string, keepOtherFlags: boolean): string {
  const match = SHEBANG.exec(script);
  if (!match) return script;
  const flags =
    /flags=([^\s]*)/
      .exec(match[1] ?? "")?.[1]
      ?.split(",")
      .filter(Boolean) ?? [];
  const kept = flags.filter((f) => f !== "allow-key-locking");
  const head = keepOtherFlags && kept.length > 0 ? `#!lua flags=${kept.join(",")}` : `-- ${match[0].trimEnd()}`;
  return head + (match[2] ?? "") + script.slice(match[0].length);
}

interface Entry {
  /** Rewritten text actually run. */
  script: string;
  /** SHA-1 of the rewritten text (what the server caches). */
  sha: string;
}

/**
 * ioredis-mock hands Lua the nils inside a reply array as a JS-null userdata, where Redis gives false (so
 * `HMGET(...)[1] == false`, which @upstash/ratelimit relies on, never holds). This wraps
 * redis.call/pcall to rebuild such arrays as real tables with false. One line, so error line
 * numbers still match the original script.
 */
const MOCK_PRELUDE =
  "local __tl_call, __tl_pcall = redis.call, redis.pcall; " +
  "local function __tl_fix(v) if type(v) ~= 'userdata' then return v end " +
  "local ok, n = pcall(function() return #v end) if not ok then return v end " +
  "local t = {} for i = 1, n do local e = v[i] " +
  "if e == nil or (type(e) == 'userdata' and tostring(e) == 'null') then t[i] = false else t[i] = __tl_fix(e) end end return t end; " +
  "redis.call = function(...) return __tl_fix(__tl_call(...)) end; " +
  "redis.pcall = function(...) return __tl_fix(__tl_pcall(...)) end; ";

/** Maps the client's SHA-1 (of the original text) to the rewritten script. */
export class ScriptRegistry {
  private readonly bySha = new Map<string, Entry>();
  /** target "redis" keeps standard shebang flags; "mock" needs plain Lua plus the prelude. */
  constructor(private readonly target: "redis" | "mock") {}

  /** Registers a script text; returns the SHA the client will use for it. */
  register(original: string): { clientSha: string; entry: Entry } {
    const clientSha = sha1(original);
    let entry = this.bySha.get(clientSha);
    if (!entry) {
      const script =
        this.target === "redis" ? portableScript(original, true) : MOCK_PRELUDE + portableScript(original, false);
      entry = { script, sha: sha1(script) };
      this.bySha.set(clientSha, entry);
    }
    return { clientSha, entry };
  }

  lookup(clientSha: string): Entry | undefined {
    return this.bySha.get(clientSha.toLowerCase());
  }

  clear(): void {
    this.bySha.clear();
  }
}
