/**
 * The site's lead dialogs are native `<dialog>` elements already in the page, opened by
 * Invoker Commands (`<button command="show-modal" commandfor="quote-dialog">`). This is
 * the little DOM glue around them, shared by the always-on opener (src/scripts/dialogs.ts)
 * and the islands: no framework, so it costs nothing before interaction.
 */

export type DialogName = "quote" | "audit" | "assessment" | "booking" | "review";

/** The `<dialog>` element id for a dialog name ("quote" -> "quote-dialog"). */
export const dialogId = (name: DialogName): string => `${name}-dialog`;

/**
 * URL fragments that open a dialog (links like `/services/tree-removal#quote`, and the old
 * no-JS fragments `#book` and `#write-review`).
 */
export const DIALOG_FRAGMENTS: Readonly<Record<string, DialogName>> = {
  quote: "quote",
  audit: "audit",
  assessment: "assessment",
  book: "booking",
  booking: "booking",
  "write-review": "review",
  review: "review",
};

/** Trigger data attributes (camelCase dataset keys) -> the form field they preselect. */
const PRESET_FIELDS = { serviceType: "serviceType", urgency: "urgency", phase: "phase" } as const;

/**
 * Applies a trigger's preselection (`data-service-type`, `data-urgency`, `data-phase`) to
 * the dialog's form, and stamps the hidden inputs a no-JS post needs: when the form was
 * opened (the pipeline drops inhumanly fast submits) and an idempotency key (a double
 * submit stores one lead). Values the select does not offer are ignored.
 */
export function prepareDialog(dialog: HTMLDialogElement, data: Partial<Record<string, string>> = {}): void {
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
  stamp("_started", () => String(Date.now()));
  stamp("_idempotencyKey", () => globalThis.crypto?.randomUUID?.());
}

/** Opens a dialog by name (for code, e.g. a chat reply): same preselection as a trigger. */
export function openDialog(name: DialogName, data: Partial<Record<string, string>> = {}): boolean {
  const dialog = document.getElementById(dialogId(name));
  if (!(dialog instanceof HTMLDialogElement)) return false;
  prepareDialog(dialog, data);
  if (!dialog.open) dialog.showModal();
  return true;
}

/** Closes the dialog that contains `from` (an element inside it), or the named one. */
export function closeDialog(from: Element | DialogName | null | undefined): void {
  const dialog = typeof from === "string" ? document.getElementById(dialogId(from)) : from?.closest("dialog");
  if (dialog instanceof HTMLDialogElement && dialog.open) dialog.close();
}

/**
 * The one queue of the islands' forms. A form its island sends when script runs carries
 * this attribute (the review, which posts JSON only, and the chat message, which must not
 * leave the page); submitted before the island is in (no `data-hydrated` yet), the
 * always-on script holds the submit (`data-send`) and the island sends it once hydrated.
 */
export const ISLAND_SENDS = "data-island-sends";
const HELD = "data-send";

/** Holds a submit of a form its island sends, if that island is not in yet (true when held). */
export function holdSubmit(form: HTMLFormElement): boolean {
  if (!form.matches(`[${ISLAND_SENDS}]:not([data-hydrated])`)) return false;
  form.setAttribute(HELD, "");
  return true;
}

/** Marks the form as taken over by its island; true when a submit was held for it to send. */
export function takeOverForm(form: HTMLFormElement): boolean {
  form.setAttribute("data-hydrated", "");
  const held = form.hasAttribute(HELD);
  form.removeAttribute(HELD);
  return held;
}

/**
 * A React button's Invoker Command attributes. React renders unknown lowercase attributes
 * as they are (on the server and in the browser), but its types do not know these yet.
 */
export function invokerProps(name: DialogName, command: "show-modal" | "close" = "show-modal"): Record<string, string> {
  return { command, commandfor: dialogId(name), "aria-haspopup": "dialog" };
}
