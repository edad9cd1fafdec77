/**
 * `client:intent`: an island inside a `<dialog>` or a `[popover]` (the lead dialogs, the
 * chat panel) stays server-rendered HTML until the visitor reaches for it: the first
 * pointerdown, mouse pointerenter, focusin or touchstart on one of the box's invokers
 * (`[commandfor]` / `[popovertarget]` naming it) or inside it, or the box opening by any
 * means (`toggle`). Until then the page runs no framework code at all. The box opens
 * without this (Invoker Commands, popovers), so hydration only adds behaviour to markup
 * that already works, and it may wait: it starts once the page is idle after the next
 * frame, so the tap that opens a box gets its frame first and the island's download and
 * start-up never delay it.
 * An invoker's `data-restore` names a sessionStorage key; when this tab has it (a chat
 * left open on the previous page), the island hydrates once the page is idle.
 * Inlined into every page: keep it tiny.
 */
import type { ClientDirective } from "astro";

const INTENT_EVENTS = ["pointerdown", "pointerenter", "focusin", "touchstart"];

/** The first idle time, or 200 ms at most (a page that keeps rendering may never be idle; Safari has no idle callback). */
const idle = (run: () => void) => ("requestIdleCallback" in self ? requestIdleCallback(run, { timeout: 200 }) : setTimeout(run));

const intent: ClientDirective = (load, _options, el) => {
  const box = el.closest<HTMLElement>("dialog,[popover]");
  const doc = document;
  let started = false;

  const hydrate = () => {
    if (started) return;
    started = true;
    for (const type of INTENT_EVENTS) doc.removeEventListener(type, onIntent, true);
    // After the frame that shows the box, behind whatever the visitor does next.
    requestAnimationFrame(() => idle(async () => (await load())()));
  };
  if (!box) return hydrate();
  const invokers = `[commandfor="${box.id}"],[popovertarget="${box.id}"]`;

  function onIntent(event: Event) {
    // Touch and pen also fire pointerenter, right before pointerdown; only a hovering mouse is early intent.
    if (event.type == "pointerenter" && (event as PointerEvent).pointerType != "mouse") return;
    const target = event.target as Element;
    if (target.closest?.(invokers) || box!.contains(target)) hydrate();
  }

  for (const type of INTENT_EVENTS) doc.addEventListener(type, onIntent, { capture: true, passive: true });
  box.addEventListener("toggle", hydrate);
  if ((box as HTMLDialogElement).open) hydrate();
  try {
    const key = doc.querySelector<HTMLElement>(`[popovertarget="${box.id}"][data-restore]`)?.dataset.restore;
    if (key && sessionStorage.getItem(key)) idle(hydrate);
  } catch {
    // Storage can be blocked (privacy modes); the invoker still works on tap.
  }
};

export default intent;
