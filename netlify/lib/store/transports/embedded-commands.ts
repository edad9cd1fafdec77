/**
 * What the embedded store needs to know about Redis commands that ioredis-mock does not:
 * which ones write (the store saves after them), and the option words it only
 * understands in upper case.
 */

const READ_ONLY = new Set(
  (
    "GET MGET STRLEN EXISTS TYPE TTL PTTL HGET HMGET HGETALL HEXISTS HLEN HKEYS HVALS " +
    "ZRANGE ZREVRANGE ZRANGEBYSCORE ZREVRANGEBYSCORE ZRANGEBYLEX ZREVRANGEBYLEX ZCARD ZCOUNT ZSCORE " +
    "ZMSCORE ZRANK ZREVRANK ZLEXCOUNT SMEMBERS SISMEMBER SMISMEMBER SCARD LRANGE LLEN LINDEX " +
    "PING ECHO TIME DBSIZE KEYS SCAN INFO"
  ).split(" "),
);

export function isWrite(commands: string[][]): boolean {
  return commands.some(([name = ""]) => !READ_ONLY.has(name.toUpperCase()));
}

const OPTION_WORDS = new Set(
  "NX XX GT LT CH INCR EX PX EXAT PXAT KEEPTTL GET BYSCORE BYLEX REV LIMIT WITHSCORES WEIGHTS AGGREGATE SUM MIN MAX MATCH COUNT TYPE".split(
    " ",
  ),
);

/**
 * ioredis-mock only recognizes upper-case option words ("NX", "BYSCORE"), while the Upstash
 * client sends them lower-case. Upper-case them where options may appear, never in values.
 */
export function normalizeOptions(name: string, args: string[]): string[] {
  let start: number;
  switch (name) {
    case "ZADD": {
      const out = [...args];
      for (let i = 1; i < out.length && OPTION_WORDS.has(out[i]!.toUpperCase()); i++) out[i] = out[i]!.toUpperCase();
      return out;
    }
    case "SET":
    case "EXPIRE":
    case "PEXPIRE":
      start = 2;
      break;
    case "ZRANGE":
    case "ZREVRANGE":
    case "ZRANGEBYSCORE":
    case "ZREVRANGEBYSCORE":
    case "ZRANGEBYLEX":
    case "ZREVRANGEBYLEX":
      start = 3;
      break;
    case "ZINTERSTORE":
    case "ZUNIONSTORE":
      start = 2 + Number(args[1] ?? 0);
      break;
    case "SCAN":
      start = 1;
      break;
    default:
      return args;
  }
  const out = [...args];
  for (let i = start; i < out.length; i++) {
    const upper = out[i]!.toUpperCase();
    if (!OPTION_WORDS.has(upper)) continue;
    out[i] = upper;
    if (upper === "MATCH" || upper === "TYPE") i++;
  }
  return out;
}
