/**
 * Registers the `client:intent` hydration directive (see intent-directive.client.ts).
 * Astro bundles the entrypoint with esbuild and inlines it into pages that use it.
 *
 * Since the dialogs island makes every page an island page, Astro's island prelude lands
 * on all of them, including its `<style>astro-island,…{display:contents}</style>`, which
 * Astro writes into <body> where HTML does not permit <style> (html-validate rejects it).
 * After the build the rule is moved into <head>: same effect, valid markup, and the
 * styles apply before the body is parsed.
 */
import { readdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { AstroIntegration } from "astro";

const ISLAND_STYLE = "<style>astro-island,astro-slot,astro-static-slot{display:contents}</style>";

async function htmlFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  const nested = await Promise.all(
    entries.map((entry) => {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) return entry.name === "_astro" ? [] : htmlFiles(full);
      return entry.name.endsWith(".html") ? [full] : [];
    }),
  );
  return nested.flat();
}

/** The page with the island style rule moved from <body> into <head> (unchanged if absent). */
export function hoistIslandStyle(html: string): string {
  const head = html.indexOf("</head>");
  const at = html.indexOf(ISLAND_STYLE, head);
  if (head === -1 || at === -1) return html;
  const withoutBody = html.slice(0, at) + html.slice(at + ISLAND_STYLE.length);
  return withoutBody.slice(0, head) + ISLAND_STYLE + withoutBody.slice(head);
}

export default function intentDirective(): AstroIntegration {
  return {
    name: "treeline:intent-directive",
    hooks: {
      "astro:config:setup": ({ addClientDirective }) => {
        addClientDirective({
          name: "intent",
          // A plain path: the entrypoint is spliced into an esbuild import, which does not take file: URLs.
          entrypoint: fileURLToPath(new URL("./intent-directive.client.ts", import.meta.url)),
        });
      },
      "astro:build:done": async ({ dir, logger }) => {
        let moved = 0;
        for (const file of await htmlFiles(fileURLToPath(dir))) {
          const html = await readFile(file, "utf8");
          const next = hoistIslandStyle(html);
          if (next === html) continue;
          await writeFile(file, next);
          moved++;
        }
        logger.info(`island style moved into <head> on ${moved} pages`);
      },
    },
  };
}

declare module "astro" {
  interface AstroClientDirectives {
    /** Inside a `<dialog>` or `[popover]`: hydrate after the first intent (pointer, focus, touch) toward its invokers or inside it, or once it opens. */
    "client:intent"?: boolean;
  }
}
