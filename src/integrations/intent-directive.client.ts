/**
 * `client:intent`: hydrate a dialog's island only when the visitor shows intent to use
 * it: the first pointerdown, mouse pointerenter, focusin or touchstart on one of its
 * triggers (`[commandfor="<dialog id>"]`) or inside the dialog, or the dialog opening.
 * Until then the page runs no framework code at all. The dialog itself opens without
 * this (Invoker Commands), so there is no click to queue: hydration only adds behaviour
 * to a form that already works. This file is inlined into every page: keep it tiny.
 */
import type { ClientDirective } from "astro";

const INTENT_EVENTS = ["pointerdown", "pointerenter", "focusin", "touchstart"];

const intent: ClientDirective = (load, _options, el) => {
  const dialog = el.closest("dialog");
  const doc = document;
  const trigger = dialog ? `[commandfor="${dialog.id}"]` : "";
  let started = false;

  const hydrate = async () => {
    if (started) return;
    started = true;
    for (const type of INTENT_EVENTS) doc.removeEventListener(type, onIntent, true);
    await (await load())();
  };

  function onIntent(event: Event) {
    // Touch and pen also fire pointerenter, right before pointerdown; only a hovering mouse is early intent.
    if (event.type == "pointerenter" && (event as PointerEvent).pointerType != "mouse") return;
    const target = event.target as Element;
    if ((trigger && target.closest?.(trigger)) || dialog?.contains(target)) hydrate();
  }

  for (const type of INTENT_EVENTS) doc.addEventListener(type, onIntent, { capture: true, passive: true });
  dialog?.addEventListener("toggle", hydrate);
  if (dialog?.open) hydrate();
};

export default intent;
