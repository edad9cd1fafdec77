/**
 * /directory/:slug for businesses added after the build (netlify/lib/directory-page.ts):
 * a known slug gets the profile shell (200), an unknown or malformed one the shell marked
 * missing (404), a store outage the shell (the browser asks the API itself), and a shell
 * that cannot be loaded a 503, never a blank page.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MISSING_ATTRIBUTE, SHELL_PATH, directoryPageHandler, markMissing } from "../../../netlify/lib/directory-page.ts";
import { ORIGIN, deadStore, functionsHarness, getRequest, testBusiness } from "../../helpers/functions.ts";

const h = await functionsHarness("directory-page");
afterAll(async () => {
  await h?.teardown();
});

const SHELL = '<!doctype html><html lang="en"><head><title>Tree service profile</title></head><body><main></main></body></html>';

describe.skipIf(!h)("directory page fallback", () => {
  const origins: string[] = [];
  const handler = () =>
    directoryPageHandler({
      store: () => h!.store,
      shell: async (origin) => {
        origins.push(origin);
        return SHELL;
      },
    });

  beforeAll(async () => {
    await h!.store.businesses.upsert(testBusiness("late-01", { name: "Late Addition Tree Co.", slug: "late-addition-tree-co" }));
  });

  it("serves the shell for a business the build did not prerender", async () => {
    const res = await handler()(getRequest("/directory/late-addition-tree-co"), "late-addition-tree-co");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^text\/html/);
    expect(res.headers.get("netlify-cdn-cache-control")).toMatch(/s-maxage=60/);
    const html = await res.text();
    expect(html).toBe(SHELL);
    expect(html).not.toContain(MISSING_ATTRIBUTE);
    expect(origins.at(-1)).toBe(ORIGIN);
  });

  it("answers 404 with the shell marked missing for unknown and malformed slugs", async () => {
    for (const slug of ["no-such-business", "Bad_Slug", "a--b", "x".repeat(200), "../etc"]) {
      const res = await handler()(getRequest(`/directory/${encodeURIComponent(slug)}`), slug);
      expect(res.status, slug).toBe(404);
      expect(await res.text()).toContain(`<html ${MISSING_ATTRIBUTE} lang="en">`);
      // Short-lived, so a business added a minute later is not hidden for long.
      expect(res.headers.get("netlify-cdn-cache-control")).toBe("public, s-maxage=30");
    }
  });

  it("reads the slug from the path when the platform passes no params", async () => {
    const res = await handler()(getRequest("/directory/late-addition-tree-co"), undefined);
    expect(res.status).toBe(200);
  });

  it("a store outage still serves the shell (the browser retries through the API)", async () => {
    const res = await directoryPageHandler({ store: () => ({ ...deadStore(h!.store), businesses: { ...h!.store.businesses, getBySlug: async () => { throw new Error("down"); } } }), shell: async () => SHELL })(
      getRequest("/directory/late-addition-tree-co"),
      "late-addition-tree-co",
    );
    expect(res.status).toBe(200);
  });

  it("503 when the shell itself cannot be loaded; 405 for writes; HEAD has no body", async () => {
    const broken = directoryPageHandler({ store: () => h!.store, shell: async () => { throw new Error("shell answered 500"); } });
    const res = await broken(getRequest("/directory/late-addition-tree-co"), "late-addition-tree-co");
    expect(res.status).toBe(503);
    expect(res.headers.get("cache-control")).toBe("no-store");
    const post = await handler()(getRequest("/directory/late-addition-tree-co", { method: "POST" }), "late-addition-tree-co");
    expect(post.status).toBe(405);
    expect(post.headers.get("allow")).toBe("GET, HEAD");
    const head = await handler()(getRequest("/directory/late-addition-tree-co", { method: "HEAD" }), "late-addition-tree-co");
    expect(head.status).toBe(200);
    expect(await head.text()).toBe("");
  });

  it("carries the shell's security headers (netlify.toml reaches static files, not functions)", async () => {
    const cdn = new Headers({
      "strict-transport-security": "max-age=31536000",
      "x-frame-options": "DENY",
      "content-security-policy": "frame-ancestors 'none'",
      "referrer-policy": "strict-origin-when-cross-origin",
      "permissions-policy": "camera=()",
      "set-cookie": "never=forwarded",
      "cache-control": "public, max-age=31536000",
    });
    for (const slug of ["late-addition-tree-co", "no-such-business"]) {
      const res = await directoryPageHandler({ store: () => h!.store, shell: async () => ({ html: SHELL, headers: cdn }) })(getRequest(`/directory/${slug}`), slug);
      expect(res.headers.get("x-frame-options"), slug).toBe("DENY");
      expect(res.headers.get("content-security-policy")).toBe("frame-ancestors 'none'");
      expect(res.headers.get("strict-transport-security")).toBe("max-age=31536000");
      expect(res.headers.get("set-cookie")).toBeNull();
      expect(res.headers.get("cache-control")).toBe("public, max-age=0, must-revalidate");
    }
  });

  it("the shell lives at a path no business slug can take over", () => {
    expect(SHELL_PATH.startsWith("/directory/")).toBe(false);
    expect(markMissing("<HTML lang=en>")).toBe(`<html ${MISSING_ATTRIBUTE} lang=en>`);
    expect(markMissing("<html><head><title>Tree service profile | Treeline</title></head></html>")).toContain("<title>Business Not Found | Treeline</title>");
  });
});
