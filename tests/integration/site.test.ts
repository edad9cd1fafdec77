/**
 * The built site as `npm start` serves it (scripts/serve.mjs over dist/, the embedded store
 * seeded): netlify.toml's security headers on pages, files and the 404, and on the pages
 * rendered on demand (src/middleware.ts); the on-demand sitemap index and its files; the
 * health check. Requests only: what a browser does with the pages is tests/e2e.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { STATIC_ROUTES } from "../../src/lib/routes.ts";
import { parseHtml } from "../helpers/dist.ts";
import { BUILT, startServe, type Served } from "../helpers/serve.ts";

let served: Served | undefined;
beforeAll(async () => {
  if (BUILT) served = await startServe({ NODE_ENV: "test", TREELINE_AUTO_SEED: "1" });
}, 120_000);
afterAll(async () => {
  await served?.stop();
});

/** Each test needs the build and fails saying so (npm test builds before vitest). */
function get(path: string) {
  if (!served) throw new Error("no dist/: run `npm run build` first (npm test builds before vitest)");
  return fetch(`${served.origin}${path}`);
}

describe("security headers as served", () => {
  it.each([
    ["/", 200],
    ["/services/emergency", 200],
    ["/directory", 200],
    ["/blog", 200],
    ["/favicon.svg", 200],
    ["/this-page-does-not-exist", 404],
    // Rendered on demand; src/middleware.ts adds netlify.toml's headers to function answers.
    ["/directory/no-such-tree-service-anywhere", 404],
  ] as const)("%s answers %i with netlify.toml's headers", async (path, status) => {
    const res = await get(path);
    expect(res.status).toBe(status);
    const h = (name: string) => res.headers.get(name);
    expect(h("strict-transport-security")).toMatch(/max-age=31536000/);
    expect(h("x-content-type-options")).toBe("nosniff");
    expect(h("referrer-policy")).toBe("strict-origin-when-cross-origin");
    expect(h("permissions-policy")).toContain("camera=()");
    expect(h("x-frame-options")).toBe("DENY");
    expect(h("content-security-policy")).toContain("frame-ancestors 'none'");
    await res.arrayBuffer();
  });

  it("a page rendered on demand sends Astro's hashed script policy first, without 'unsafe-inline'", async () => {
    const res = await get("/directory");
    await res.arrayBuffer();
    const first = res.headers.get("content-security-policy")!.split(",")[0]!;
    const script = first
      .split(";")
      .map((d) => d.trim().split(/\s+/))
      .find(([name]) => name === "script-src")!;
    expect(script).toContain("'self'");
    expect(script.some((v) => v.startsWith("'sha256-"))).toBe(true);
    expect(script).not.toContain("'unsafe-inline'");
    expect(script).not.toContain("'unsafe-eval'");
  });
});

describe("sitemaps and health", () => {
  const locs = (xml: string) =>
    [...parseHtml(xml).querySelectorAll("loc")].map((loc) => new URL(loc.textContent!.trim()).pathname);

  it("the index lists the static pages' sitemap and the directory's from the store; together every route", async () => {
    const index = await get("/sitemap-index.xml");
    expect(index.status).toBe(200);
    const files = locs(await index.text());
    expect(files).toEqual(["/sitemap-pages-0.xml", "/sitemap-directory-0.xml"]);
    const listed: string[] = [];
    for (const file of files) {
      const part = await get(file);
      expect(part.status, file).toBe(200);
      expect(part.headers.get("content-type"), file).toMatch(/xml/);
      listed.push(...locs(await part.text()));
    }
    expect(listed).toContain("/directory/balcones-canopy-works-austin");
    for (const route of STATIC_ROUTES) expect(listed, `sitemap lists ${route}`).toContain(route);
    for (const path of listed) expect(path).not.toMatch(/404|^\/admin/);
    const past = await get("/sitemap-directory-1.xml");
    await past.arrayBuffer();
    expect(past.status).toBe(404);
  });

  it("health answers ok with the store's kind", async () => {
    const health = await get("/api/health");
    expect(health.status).toBe(200);
    expect(await health.json()).toMatchObject({ ok: true, store: expect.any(String) });
  });
});
