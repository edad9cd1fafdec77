/**
 * Icon outlines (24px grid, stroke style) shared by the static Icon.astro and the islands'
 * Icon.tsx, and the rating star shared by Stars.astro and the islands' Stars.tsx, so an
 * icon or a star looks the same whether Astro or React drew it.
 */
export const ICON_PATHS = {
  phone:
    "M3 5.5A2.5 2.5 0 0 1 5.5 3h1.4a1 1 0 0 1 .97.76l.9 3.6a1 1 0 0 1-.5 1.12l-1.6.86a11 11 0 0 0 6 6l.86-1.6a1 1 0 0 1 1.12-.5l3.6.9a1 1 0 0 1 .76.97v1.4A2.5 2.5 0 0 1 18.5 21C10 21 3 14 3 5.5Z",
  menu: "M4 6h16M4 12h16M4 18h16",
  close: "M6 6l12 12M18 6 6 18",
  chevronDown: "m6 9 6 6 6-6",
  chevronUp: "m6 15 6-6 6 6",
  chevronLeft: "m15 6-6 6 6 6",
  chevronRight: "m9 6 6 6-6 6",
  minus: "M5 12h14",
  arrowRight: "M5 12h14m-6-6 6 6-6 6",
  mail: "M4 6h16v12H4zM4 7l8 6 8-6",
  clock: "M12 7v5l3 2M21 12a9 9 0 1 1-18 0 9 9 0 0 1 18 0Z",
  chat: "M21 12a8 8 0 0 1-11.6 7.1L4 20l.9-4.6A8 8 0 1 1 21 12Z",
  tree: "M12 22v-5m0 0c-4 0-7-2.5-7-6 0-2.2 1.3-4 3-5 0-2.2 1.8-4 4-4s4 1.8 4 4c1.7 1 3 2.8 3 5 0 3.5-3 6-7 6Z",
  shield: "M12 3 4 6v6c0 5 3.5 8 8 9 4.5-1 8-4 8-9V6l-8-3Zm-3 9 2 2 4-4",
  star: "m12 3 2.7 5.6 6.1.9-4.4 4.3 1 6.1L12 17l-5.4 2.9 1-6.1-4.4-4.3 6.1-.9L12 3Z",
  bolt: "M13 2 4 14h7l-1 8 9-12h-7l1-8Z",
  chart: "M4 20V10m6 10V4m6 16v-7m4 7H2",
  search: "m21 21-4.3-4.3M19 11a8 8 0 1 1-16 0 8 8 0 0 1 16 0Z",
  mapPin: "M12 22s7-6.2 7-12a7 7 0 1 0-14 0c0 5.8 7 12 7 12Zm0-9a3 3 0 1 0 0-6 3 3 0 0 0 0 6Z",
  navigation: "M3 11 21 3l-8 18-2-8-8-2Z",
  check: "m5 12 5 5L20 7",
  facebook: "M14 8h3V4h-3a4 4 0 0 0-4 4v2H7v4h3v8h4v-8h3l1-4h-4V8Z",
  instagram:
    "M7 3h10a4 4 0 0 1 4 4v10a4 4 0 0 1-4 4H7a4 4 0 0 1-4-4V7a4 4 0 0 1 4-4Zm5 13a4 4 0 1 0 0-8 4 4 0 0 0 0 8Zm5-9.5h.01",
  linkedin:
    "M4 9h4v12H4zM6 3a2 2 0 1 1 0 4 2 2 0 0 1 0-4Zm5 6h4v2c.6-1.2 2-2.2 4-2.2 3 0 4 2 4 5.2V21h-4v-6c0-1.5-.5-2.5-2-2.5s-2 1-2 2.5v6h-4V9Z",
  youtube:
    "M22 12s0-3.5-.5-5a2.6 2.6 0 0 0-1.8-1.8C18 4.7 12 4.7 12 4.7s-6 0-7.7.5A2.6 2.6 0 0 0 2.5 7C2 8.5 2 12 2 12s0 3.5.5 5a2.6 2.6 0 0 0 1.8 1.8c1.7.5 7.7.5 7.7.5s6 0 7.7-.5a2.6 2.6 0 0 0 1.8-1.8c.5-1.5.5-5 .5-5ZM10 15V9l5 3-5 3Z",
  globe:
    "M12 21a9 9 0 1 0 0-18 9 9 0 0 0 0 18Zm-9-9h18M12 3c2.5 2.5 3.8 5.5 3.8 9s-1.3 6.5-3.8 9c-2.5-2.5-3.8-5.5-3.8-9S9.5 5.5 12 3Z",
  calendar: "M4 6h16v14H4zM4 10h16M8 3v4m8-4v4",
  image: "M4 5h16v14H4zM4 16l5-5 4 4 2-2 5 5M15.5 9.5h.01",
  award: "M12 15a6 6 0 1 0 0-12 6 6 0 0 0 0 12Zm-3.5-1L7 22l5-3 5 3-1.5-8",
} as const;

export type IconName = keyof typeof ICON_PATHS;

/**
 * A rating star: amber when on, a gray outline when off (the caller picks the empty fill
 * for its background). The state is the `data-on` attribute rather than a class, so a page
 * script can relight a rendered row (the business page's rating after a review).
 */
export const STAR = {
  path: ICON_PATHS.star,
  strokeWidth: "1.5",
  class: "text-slate-300 data-[on=true]:fill-amber-400 data-[on=true]:text-amber-500",
} as const;
