/**
 * Decides when each React island (Island.astro) starts. Outside any box: once the page has
 * loaded and is idle, or with `data-when="visible"` once it is within 200px of the viewport,
 * and in any case as soon as the visitor reaches into it (and again after a start that
 * failed), which is the only start a `data-when="intent"` island waits for. Inside a
 * `<dialog>` or `[popover]` (the lead dialogs, the chat), when the visitor reaches for it:
 * the first pointerdown, mouse pointerenter, focusin or touchstart on one of its box's
 * invokers (`[commandfor]` / `[popovertarget]` naming the `<dialog>` or `[popover]` around
 * it) or inside the box, or the box opening by any means (`toggle`). Until then the page
 * runs no framework code and has downloaded none. The boxes open without this (Invoker
 * Commands, popovers), so hydration only adds behavior to markup that already works, and
 * it may wait: it starts once the page is idle after the next frame, so the tap that opens
 * a box gets its frame first and the download and start-up never delay it.
 * An invoker's `data-restore` names a sessionStorage key; when this tab has it (a chat left
 * open on the previous page), its island starts once the page is idle.
 *
 * It imports nothing at run time, so Astro inlines it into the page (no request before
 * first paint). The DOM names come from src/lib/islands.ts as types.
 */
import type {
  ISLAND_ATTRIBUTE,
  ISLAND_ENTRY_ID,
  ISLAND_WANTED,
  ISLAND_WANTED_EVENT,
  ISLAND_WHEN,
  IslandWhen,
} from "../lib/islands.ts";

const ISLAND: typeof ISLAND_ATTRIBUTE = "data-island";
const WHEN: typeof ISLAND_WHEN = "data-when";
const VISIBLE: IslandWhen = "visible";
const INTENT: IslandWhen = "intent";
const WANTED: typeof ISLAND_WANTED = "data-wanted";
const WANTED_EVENT: typeof ISLAND_WANTED_EVENT = "island:wanted";
const ENTRY: typeof ISLAND_ENTRY_ID = "island-entry";

const INTENT_EVENTS = ["pointerdown", "pointerenter", "focusin", "touchstart"];

/** The first idle time, or 200 ms at most (a page that keeps rendering may never be idle; Safari has no idle callback). */
const idle = (run: () => void) =>
  "requestIdleCallback" in self ? requestIdleCallback(run, { timeout: 200 }) : setTimeout(run);
/** Idle after the page's own load (as `client:idle`): an island nobody reached for never competes with the first paint. */
const afterLoad = (run: () => void) =>
  document.readyState == "complete" ? idle(run) : addEventListener("load", () => idle(run), { once: true });

let entryAdded = false;

/** After the frame that shows the box, behind whatever the visitor does next. */
function want(island: HTMLElement) {
  if (island.hasAttribute(WANTED)) return;
  island.setAttribute(WANTED, "");
  requestAnimationFrame(() =>
    idle(() => {
      if (!entryAdded) {
        entryAdded = true;
        const src = (document.getElementById(ENTRY) as HTMLTemplateElement | null)?.content
          .querySelector("script")
          ?.getAttribute("src");
        // A live copy of the template's inert script; a running entry hears the event instead.
        if (src) document.head.append(Object.assign(document.createElement("script"), { type: "module", src }));
      }
      island.dispatchEvent(new Event(WANTED_EVENT, { bubbles: true }));
    }),
  );
}

// Its root is `display: contents` (no box of its own), so what is observed is its first element.
const nearViewport = new IntersectionObserver(
  (entries) => {
    for (const entry of entries) {
      if (!entry.isIntersecting) continue;
      nearViewport.unobserve(entry.target);
      want(entry.target.parentElement!);
    }
  },
  { rootMargin: "200px" },
);

/**
 * Each island with where a reach for it counts: its box, or outside any box the island
 * itself, so that an island whose start failed (offline) is tried again when touched.
 */
const islands: [HTMLElement, HTMLElement][] = [];
for (const island of document.querySelectorAll<HTMLElement>(`[${ISLAND}]`)) {
  const box = island.closest<HTMLElement>("dialog,[popover]");
  islands.push([island, box ?? island]);
  if (!box) {
    const when = island.getAttribute(WHEN);
    if (when == VISIBLE && island.firstElementChild) nearViewport.observe(island.firstElementChild);
    else if (when != INTENT) afterLoad(() => want(island));
    continue;
  }
  box.addEventListener("toggle", () => want(island));
  if ((box as HTMLDialogElement).open) want(island);
  try {
    const key = document.querySelector<HTMLElement>(`[popovertarget="${box.id}"][data-restore]`)?.dataset.restore;
    if (key && sessionStorage.getItem(key)) idle(() => want(island));
  } catch {
    // Storage can be blocked (privacy modes); the invoker still works on tap.
  }
}

function onIntent(event: Event) {
  // Touch and pen also fire pointerenter, right before pointerdown; only a hovering mouse is early intent.
  if (event.type == "pointerenter" && (event as PointerEvent).pointerType != "mouse") return;
  const target = event.target as Element;
  for (const [island, box] of islands) {
    if (box.contains(target) || (box.id && target.closest?.(`[commandfor="${box.id}"],[popovertarget="${box.id}"]`)))
      want(island);
  }
}
for (const type of INTENT_EVENTS) document.addEventListener(type, onIntent, { capture: true, passive: true });
