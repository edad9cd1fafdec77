/**
 * Every prebuilt route of the route table as dist/ has it: a page with a title, one h1,
 * description, canonical and OG tags and the shared landmarks; the 404 page; robots.txt,
 * the static pages' sitemap and the icons; the operator's page out of search; and no page
 * that loads framework code before a visitor reaches for something. (The served side, with
 * status codes and headers, is tests/integration/site.test.ts; /directory is on demand and
 * is checked by tests/e2e/directory-list.spec.ts.)
 */
import { readdirSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { STATIC_ROUTES } from "../../src/lib/routes.ts";
import { SITE } from "../../src/lib/site.ts";
import { ON_DEMAND_ROUTES, builtPage, distPath, meta, parseHtml, readDist } from "../helpers/dist.ts";

const PREBUILT = STATIC_ROUTES.filter((route) => !ON_DEMAND_ROUTES.has(route));

describe("every prebuilt route of the route table", () => {
  it("is every route but the on-demand ones", () => {
    expect(PREBUILT.length).toBe(STATIC_ROUTES.length - ON_DEMAND_ROUTES.size);
  });

  it.each(PREBUILT)("%s has a title, one h1, description, canonical/OG tags and the shared landmarks", (route) => {
    const { document, screen } = builtPage(route);
    expect(document.title).toContain(SITE.name);
    expect(document.querySelectorAll("h1")).toHaveLength(1);
    expect(meta(document, "description")).toMatch(/.{40,}/);
    const canonical = document.querySelector('link[rel="canonical"]')?.getAttribute("href");
    expect(new URL(canonical!).pathname).toBe(route);
    expect(meta(document, "og:title")).toMatch(/.+/);
    expect(meta(document, "og:image")).toMatch(/^https?:\/\//);
    expect(document.querySelector("header")).not.toBeNull();
    expect(document.querySelectorAll("main#main")).toHaveLength(1);
    expect(document.querySelectorAll("footer")).toHaveLength(1);
    expect(screen.getByRole("region", { name: "Notifications (F8)", hidden: true })).toBeTruthy();
  });
});

describe("files beside the pages", () => {
  it("the 404 page says so and stays out of search", () => {
    const { document, screen } = builtPage("/404");
    expect(screen.getByRole("heading", { level: 1 }).textContent).toContain("404");
    expect(screen.getByText("Did you forget to add the page to the router?")).toBeTruthy();
    expect(meta(document, "robots")).toMatch(/noindex/);
  });

  it("robots.txt points at the sitemap index", () => {
    expect(readDist("robots.txt")).toMatch(/Sitemap: https?:\/\/.+\/sitemap-index\.xml/);
  });

  it("the static pages' sitemap lists every prebuilt route and neither the 404 nor /admin", () => {
    const xml = parseHtml(readDist("sitemap-pages-0.xml"));
    const paths = [...xml.querySelectorAll("loc")].map((loc) => new URL(loc.textContent!.trim()).pathname);
    expect(paths.length).toBeGreaterThan(0);
    for (const route of PREBUILT) expect(paths, `sitemap lists ${route}`).toContain(route);
    // /directory is in the on-demand directory sitemap (src/pages/sitemap-index.xml.ts).
    for (const path of paths) expect(path).not.toMatch(/404|^\/admin|^\/directory/);
  });

  it("the icons and the default share image are built", () => {
    for (const asset of ["favicon.svg", "favicon.ico", "apple-touch-icon.png", "og-default.png"]) distPath(asset);
  });

  it("/admin is noindex", () => {
    expect(meta(builtPage("/admin").document, "robots")).toMatch(/noindex/);
  });
});

/** A script's code and, recursively, that of every module it imports statically. */
function withImports(file: string, seen = new Set<string>()): string {
  if (seen.has(file)) return "";
  seen.add(file);
  const code = readDist(file);
  let all = code;
  // The bundler's own static imports: `import{a as b}from"./x.js"` / `import"./x.js"`.
  for (const [, spec] of code.matchAll(
    /\bimport\s*(?:[\w{}\s,*$]+\bfrom\s*)?["'](\.{1,2}\/[^"']+|\/_astro\/[^"']+)["']/g,
  )) {
    const target = spec!.startsWith("/") ? spec!.slice(1) : new URL(spec!, `file:///${file}`).pathname.slice(1);
    all += withImports(target, seen);
  }
  return all;
}

const REACT = /react-dom|__REACT_DEVTOOLS|createRoot/;

describe("no framework JavaScript before a visitor reaches for it", () => {
  const pages = readdirSync(distPath(""), { recursive: true, encoding: "utf8" })
    .filter((file) => file.endsWith(".html"))
    .map((file) => `/${file.replace(/\.html$/, "").replace(/^index$/, "")}`);

  it("covers the pages the e2e suite used to load", () => {
    for (const route of ["/", "/services/emergency", "/business-growth", "/blog"]) expect(pages).toContain(route);
  });

  it.each(pages)("%s: the scripts it runs on load carry no React, and its islands wait for the visitor", (route) => {
    const { document } = builtPage(route);
    const onLoad = [
      ...document.querySelectorAll<HTMLScriptElement>("script[src]"),
      ...document.querySelectorAll<HTMLLinkElement>('link[rel="modulepreload"]'),
    ]
      .filter((el) => !el.closest("template"))
      .map((el) => el.getAttribute("src") ?? el.getAttribute("href")!);
    for (const src of onLoad) expect(withImports(src.replace(/^\//, "")), src).not.toMatch(REACT);
    for (const script of document.querySelectorAll("script:not([src])"))
      expect(script.textContent, `${route} inline script`).not.toMatch(REACT);
    // An island starts at once (when the page is idle) unless it is in a box or waits for intent or view.
    const eager = [...document.querySelectorAll("[data-island]")].filter(
      (island) => !island.closest("dialog, [popover]") && !island.hasAttribute("data-when"),
    );
    // Only the operator's inbox is an application from the first paint.
    expect(eager.map((island) => island.getAttribute("data-island"))).toEqual(route === "/admin" ? ["AdminApp"] : []);
  });
});
