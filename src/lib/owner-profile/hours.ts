/** The weekly hours as the profile form shows them (one opening a day) and as they are stored. */
import { clockMinutes } from "../hours.ts";
import { WEEKDAYS } from "../options.ts";
import type { BusinessHours } from "../schemas/business.ts";

/** How a day is set: its hours, closed all day, or open around the clock. */
export const DAY_MODES = ["open", "closed", "24h"] as const;
export type DayMode = (typeof DAY_MODES)[number];
/** Each mode as the forms' radio buttons say it. */
export const DAY_MODE_LABELS: Record<DayMode, string> = { open: "Open", closed: "Closed", "24h": "24 hours" };

/** "07:00" (an <input type=time> value) -> "7:00 AM"; null when it is not HH:MM. */
export function to12h(value: string): string | null {
  const m = /^([01]\d|2[0-3]):([0-5]\d)(?::\d{2})?$/.exec(value.trim());
  if (!m) return null;
  const h = Number(m[1]);
  return `${h % 12 === 0 ? 12 : h % 12}:${m[2]} ${h < 12 ? "AM" : "PM"}`;
}

/** "7:00 AM" -> "07:00" for an <input type=time>; "" when it is not a clock time. */
export function to24hValue(text: string): string {
  const minutes = clockMinutes(text);
  if (minutes === null) return "";
  return `${String(Math.floor(minutes / 60)).padStart(2, "0")}:${String(minutes % 60).padStart(2, "0")}`;
}

/** A stored day's text as the form's fields; a free-text day that does not parse shows as open with no times. */
export function dayFields(text: string | undefined): { mode: DayMode; open: string; close: string } {
  const t = (text ?? "").trim();
  if (!t || /^closed$/i.test(t)) return { mode: "closed", open: "", close: "" };
  if (/^(open )?24 hours$|^24\/7$/i.test(t)) return { mode: "24h", open: "", close: "" };
  const [a = "", b = ""] = t.split(/\s*,\s*/)[0]!.split(/\s*[-–]\s*/);
  return { mode: "open", open: to24hValue(a), close: to24hValue(b) };
}

/**
 * The week to store: a day the owner left as the form showed it keeps its stored text. The form
 * has one opening a day, so a day with a break ("7:00 AM - 12:00 PM, 1:00 PM - 5:00 PM") must not
 * lose its afternoon to a save that did not touch it.
 */
export function keepUntouchedDays(
  stored: BusinessHours,
  posted: Readonly<Record<string, { mode?: unknown; open?: unknown; close?: unknown } | undefined>>,
  next: BusinessHours,
): BusinessHours {
  const week: BusinessHours = { ...next };
  for (const d of WEEKDAYS) {
    const shown = dayFields(stored[d]);
    const sent = posted[d];
    const hhmm = (v: unknown) => (typeof v === "string" ? v.slice(0, 5) : "");
    const untouched =
      sent?.mode === shown.mode &&
      (shown.mode !== "open" || (hhmm(sent.open) === shown.open && hhmm(sent.close) === shown.close));
    if (!untouched) continue;
    if (stored[d]) week[d] = stored[d];
    else delete week[d];
  }
  return week;
}
