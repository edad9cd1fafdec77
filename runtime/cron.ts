/**
 * The next time a cron expression fires, for running Netlify scheduled functions locally:
 * five fields (minute hour day-of-month month day-of-week) with `*`, lists, ranges and steps,
 * or Netlify's shorthands (@hourly, @daily, @weekly, @monthly, @yearly), in UTC as on Netlify.
 */
const SHORTHANDS: Record<string, string> = {
  "@yearly": "0 0 1 1 *",
  "@annually": "0 0 1 1 *",
  "@monthly": "0 0 1 * *",
  "@weekly": "0 0 * * 0",
  "@daily": "0 0 * * *",
  "@midnight": "0 0 * * *",
  "@hourly": "0 * * * *",
};

const FIELDS = [
  { min: 0, max: 59 },
  { min: 0, max: 23 },
  { min: 1, max: 31 },
  { min: 1, max: 12 },
  { min: 0, max: 7 },
] as const;

function parseField(text: string, { min, max }: { min: number; max: number }): Set<number> {
  const values = new Set<number>();
  for (const part of text.split(",")) {
    const [range = "", stepText] = part.split("/");
    const step = stepText === undefined ? 1 : Number(stepText);
    const [from, last] = range === "*" ? [min, max] : range.split("-").map(Number);
    // "5" is one value, "5/10" runs from 5 to the end.
    const to = last ?? (stepText === undefined ? from! : max);
    if (![from, to, step].every(Number.isInteger) || from! < min || to > max || from! > to || step < 1) {
      throw new Error(`bad cron field "${text}"`);
    }
    for (let v = from!; v <= to; v += step) values.add(v);
  }
  return values;
}

/** The first minute strictly after `after` that `expression` matches (UTC). */
export function nextRun(expression: string, after: Date): Date {
  const fields = (SHORTHANDS[expression.trim()] ?? expression).trim().split(/\s+/);
  if (fields.length !== 5) throw new Error(`cron expression "${expression}" needs five fields`);
  const [minutes, hours, days, months, weekdays] = fields.map((f, i) => parseField(f, FIELDS[i]!));
  if (weekdays!.has(7)) weekdays!.add(0);
  // Like cron: when both day fields are restricted, either may match.
  const anyDay = fields[2] === "*" || fields[4] === "*";
  const t = new Date(after.getTime());
  t.setUTCSeconds(0, 0);
  t.setUTCMinutes(t.getUTCMinutes() + 1);
  // Four years of minutes covers every valid expression (29 February included).
  for (let i = 0; i < 4 * 366 * 24 * 60; i++) {
    const dayOk = anyDay
      ? days!.has(t.getUTCDate()) && weekdays!.has(t.getUTCDay())
      : days!.has(t.getUTCDate()) || weekdays!.has(t.getUTCDay());
    if (months!.has(t.getUTCMonth() + 1) && dayOk && hours!.has(t.getUTCHours()) && minutes!.has(t.getUTCMinutes())) {
      return t;
    }
    t.setUTCMinutes(t.getUTCMinutes() + 1);
  }
  throw new Error(`cron expression "${expression}" never fires`);
}
