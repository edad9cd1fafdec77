/**
 * The site's lead dialogs are native `<dialog>` elements already in the page, opened by
 * Invoker Commands (`<button command="show-modal" commandfor="quote-dialog">`). This is
 * the little DOM glue the pages and islands share. The always-on opener
 * (src/scripts/dialogs.ts) imports nothing at run time, so Astro inlines it into each page
 * (no request before first paint); it meets this module through the DOM names below, which
 * it takes as types, so a renamed attribute fails the type check.
 */

export type DialogName = "quote" | "audit" | "assessment" | "booking" | "review";

/** The `<dialog>` element id for a dialog name ("quote" -> "quote-dialog"). */
export const dialogId = (name: DialogName): string => `${name}-dialog`;

/**
 * URL fragments that open a dialog (links like `/services/tree-removal#quote`, and the old
 * no-JS fragments `#book` and `#write-review`). LeadDialog.astro writes each dialog's
 * fragments into its `data-fragments`, where the opener looks them up.
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

/** Closes the dialog that contains `from` (an element inside it), or the named one. */
export function closeDialog(from: Element | DialogName | null | undefined): void {
  const dialog = typeof from === "string" ? document.getElementById(dialogId(from)) : from?.closest("dialog");
  if (dialog instanceof HTMLDialogElement && dialog.open) dialog.close();
}

/**
 * The one queue of the islands' forms. A form its island sends when script runs carries
 * this attribute (the review, which the island posts as JSON, and the chat message, which
 * must not leave the page); submitted before the island is in (no HYDRATED yet), the always-on
 * script holds the submit (HELD_SUBMIT) and the island sends it once hydrated.
 */
export const ISLAND_SENDS = "data-island-sends";
/** Set by the opener on such a form when it held a submit for the island. */
export const HELD_SUBMIT = "data-send";
/** Set on a form once its island has taken it over. */
export const HYDRATED = "data-hydrated";

/** Dialog fragments as the opener finds them: `dialog[data-fragments~="book"]`. */
export const FRAGMENTS_ATTRIBUTE = "data-fragments";

/** The fragments (space-separated) that open the named dialog, for its `data-fragments`. */
export const fragmentsOf = (name: DialogName): string =>
  Object.entries(DIALOG_FRAGMENTS)
    .filter(([, dialog]) => dialog === name)
    .map(([fragment]) => fragment)
    .join(" ");

/** Marks the form as taken over by its island; true when a submit was held for it to send. */
export function takeOverForm(form: HTMLFormElement): boolean {
  form.setAttribute(HYDRATED, "");
  const held = form.hasAttribute(HELD_SUBMIT);
  form.removeAttribute(HELD_SUBMIT);
  return held;
}

/**
 * A React button's Invoker Command attributes. React renders unknown lowercase attributes
 * as they are (on the server and in the browser), but its types do not know these yet.
 */
export function invokerProps(name: DialogName, command: "show-modal" | "close" = "show-modal"): Record<string, string> {
  return { command, commandfor: dialogId(name), "aria-haspopup": "dialog" };
}
