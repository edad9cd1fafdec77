/**
 * `client:chat`: the chat island stays plain HTML (its server-rendered launcher) until the
 * visitor reaches for the launcher: the first pointerdown, mouse pointerenter, focusin or
 * touchstart on it downloads React and the island. A click that lands before the island
 * is ready is cancelled (the link would go to /contact, the no-JS stand-in) and queued.
 * A conversation already in progress in this tab (the visitor followed a link the
 * assistant gave) is restored without waiting for a tap, once the page is idle.
 * Inlined into every page: keep it tiny.
 */
import type { ClientDirective } from "astro";
import { CHAT_LAUNCHER, chatQueue } from "./chat-queue";

const INTENT_EVENTS = ["pointerdown", "pointerenter", "focusin", "touchstart"];

const chat: ClientDirective = (load, _opts, el) => {
  const launcher = el.querySelector<HTMLElement>(CHAT_LAUNCHER);
  let started = false;

  const hydrate = async () => {
    if (started) return;
    started = true;
    await (await load())();
  };
  if (!launcher) return void hydrate();

  const onIntent = (event: Event) => {
    // Touch and pen also fire pointerenter, right before pointerdown; only a hovering mouse is early intent.
    if (event.type != "pointerenter" || (event as PointerEvent).pointerType == "mouse") hydrate();
  };
  for (const type of INTENT_EVENTS) launcher.addEventListener(type, onIntent, { passive: true, once: true });
  launcher.addEventListener("click", (event) => {
    const queue = chatQueue();
    if (queue.ready || (event as MouseEvent).button || (event as MouseEvent).metaKey || (event as MouseEvent).ctrlKey || (event as MouseEvent).shiftKey || (event as MouseEvent).altKey) return;
    event.preventDefault();
    queue.open = true;
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
