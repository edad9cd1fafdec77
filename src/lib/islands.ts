/**
 * The DOM names of the site's React islands: components that Island.astro renders on the
 * server and src/islands/hydrate.ts hydrates once src/scripts/islands.ts, inlined into every
 * page, decides they are wanted. No Astro island runtime is involved (see docs/dialogs.md,
 * "Hydration"); the inline loader takes these names as types, so a rename here fails its
 * type check.
 */

/** On an island's root; the value names its component in src/islands/index.ts. */
export const ISLAND_ATTRIBUTE = "data-island";
/** The island's props as JSON (absent when it has none). */
export const ISLAND_PROPS = "data-props";
/**
 * On an island outside any box that does not start once the page is idle: `visible` waits
 * until it nears the viewport, `intent` until the visitor reaches into it (pointer, focus or
 * touch inside it), as the islands in a `<dialog>` or `[popover]` always do.
 */
export const ISLAND_WHEN = "data-when";
export type IslandWhen = "visible" | "intent";
/** Set by the loader when the island is wanted (the visitor reached for it, it came into view, the page went idle): hydrate it. */
export const ISLAND_WANTED = "data-wanted";
/** Dispatched (bubbling) on an island once it is wanted, for an entry already running. */
export const ISLAND_WANTED_EVENT = "island:wanted";
/**
 * The `<template>` that holds the hydration entry's `<script>`: inert until the loader
 * copies its `src` into a live script, so neither the browser nor its preload scanner
 * fetches React before a visitor needs it.
 */
export const ISLAND_ENTRY_ID = "island-entry";

/** React's `identifierPrefix` for an island's root, on the server and in the browser: its `useId` values cannot meet another island's. */
export const islandIdPrefix = (name: string): string => `${name}-`;

/**
 * How an island whose props repeat what its server HTML already shows sends them. The page
 * carries only `send(props)` (JSON in ISLAND_PROPS); the browser rebuilds the full props
 * with `restore` before hydrating, from the same public, CDN-cached API answers the server
 * rendered from. It keeps a list's data from riding twice in the first round trip (once as
 * HTML, once as JSON) and costs one cached request, after load, only where script runs. A
 * rejected `restore` leaves the server's HTML working without script; the island is tried
 * again the next time the visitor reaches into it.
 */
export interface PropsTransport<Props, Sent> {
  /** What the page carries: plain JSON data. */
  send(props: Props): Sent;
  /** The props to hydrate with, equal to those the server rendered when the data has not changed since. */
  restore(sent: Sent): Promise<Props>;
}
