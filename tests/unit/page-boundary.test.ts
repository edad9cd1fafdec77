/**
 * The Astro files' imports, which eslint does not read (it lints .ts/.tsx only): pages and
 * layouts reach netlify/ through the page-data modules (and directory-page.ts) alone, and a
 * component, rendered on both kinds of page, never imports server code.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

function astroFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && e.name.endsWith(".astro"))
    .map((e) => join(e.parentPath, e.name));
}

const importsOf = (file: string) =>
  [...readFileSync(file, "utf8").matchAll(/^\s*import\s[^;]*?from\s+["']([^"']+)["']/gms)].map((m) => m[1]!);

const PAGE_DATA = /(^|\/)netlify\/lib\/(page-data\/[\w-]+|directory-page)(\.ts)?$/;

describe("Astro imports of server code", () => {
  it("pages and layouts import netlify/ only through netlify/lib/page-data/* and directory-page.ts", () => {
    const wrong = [...astroFiles("src/pages"), ...astroFiles("src/layouts")].flatMap((file) =>
      importsOf(file)
        .filter((from) => /(^|\/)netlify\//.test(from) && !PAGE_DATA.test(from))
        .map((from) => `${file}: ${from}`),
    );
    expect(wrong).toEqual([]);
  });

  it("components import nothing from netlify/", () => {
    const wrong = astroFiles("src/components").flatMap((file) =>
      importsOf(file)
        .filter((from) => /(^|\/)netlify\//.test(from))
        .map((from) => `${file}: ${from}`),
    );
    expect(wrong).toEqual([]);
  });

  it("sees the imports it checks", () => {
    expect(importsOf("src/pages/directory/[slug].astro")).toContain("../../../netlify/lib/directory-page");
  });
});
