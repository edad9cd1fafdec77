/**
 * The business page's hours, live: marks today's row and fills in "Open now" / "Closed now"
 * / "Open 24/7" from the markup BusinessHours.tsx writes, on the business's own clock, and
 * keeps them right while the page stays open (they change on the minute).
 */
import { OPEN_TEXT, openState } from "../lib/hours.ts";
import type { BusinessHours } from "../lib/schemas/business.ts";

export function showHours(root: ParentNode = document, now = Date.now()): void {
  for (const table of root.querySelectorAll<HTMLElement>("[data-business-hours]")) {
    let hours: BusinessHours;
    try {
      hours = JSON.parse(table.dataset.businessHours ?? "{}") as BusinessHours;
    } catch {
      continue;
    }
    const state = openState(hours, table.dataset.timeZone, now);
    for (const row of table.querySelectorAll<HTMLElement>("[data-day]")) {
      const today = row.dataset.day === state.today;
      row.toggleAttribute("data-today", today);
      const label = row.querySelector("[data-today-label]");
      if (label) label.textContent = today ? " (today)" : "";
    }
    const section = table.closest("section") ?? root;
    for (const status of section.querySelectorAll<HTMLElement>("[data-open-status]")) {
      const text = state.always ? OPEN_TEXT.always : state.open ? OPEN_TEXT.open : OPEN_TEXT.closed;
      if (status.textContent !== text) status.textContent = text;
      status.toggleAttribute("data-closed", !state.open);
    }
  }
}

showHours();
window.setInterval(() => showHours(), 60_000);
