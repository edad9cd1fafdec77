/**
 * What every page's HTML gets after Astro has rendered it: after the build for static
 * pages, in the middleware for pages rendered on demand, so both leave the server alike.
 *
 * Astro's script policy lists the hash of every inline script in the build on every page.
 * Each page keeps only the hashes of the scripts it carries: least privilege, and on a
 * business page about 400 bytes fewer in the first round trip (docs/directory-pages.md).
 */
import { createHash } from "node:crypto";
import { readdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { AstroIntegration } from "astro";

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

// The HTML parser ends a script at the first "</script", whatever the JS says, so a lazy
// match is exactly the text the browser hashes. Scripts with src or a data type run no
// inline code and need no hash.
const INLINE_SCRIPT = /<script\b([^>]*)>([\s\S]*?)<\/script\s*>/gi;
const RUNS_INLINE = (attributes: string) =>
  !/\bsrc\s*=/i.test(attributes) && !/\btype\s*=\s*["']?application\/(ld\+)?json/i.test(attributes);

/** The CSP hash sources (`'sha256-…'`) of the inline scripts the page carries. */
export function inlineScriptHashes(html: string): Set<string> {
  const hashes = new Set<string>();
  for (const [, attributes, code] of html.matchAll(INLINE_SCRIPT)) {
    if (RUNS_INLINE(attributes)) hashes.add(`'sha256-${createHash("sha256").update(code, "utf8").digest("base64")}'`);
  }
  return hashes;
}

/** The policy without the script hashes of scripts that are not in the page. */
export function pruneScriptHashes(policy: string, html: string): string {
  const used = inlineScriptHashes(html);
  return policy.replace(/\s*'sha256-[A-Za-z0-9+/=]+'/g, (source) => (used.has(source.trim()) ? source : ""));
}

const CSP_META = /(<meta http-equiv="content-security-policy" content=")([^"]*)(")/i;

/** A static page, finished: its `<meta>` policy pruned to its scripts. */
export function finishStaticPage(html: string): string {
  return html.replace(
    CSP_META,
    (_, open: string, policy: string, close: string) => open + pruneScriptHashes(policy, html) + close,
  );
}

export default function finishHtml(): AstroIntegration {
  return {
    name: "treeline:finish-html",
    hooks: {
      "astro:build:done": async ({ dir, logger }) => {
        let changed = 0;
        for (const file of await htmlFiles(fileURLToPath(dir))) {
          const html = await readFile(file, "utf8");
          const next = finishStaticPage(html);
          if (next === html) continue;
          await writeFile(file, next);
          changed++;
        }
        logger.info(`script policy pruned to the page's own scripts on ${changed} pages`);
      },
    },
  };
}
