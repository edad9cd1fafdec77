/**
 * The security headers and script policy every prebuilt page leaves with: the
 * `/*` headers of netlify.toml (which Netlify gives every static page and file, and
 * src/middleware.ts copies onto pages rendered on demand), and each page's hashed CSP
 * <meta>: hashes only, no 'unsafe-inline' or 'unsafe-eval' for scripts, and every inline
 * script the page runs among the hashes (else it would not run). That the browser meets no
 * violation while the site is used is checked by every e2e test (tests/e2e/fixtures.ts);
 * the headers as served, by tests/integration/site.test.ts.
 */
import { createHash } from "node:crypto";
import { readFileSync, readdirSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { staticPageHeaders } from "../../netlify/lib/directory-page.ts";
import { builtPage, distPath } from "../helpers/dist.ts";

const toml = readFileSync(new URL("../../netlify.toml", import.meta.url), "utf8");

describe("netlify.toml", () => {
  it("gives every page and file the security headers", () => {
    const h = staticPageHeaders(toml);
    expect(h["strict-transport-security"]).toMatch(/max-age=31536000/);
    expect(h["x-content-type-options"]).toBe("nosniff");
    expect(h["referrer-policy"]).toBe("strict-origin-when-cross-origin");
    expect(h["permissions-policy"]).toContain("camera=()");
    expect(h["x-frame-options"]).toBe("DENY");
    expect(h["content-security-policy"]).toContain("frame-ancestors 'none'");
  });
});

/** A policy split into directives: name -> sources. */
function directives(policy: string): Record<string, string[]> {
  return Object.fromEntries(
    policy
      .split(";")
      .map((d) => d.trim())
      .filter(Boolean)
      .map((d) => {
        const [name, ...values] = d.split(/\s+/);
        return [name, values];
      }),
  );
}

const pages = readdirSync(distPath(""), { recursive: true, encoding: "utf8" })
  .filter((file) => file.endsWith(".html"))
  .map((file) => `/${file.replace(/\.html$/, "").replace(/^index$/, "")}`);

describe("every prebuilt page's script policy", () => {
  it("covers the pages the e2e suite used to check", () => {
    for (const route of ["/", "/services/emergency", "/find-a-tree-service", "/blog", "/admin"])
      expect(pages).toContain(route);
  });

  it.each(pages)("%s: hashes only, and every inline script it runs is listed", (route) => {
    const { document } = builtPage(route);
    const metas = document.querySelectorAll('meta[http-equiv="content-security-policy"]');
    expect(metas, "every page carries Astro's CSP").toHaveLength(1);
    const policy = directives(metas[0]!.getAttribute("content")!);
    expect(policy["script-src"]).toContain("'self'");
    expect(policy["script-src"]).not.toContain("'unsafe-inline'");
    expect(policy["script-src"]).not.toContain("'unsafe-eval'");
    expect(policy["default-src"]).toEqual(["'self'"]);
    expect(policy["object-src"]).toEqual(["'none'"]);
    const hashes = policy["script-src"]!.filter((v) => v.startsWith("'sha256-"));
    // Scripts of a data type (JSON-LD, props) run nothing and need no hash.
    const inline = [...document.querySelectorAll("script:not([src])")].filter(
      (s) => !/^application\/(ld\+)?json$/.test(s.getAttribute("type") ?? ""),
    );
    expect(inline.length, "the island loader is inline on every page").toBeGreaterThan(0);
    for (const script of inline) {
      const hash = `'sha256-${createHash("sha256")
        .update(script.textContent ?? "", "utf8")
        .digest("base64")}'`;
      expect(hashes, (script.textContent ?? "").slice(0, 60)).toContain(hash);
    }
  });
});
