/**
 * @upstash/redis JSON-parses every reply it can ("42" -> 42, '{"a":1}' -> object). These
 * helpers accept either form so the repositories read the same on every transport.
 */

export function asString(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  if (typeof value === "string") return value;
  if (typeof value === "object") return JSON.stringify(value);
  return String(value);
}

export function asNumber(value: unknown, fallback = 0): number {
  if (value === null || value === undefined || value === "") return fallback;
  const n = typeof value === "number" ? value : Number(value);
  return Number.isFinite(n) ? n : fallback;
}

export function asJson<T>(value: unknown): T | null {
  if (value === null || value === undefined) return null;
  if (typeof value === "string") {
    try {
      return JSON.parse(value) as T;
    } catch {
      return null;
    }
  }
  return value as T;
}

/** Flat [member, score, member, score...] into pairs. */
export function pairs(flat: unknown): [string, number][] {
  const list = Array.isArray(flat) ? flat : [];
  const out: [string, number][] = [];
  for (let i = 0; i + 1 < list.length; i += 2) out.push([asString(list[i]) ?? "", asNumber(list[i + 1])]);
  return out;
}
