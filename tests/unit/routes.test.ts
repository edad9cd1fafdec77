/**
 * Each route is written once per side of a constraint: Netlify reads `config.path` from the
 * function file's source, so it must be a literal there, and a handler that reads `:params`
 * needs the same route to find them when called without Netlify's `context.params` (tests,
 * scripts). This keeps the two equal, and proves the handler reads the params it routes on.
 */
import { readdirSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { routeParams } from "../../netlify/lib/http.ts";

const dir = new URL("../../netlify/functions/", import.meta.url);
const files = readdirSync(dir).filter((f) => f.endsWith(".mts"));

describe("netlify/functions routes", () => {
  it.each(files)("%s: a route with params is the handler's own", async (file) => {
    const mod = (await import(new URL(file, dir).href)) as { config: { path?: string }; default: { route?: string } };
    const path = mod.config.path;
    if (path?.includes(":")) expect(mod.default.route).toBe(path);
    else expect(mod.default.route).toBeUndefined();
  });

  it("params come from Netlify's context, else from the URL by the same route", () => {
    const params = routeParams("/api/businesses/:id/reviews");
    const at = (path: string) => new Request(`http://127.0.0.1${path}`);
    expect(params(at("/api/businesses/oak%20line/reviews"))).toEqual({ id: "oak line" });
    expect(params(at("/api/businesses/oak/reviews/"))).toEqual({ id: "oak" });
    expect(params(at("/api/businesses/ignored/reviews"), { params: { id: "given" } })).toEqual({ id: "given" });
    expect(params(at("/api/businesses/a/b/reviews"))).toBeNull();
    expect(params(at("/api/businesses/%E0%A4%A/reviews"))).toBeNull();
  });
});
