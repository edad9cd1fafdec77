/**
 * `client:intent`: hydrate an island only when the visitor shows intent to use it, i.e.
 * the first pointerdown, mouse pointerenter, focusin or touchstart on a `[data-dialog]`
 * trigger. Until then the page runs no framework code at all. A click that lands before
 * the island is ready is cancelled (the `#quote` fragment would otherwise jump to the
 * no-JS form) and queued, so the island opens the right dialog the moment it mounts.
 * This file is inlined into every page: keep it tiny (< 1 KB minified).
 */
import type { ClientDirective } from "astro";
import { DIALOG_HASHES, intentState, type DialogRequest } from "./intent-queue";

const TRIGGER = "[data-dialog]";
const INTENT_EVENTS = ["pointerdown", "pointerenter", "focusin", "touchstart"];

const intent: ClientDirective = (load) => {
  const state = intentState();
  const doc = document;
  let started = false;

  const hydrate = async () => {
    if (started) return;
    started = true;
    for (const type of INTENT_EVENTS) doc.removeEventListener(type, onIntent, true);
    await (await load())();
  };

  const send = (request: DialogRequest) => {
    if (state.open) state.open(request);
    else {
      state.q.push(request);
      hydrate();
    }
  };

  function onIntent(event: Event) {
    // Touch and pen also fire pointerenter, right before pointerdown; only a hovering mouse is early intent.
    if (event.type == "pointerenter" && (event as PointerEvent).pointerType != "mouse") return;
    if ((event.target as Element).closest?.(TRIGGER)) hydrate();
  }

  doc.addEventListener(
    "click",
    (event) => {
      const trigger = (event.target as Element).closest?.<HTMLElement>(TRIGGER);
      // Once mounted the island's own delegated listener owns clicks; modified clicks keep
      // their browser meaning (new tab shows the fallback form there).
      if (!trigger || state.open || event.button || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
      event.preventDefault();
      send({ ...trigger.dataset });
    },
    true,
  );
  for (const type of INTENT_EVENTS) doc.addEventListener(type, onIntent, { capture: true, passive: true });

  // A fragment link or a direct visit to /#quote asks for the dialog rather than the no-JS form.
  const fromHash = () => {
    const name = location.hash.slice(1);
    // Business dialogs need their trigger's data (which business, its services).
    const trigger = name && doc.querySelector<HTMLElement>(`${TRIGGER}[href="#${CSS.escape(name)}"][data-business-id]`);
    if (!trigger && !DIALOG_HASHES.includes(name)) return;
    history.replaceState(history.state, "", location.pathname + location.search);
    send(trigger ? { ...trigger.dataset } : { dialog: name, fromHash: "1" });
  };
  addEventListener("hashchange", fromHash);
  fromHash();
};

export default intent;
