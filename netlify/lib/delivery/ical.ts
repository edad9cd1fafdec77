/**
 * iCalendar text (RFC 5545) for accepted jobs: a business's private feed and a homeowner's
 * `.ics` download. Lines end in CRLF and are folded at 75 octets (never inside a UTF-8
 * character); TEXT values escape backslashes, semicolons, commas and newlines. Timed events are
 * written in UTC (the job's local window already converted, DST included: job-window.ts), so no
 * VTIMEZONE is needed; all-day events are DATE values.
 */
import type { JobWindow } from "./job-window.ts";

const DAY_MS = 24 * 60 * 60_000;

export interface CalendarEvent {
  /** Globally unique and stable for this job in this calendar, so a refresh updates it in place. */
  uid: string;
  window: JobWindow;
  summary: string;
  description?: string;
  location?: string;
  url?: string;
}

export interface CalendarInput {
  /** The calendar's name, as subscribing apps show it. */
  name: string;
  events: readonly CalendarEvent[];
  /** When this text is made (DTSTAMP), ms. */
  now: number;
}

/** A TEXT value escaped (RFC 5545 3.3.11). */
export function escapeText(value: string): string {
  return value
    .replace(/\\/g, "\\\\")
    .replace(/;/g, "\\;")
    .replace(/,/g, "\\,")
    .replace(/\r\n|\r|\n/g, "\\n");
}

/** One content line folded at 75 octets (RFC 5545 3.1): each further line starts with a space. */
export function foldLine(line: string): string {
  const out: string[] = [];
  let current = "";
  let octets = 0;
  for (const ch of line) {
    const size = Buffer.byteLength(ch, "utf8");
    // The first line holds 75 octets; each continuation holds 74 after its leading space.
    if (octets + size > (out.length === 0 ? 75 : 74)) {
      out.push(current);
      current = "";
      octets = 0;
    }
    current += ch;
    octets += size;
  }
  out.push(current);
  return out.join("\r\n ");
}

const pad = (n: number, width = 2) => String(n).padStart(width, "0");

/** A UTC DATE-TIME: 20261203T150000Z. */
export function utcStamp(ms: number): string {
  const d = new Date(ms);
  return (
    `${d.getUTCFullYear()}${pad(d.getUTCMonth() + 1)}${pad(d.getUTCDate())}` +
    `T${pad(d.getUTCHours())}${pad(d.getUTCMinutes())}${pad(d.getUTCSeconds())}Z`
  );
}

/** A DATE from a day number: 20261203. */
export function dateStamp(day: number): string {
  const d = new Date(day * DAY_MS);
  return `${d.getUTCFullYear()}${pad(d.getUTCMonth() + 1)}${pad(d.getUTCDate())}`;
}

/** Control characters other than the newlines escapeText handles have no place in a TEXT value. */
const clean = (value: string) =>
  [...value].map((ch) => (/[\n\r]/.test(ch) || (ch > "\u001f" && ch !== "\u007f") ? ch : " ")).join("");

function eventLines(event: CalendarEvent, now: number): string[] {
  const w = event.window;
  const when =
    w.kind === "timed"
      ? [`DTSTART:${utcStamp(w.start)}`, ...(w.end !== undefined ? [`DTEND:${utcStamp(w.end)}`] : [])]
      : [`DTSTART;VALUE=DATE:${dateStamp(w.first)}`, `DTEND;VALUE=DATE:${dateStamp(w.last + 1)}`];
  return [
    "BEGIN:VEVENT",
    `UID:${clean(event.uid)}`,
    `DTSTAMP:${utcStamp(now)}`,
    ...when,
    `SUMMARY:${escapeText(clean(event.summary))}`,
    ...(event.description ? [`DESCRIPTION:${escapeText(clean(event.description))}`] : []),
    ...(event.location ? [`LOCATION:${escapeText(clean(event.location))}`] : []),
    ...(event.url ? [`URL:${clean(event.url)}`] : []),
    "STATUS:CONFIRMED",
    // A job blocks the time, and an all-day one marks the days without blocking them.
    `TRANSP:${w.kind === "timed" ? "OPAQUE" : "TRANSPARENT"}`,
    "END:VEVENT",
  ];
}

/** The whole calendar as iCalendar text, CRLF-terminated and folded. */
export function icsCalendar({ name, events, now }: CalendarInput): string {
  const lines = [
    "BEGIN:VCALENDAR",
    "VERSION:2.0",
    "PRODID:-//Treeline//Accepted jobs//EN",
    "CALSCALE:GREGORIAN",
    "METHOD:PUBLISH",
    `X-WR-CALNAME:${escapeText(clean(name))}`,
    ...events.flatMap((e) => eventLines(e, now)),
    "END:VCALENDAR",
  ];
  return lines.map(foldLine).join("\r\n") + "\r\n";
}

/** The media type both answers carry. */
export const ICS_CONTENT_TYPE = "text/calendar; charset=utf-8";
