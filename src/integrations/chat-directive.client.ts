/**
 * `client:chat`: the chat island stays plain HTML (the prebuilt panel, a `popover` its
 * launcher opens with no script) until the visitor reaches for it: the first
 * pointerdown, mouse pointerenter, focusin or touchstart on the launcher, or the panel
 * opening by any means, downloads React and the island, which takes the panel over as it
 * is. Until then Escape closes the panel here (a manual popover has no native Escape),
 * and a message sent (Enter or the send button) is held for the island to send.
 * A conversation in progress in this tab (the visitor followed a link the assistant
 * gave) is restored without waiting for a tap, once the page is idle.
 * Inlined into every page: keep it tiny.
 */
import type { ClientDirective } from "astro";

const INTENT_EVENTS = ["pointerdown", "pointerenter", "focusin", "touchstart"];

const chat: ClientDirective = (load, _opts, el) => {
  let started = false;
  const hydrate = async () => {
    if (started) return;
    started = true;
    await (await load())();
  };
  const panel = el.closest<HTMLElement>("[popover]");
  const launcher = panel && document.querySelector<HTMLElement>(`[popovertarget="${panel.id}"]`);
  if (!panel || !launcher) return void hydrate();

  const onIntent = (event: Event) => {
    // Touch and pen also fire pointerenter, right before pointerdown; only a hovering mouse is early intent.
    if (event.type != "pointerenter" || (event as PointerEvent).pointerType == "mouse") hydrate();
  };
  for (const type of INTENT_EVENTS) launcher.addEventListener(type, onIntent, { passive: true, once: true });
  panel.addEventListener("toggle", hydrate, { once: true });
  // Astro drops `ssr` once the island hydrates; from then on the island handles these.
  const early = () => el.hasAttribute("ssr");
  panel.addEventListener("keydown", (event) => {
    if (!early()) return;
    if (event.key == "Escape") {
      panel.hidePopover();
      launcher.focus();
    } else if (event.key == "Enter" && !event.shiftKey && !event.isComposing && (event.target as HTMLTextAreaElement).form) {
      // Enter sends, as it will once the island runs (blank text fails the box's `required`).
      event.preventDefault();
      (event.target as HTMLTextAreaElement).form!.requestSubmit();
    }
  });
  // A message sent before the island is ready waits for it instead of leaving the page.
  panel.addEventListener("submit", (event) => {
    if (!early()) return;
    event.preventDefault();
    panel.dataset.send = "";
    hydrate();
  });

  try {
    const key = launcher.dataset.restore;
    if (key && sessionStorage.getItem(key)) (self.requestIdleCallback || setTimeout)(hydrate);
  } catch {
    // Storage can be blocked (privacy modes); the launcher still works on tap.
  }
};

export default chat;
