/**
 * happy-dom has no Popover API. The chat island relies on it (showPopover, hidePopover,
 * `:popover-open`, `toggle` events, `popovertarget` buttons), so its tests install this
 * much of it: enough to see what the island does with the platform's state, not a test of
 * the platform (Chromium's own popover behavior stays in the Playwright specs).
 */
const open = new WeakSet<Element>();

function toggle(el: HTMLElement, newState: "open" | "closed") {
  const event = Object.assign(new Event("toggle"), { oldState: newState === "open" ? "closed" : "open", newState });
  // The platform queues the event (a task), it does not fire it inside showPopover().
  setTimeout(() => el.dispatchEvent(event), 0);
}

function show(this: HTMLElement) {
  if (open.has(this)) throw new DOMException("Already showing", "InvalidStateError");
  open.add(this);
  // A popover with `autofocus` takes focus when shown.
  if (this.hasAttribute("autofocus")) this.focus();
  toggle(this, "open");
}

function hide(this: HTMLElement) {
  if (!open.delete(this)) return;
  toggle(this, "closed");
}

/** Installs the shim; returns the function that removes it. */
export function installPopover(): () => void {
  const proto = HTMLElement.prototype as unknown as Record<string, unknown>;
  const matches = Element.prototype.matches;
  proto.showPopover = show;
  proto.hidePopover = hide;
  Element.prototype.matches = function (this: Element, selector: string) {
    return selector === ":popover-open" ? open.has(this) : matches.call(this, selector);
  } as typeof matches;
  // A `popovertarget` button acts after the page's own click handlers, unless one canceled it.
  const onClick = (event: MouseEvent) => {
    const button = (event.target as Element | null)?.closest?.("button[popovertarget]");
    if (!button || event.defaultPrevented) return;
    const target = document.getElementById(button.getAttribute("popovertarget")!);
    if (!target) return;
    const action = button.getAttribute("popovertargetaction") ?? "toggle";
    if (action === "hide" || (action === "toggle" && open.has(target))) hide.call(target);
    else if (!open.has(target)) show.call(target);
  };
  document.addEventListener("click", onClick);
  return () => {
    Reflect.deleteProperty(proto, "showPopover");
    Reflect.deleteProperty(proto, "hidePopover");
    Element.prototype.matches = matches;
    document.removeEventListener("click", onClick);
  };
}
