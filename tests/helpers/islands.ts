/**
 * Shared plumbing for the island component tests (happy-dom + Testing Library): cleanup
 * between tests (vitest runs without globals, so Testing Library cannot register it itself),
 * the site's toast region as the visitor reads it, and small readers for what assistive tech
 * announces (a field's description, its invalid state).
 */
import { cleanup, configure, screen, within } from "@testing-library/react";
import { afterEach, vi } from "vitest";
import { $toasts } from "../../src/lib/stores/dialogs.ts";

// findBy*/waitFor give up after 1 s by default; a shared, busy test machine can take longer
// to get there. Patience, not a timing assertion: a passing wait returns as soon as it holds.
configure({ asyncUtilTimeout: 5_000 });

afterEach(() => {
  cleanup();
  for (const frame of document.querySelectorAll("[data-test-frame]")) frame.remove();
  $toasts.set([]);
  sessionStorage.clear();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  vi.useRealTimers();
});

/**
 * Fake timers that Testing Library can live with: its async wrapper and waitFor wait on
 * timers of their own and only drive jest's fake clock, so they are handed vitest's.
 */
export function fakeClock(): void {
  vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "setInterval", "clearInterval", "Date"] });
  vi.stubGlobal("jest", { advanceTimersByTime: (ms: number) => vi.advanceTimersByTime(ms) });
}

/** The toasts on screen (Radix renders each as a list item in the "Notifications (F8)" region). */
export function toasts(): HTMLElement[] {
  const region = document.getElementById("notifications");
  return region ? within(region).queryAllByRole("listitem") : [];
}

/** The one toast on screen, failing when there is none or more than one (spec: one at a time). */
export function theToast(): HTMLElement {
  const all = toasts();
  if (all.length !== 1) throw new Error(`expected one toast, found ${all.length}`);
  return all[0]!;
}

/** The text a control's aria-describedby points at, as a screen reader reads it after the name. */
export function description(el: Element): string {
  return (el.getAttribute("aria-describedby") ?? "")
    .split(/\s+/)
    .filter(Boolean)
    .map((id) => document.getElementById(id)?.textContent?.trim() ?? "")
    .join(" ");
}

export const isInvalid = (el: Element) => el.getAttribute("aria-invalid") === "true";

/** A `<dialog>` frame like LeadDialog.astro's, open, with a box for the island inside it. */
export function dialogFrame(id: string): { dialog: HTMLDialogElement; container: HTMLElement } {
  const dialog = document.createElement("dialog");
  dialog.id = id;
  dialog.dataset.testFrame = "";
  dialog.setAttribute("aria-labelledby", `${id}-title`);
  dialog.setAttribute("aria-describedby", `${id}-description`);
  const container = document.createElement("div");
  dialog.append(container);
  document.body.append(dialog);
  dialog.showModal();
  return { dialog, container };
}

export { screen, within };
