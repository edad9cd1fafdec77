/**
 * The lead dialogs' only always-on script (no framework, a few hundred bytes). The
 * dialogs open without it through Invoker Commands; this adds what the platform does not:
 * - the trigger's preselection (data-service-type / data-urgency / data-phase) and the
 *   hidden `_started` / `_idempotencyKey`, applied on the dialog's `command` event, i.e.
 *   before it shows;
 * - the same opening for browsers without Invoker Commands (iOS before 26.2), feature-detected;
 * - focus back on the trigger when it closes (Safari does not focus a tapped button), and
 *   into the first field when opened with a mouse or keyboard (a phone keeps its keyboard
 *   down until the visitor taps a field);
 * - `/page#quote` style links open their dialog;
 * - the chat panel (a manual popover) before its island is in: Escape closes it, Enter sends;
 * - the one queue: a form its island sends (review, chat) holds a submit until the island is in.
 *
 * It imports nothing at run time, so Astro inlines it into the page: no request stands
 * between the HTML and first paint. The DOM names it shares with src/lib/dialogs.ts and the
 * forms come in as types only, so a rename there fails the type check here.
 */
import type { FRAGMENTS_ATTRIBUTE, HELD_SUBMIT, HYDRATED, ISLAND_SENDS } from "../lib/dialogs.ts";
import type { IDEMPOTENCY_FIELD, STARTED_FIELD } from "../lib/forms/markup.ts";

const FRAGMENTS: typeof FRAGMENTS_ATTRIBUTE = "data-fragments";
const SENDS: typeof ISLAND_SENDS = "data-island-sends";
const HELD: typeof HELD_SUBMIT = "data-send";
const TAKEN: typeof HYDRATED = "data-hydrated";
const STARTED: typeof STARTED_FIELD = "_started";
const IDEMPOTENCY: typeof IDEMPOTENCY_FIELD = "_idempotencyKey";

/** Trigger data attributes (camelCase dataset keys) -> the form field they preselect. */
const PRESET_FIELDS = { serviceType: "serviceType", urgency: "urgency", phase: "phase" } as const;

/**
 * Applies a trigger's preselection (`data-service-type`, `data-urgency`, `data-phase`) to
 * the dialog's form, and stamps the hidden inputs a no-JS post needs: when the form was
 * opened (the pipeline drops inhumanly fast submits) and an idempotency key (a double
 * submit stores one lead). Values the select does not offer are ignored.
 */
function prepareDialog(dialog: HTMLDialogElement, data: Partial<Record<string, string>> = {}): void {
  const form = dialog.querySelector("form");
  if (!form) return;
  for (const [key, name] of Object.entries(PRESET_FIELDS)) {
    const value = data[key]?.trim();
    const control = form.elements.namedItem(name);
    if (!value || !(control instanceof HTMLSelectElement)) continue;
    if ([...control.options].some((o) => o.value === value)) control.value = value;
  }
  const stamp = (name: string, value: () => string | undefined) => {
    const input = form.elements.namedItem(name);
    if (input instanceof HTMLInputElement && !input.value) input.value = value() ?? "";
  };
  // When the page was shown, as the islands send it (leads/submit.ts).
  stamp(STARTED, () => String(Math.round(performance.timeOrigin || Date.now())));
  stamp(IDEMPOTENCY, () => globalThis.crypto?.randomUUID?.());
}

type CommandEvent = Event & { command?: string; source?: Element | null };

const FIELD = "form :is(input:not([type=hidden]):not([tabindex='-1']),select,textarea)";
const returnTo = new WeakMap<HTMLDialogElement, HTMLElement>();
// Created once: its toggle handler runs right after a tap's opening frame.
const finePointer = matchMedia("(pointer: fine)");

function show(dialog: HTMLDialogElement, trigger: HTMLElement | null) {
  prepareDialog(dialog, trigger?.dataset);
  if (trigger) returnTo.set(dialog, trigger);
  if (!dialog.open) dialog.showModal();
}

for (const dialog of document.querySelectorAll<HTMLDialogElement>("dialog.lead-dialog")) {
  dialog.addEventListener("command", (event: CommandEvent) => {
    if (event.command !== "show-modal") return;
    prepareDialog(dialog, (event.source as HTMLElement | null)?.dataset);
    if (event.source instanceof HTMLElement) returnTo.set(dialog, event.source);
  });
  dialog.addEventListener("toggle", (event) => {
    if ((event as ToggleEvent).newState === "open" && finePointer.matches)
      dialog.querySelector<HTMLElement>(FIELD)?.focus();
  });
  dialog.addEventListener("close", () => {
    const trigger = returnTo.get(dialog);
    const active = document.activeElement;
    if (trigger?.isConnected && (!active || active === document.body || dialog.contains(active)))
      trigger.focus({ preventScroll: true });
  });
}

if (!("command" in HTMLButtonElement.prototype)) {
  document.addEventListener("click", (event) => {
    const button = (event.target as Element | null)?.closest?.<HTMLButtonElement>("button[commandfor]");
    const dialog = button ? document.getElementById(button.getAttribute("commandfor") ?? "") : null;
    if (!button || !(dialog instanceof HTMLDialogElement)) return;
    const command = button.getAttribute("command");
    if (command === "show-modal") show(dialog, button);
    else if (command === "close") dialog.close();
  });
}

function fromHash() {
  const fragment = location.hash.slice(1);
  const dialog = fragment && document.querySelector(`dialog[${FRAGMENTS}~="${CSS.escape(fragment)}"]`);
  if (!(dialog instanceof HTMLDialogElement)) return;
  history.replaceState(history.state, "", location.pathname + location.search);
  show(dialog, null);
}
addEventListener("hashchange", fromHash);
fromHash();

// A manual popover has no close request, and its island adds Escape and Enter-sends; until
// that island is in (its form not yet taken over), they work from here.
for (const box of document.querySelectorAll<HTMLElement>("[popover=manual]")) {
  box.addEventListener("keydown", (event) => {
    if (box.querySelector(`form[${TAKEN}]`)) return;
    const target = event.target as HTMLTextAreaElement;
    if (event.key === "Escape") {
      box.hidePopover();
      document.querySelector<HTMLElement>(`[popovertarget="${box.id}"]`)?.focus();
    } else if (
      event.key === "Enter" &&
      !event.shiftKey &&
      !event.isComposing &&
      target.matches("textarea[enterkeyhint=send]") &&
      target.form
    ) {
      // Blank text fails the box's `required`, so nothing is sent.
      event.preventDefault();
      target.form.requestSubmit();
    }
  });
}

document.addEventListener(
  "submit",
  (event) => {
    // A form its island sends, submitted before that island is in: held for it.
    const form = event.target as HTMLFormElement;
    if (!form.matches(`[${SENDS}]:not([${TAKEN}])`)) return;
    form.setAttribute(HELD, "");
    event.preventDefault();
  },
  true,
);
