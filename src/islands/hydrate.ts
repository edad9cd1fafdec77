/**
 * The islands' client entry. Nothing loads it with the page: the inline loader
 * (src/scripts/islands.ts) adds it the first time an island is wanted (reached for, in view,
 * or the page idle after load), marks each island it wants (ISLAND_WANTED) and tells a
 * running entry (ISLAND_WANTED_EVENT). Each island's server HTML is hydrated in place with
 * the props and id prefix the server rendered it with (rebuilt first by the module's
 * `transport` when it sent less), as a transition, so a tap or keystroke during hydration
 * is not held up by it.
 */
import { createElement, startTransition, type ComponentType } from "react";
import { hydrateRoot } from "react-dom/client";
import { ISLAND_ATTRIBUTE, ISLAND_PROPS, ISLAND_WANTED, ISLAND_WANTED_EVENT, islandIdPrefix } from "../lib/islands.ts";
import { ISLANDS, transportOf, type IslandName } from "./index.ts";

const started = new WeakSet<Element>();

async function hydrate(root: HTMLElement): Promise<void> {
  const name = root.getAttribute(ISLAND_ATTRIBUTE);
  if (started.has(root) || !name || !Object.hasOwn(ISLANDS, name)) return;
  started.add(root);
  const sent: Record<string, unknown> = JSON.parse(root.getAttribute(ISLAND_PROPS) ?? "{}");
  try {
    // The JSON Island.astro wrote from this very component's props (or what its transport sent).
    const module = await ISLANDS[name as IslandName]();
    const props = (await transportOf(module)?.restore(sent)) ?? sent;
    const Component = module.default as unknown as ComponentType<Record<string, unknown>>;
    startTransition(
      () => void hydrateRoot(root, createElement(Component, props), { identifierPrefix: islandIdPrefix(name) }),
    );
  } catch (error) {
    // Offline, a deploy replaced the chunk or the props' API failed: the server's HTML
    // keeps working without script; the next reach into the island tries again.
    started.delete(root);
    root.removeAttribute(ISLAND_WANTED);
    console.error(`[islands] ${name} could not load`, error);
  }
}

document.addEventListener(ISLAND_WANTED_EVENT, (event) => {
  if (event.target instanceof HTMLElement) void hydrate(event.target);
});
for (const root of document.querySelectorAll<HTMLElement>(`[${ISLAND_ATTRIBUTE}][${ISLAND_WANTED}]`))
  void hydrate(root);
