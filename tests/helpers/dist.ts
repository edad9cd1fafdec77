/**
 * The production build as a browser would get it, without a browser: the prebuilt pages of
 * dist/ parsed with happy-dom (no script runs, nothing is fetched) and queried the way the
 * e2e suite queries a page (Testing Library's roles and accessible names). For checks of
 * what a page says and links to; anything that needs layout, focus or script stays in
 * tests/e2e. Pages rendered on demand (/directory...) are not in dist/.
 *
 * A missing build is an error, never a skip: `npm test` builds first, and a developer who
 * runs vitest alone is told to.
 */
import { existsSync, readFileSync, readdirSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { configure, within, type BoundFunctions, type queries } from "@testing-library/dom";
import { Window } from "happy-dom";

// A failed query says what it looked for; the whole page printed after it would bury that.
configure({
  getElementError: (message) => Object.assign(new Error(message ?? "element query failed"), { name: "ElementError" }),
});

export const DIST = fileURLToPath(new URL("../../dist/", import.meta.url));

/** The path of `file` in dist/, which must exist. */
export function distPath(file: string): string {
  // A URL from a page may carry Netlify's deploy query (`?dpl=...`): the file is the path.
  file = file.replace(/[?#].*$/, "");
  const full = DIST + file.replace(/^\//, "");
  if (!existsSync(full))
    throw new Error(
      `dist/${file.replace(/^\//, "")} is missing: run \`npm run build\` first (npm test builds before vitest)`,
    );
  return full;
}

export function readDist(file: string): string {
  return readFileSync(distPath(file), "utf8");
}

/** The file a prebuilt route is served from (`build.format: "file"`). */
export function routeFile(route: string): string {
  return route === "/" ? "index.html" : `${route.replace(/^\//, "")}.html`;
}

/** Routes of the route table that are rendered on demand, so not in dist/. */
export const ON_DEMAND_ROUTES = new Set(["/directory"]);

/**
 * The page's own inline styles that are not the site's CSS (empty: one CSS for the whole site).
 * Astro inlines a small shared chunk of it (the header's) into pages rendered on demand; that
 * chunk is the same text as in the built stylesheets.
 */
export function foreignStyles(document: Document): string[] {
  const dir = `${DIST}_astro/`;
  const css = readdirSync(dir)
    .filter((f) => f.endsWith(".css"))
    .map((f) => readFileSync(dir + f, "utf8"))
    .join("\n");
  return [...document.querySelectorAll("style")].map((s) => s.textContent ?? "").filter((t) => !css.includes(t));
}

/** On-demand pages outside the route table (the owners' "Add your business"): never in dist/. */
export const PRIVATE_PAGES = new Set(["/owner/add"]);

export type Queries = BoundFunctions<typeof queries>;

export interface BuiltPage {
  route: string;
  html: string;
  document: Document;
  /** Queries over the whole body. */
  screen: Queries;
  /** The page's `<main>`, and queries inside it. */
  main: HTMLElement;
  inMain: Queries;
}

const parsed = new Map<string, BuiltPage>();

/** Parses a string of HTML as a detached document (no script, no network). */
export function parseHtml(html: string, url = "https://treeline.example/"): Document {
  const window = new Window({
    url,
    settings: {
      disableJavaScriptEvaluation: true,
      disableJavaScriptFileLoading: true,
      disableCSSFileLoading: true,
      disableIframePageLoading: true,
    },
  });
  return new window.DOMParser().parseFromString(html, "text/html") as unknown as Document;
}

/** A prebuilt page of dist/, parsed once per test file. */
export function builtPage(route: string): BuiltPage {
  const cached = parsed.get(route);
  if (cached) return cached;
  const html = readDist(routeFile(route));
  const document = parseHtml(html, `https://treeline.example${route}`);
  const main = document.querySelector<HTMLElement>("main");
  if (!main) throw new Error(`${route}: no <main> in dist/${routeFile(route)}`);
  const page = { route, html, document, screen: within(document.body), main, inMain: within(main) };
  parsed.set(route, page);
  return page;
}

/** What a reader sees of an element as one line: its text without scripts, styles, templates or closed dialogs, block boundaries as spaces. */
export function textOf(node: Node): string {
  const parts: string[] = [];
  const walk = (n: Node) => {
    if (n.nodeType === 3) {
      parts.push(n.textContent ?? "");
      return;
    }
    if (n.nodeType !== 1) return;
    const el = n as Element;
    if (/^(SCRIPT|STYLE|TEMPLATE|NOSCRIPT)$/.test(el.tagName)) return;
    if (el.tagName === "DIALOG" && !el.hasAttribute("open")) return;
    if (el.hasAttribute("hidden")) return;
    const block = !INLINE.has(el.tagName);
    if (block) parts.push(" ");
    for (const child of el.childNodes) walk(child);
    if (block) parts.push(" ");
  };
  walk(node);
  return parts.join("").replace(/\s+/g, " ").trim();
}

const INLINE = new Set([
  "A",
  "ABBR",
  "B",
  "BDI",
  "BDO",
  "CITE",
  "CODE",
  "DATA",
  "DFN",
  "EM",
  "I",
  "KBD",
  "MARK",
  "Q",
  "S",
  "SAMP",
  "SMALL",
  "SPAN",
  "STRONG",
  "SUB",
  "SUP",
  "TIME",
  "U",
  "VAR",
  "WBR",
]);

/** Every JSON-LD block of a page, parsed (a parse error fails the test); arrays are flattened. */
export function jsonLd(document: Document): (Record<string, unknown> & { "@type"?: string })[] {
  return [...document.querySelectorAll('script[type="application/ld+json"]')].flatMap((script) => {
    const parsed = JSON.parse(script.textContent ?? "") as Record<string, unknown> | Record<string, unknown>[];
    return Array.isArray(parsed) ? parsed : [parsed];
  });
}

/** The value of a `<meta>` (by name or property), or null. */
export function meta(document: Document, key: string): string | null {
  return (
    document.querySelector(`meta[name="${key}"]`)?.getAttribute("content") ??
    document.querySelector(`meta[property="${key}"]`)?.getAttribute("content") ??
    null
  );
}
