// What Netlify's CDN does for a request no function takes, from Netlify's own libraries:
// redirects and rewrites (@netlify/redirects: netlify.toml and _redirects), static files
// (@netlify/static, pretty URLs), the headers rules of netlify.toml and _headers
// (@netlify/headers), and a local Netlify Blobs server for the functions (@netlify/blobs,
// @netlify/runtime). The same pieces @netlify/dev combines, without the rest of it: importing
// @netlify/dev loads its edge-function, bundler and config stacks too (about 170 MB resident).
import { randomUUID } from "node:crypto";
import { resolve } from "node:path";
import { BlobsServer } from "@netlify/blobs/server";
import { HeadersHandler } from "@netlify/headers";
import { RedirectsHandler } from "@netlify/redirects";
import { startRuntime } from "@netlify/runtime";
import { StaticHandler } from "@netlify/static";

/**
 * Starts the blobs server and the runtime globals, and returns `handle(request, collect)`:
 * the answer for a request (or undefined when nothing matches), with the headers rules it
 * applied reported to `collect(name, value)`.
 */
export async function startEdge({ projectRoot = process.cwd(), publishDir = "dist" } = {}) {
  const token = randomUUID();
  const blobs = new BlobsServer({ directory: resolve(projectRoot, ".netlify/blobs-serve"), token });
  const { port } = await blobs.start();
  const edgeURL = `http://127.0.0.1:${port}`;
  startRuntime({
    blobs: { edgeURL, uncachedEdgeURL: edgeURL, primaryRegion: "us-east-2", token },
    cache: { getCacheAPIContext: () => null, purgeToken: "" },
    deployID: "0",
    siteID: "0",
    env: {
      delete: (key) => delete process.env[key],
      get: (key) => process.env[key],
      has: (key) => Boolean(process.env[key]),
      set: (key, value) => (process.env[key] = value),
      toObject: () => process.env,
    },
    getRequestContext: () => null,
  });

  const configPath = resolve(projectRoot, "netlify.toml");
  const headers = new HeadersHandler({ configPath, projectDir: projectRoot, publishDir });
  const redirects = new RedirectsHandler({
    configPath,
    configRedirects: [],
    jwtRoleClaim: "",
    jwtSecret: "",
    projectDir: projectRoot,
    publicDir: resolve(projectRoot, publishDir),
    notFoundHandler: async () => new Response("Not found", { status: 404 }),
  });
  const files = new StaticHandler({ directory: [resolve(projectRoot, publishDir)] });

  /** A static file's answer with the headers rules for `rulesFor`'s path. */
  async function serveFile(match, rulesFor, collect) {
    const response = await match.handle();
    await headers.apply(rulesFor, response, collect);
    return { response, type: "static" };
  }

  return {
    async handle(request, collect) {
      // The order of @netlify/dev's pipeline once functions are out of it: redirects, then files.
      const read = new Request(request.url, { method: request.method, headers: request.headers });
      const rule = await redirects.match(read);
      if (rule) {
        const response = await redirects.handle(request, rule, async (target) => {
          const match = await files.match(target);
          return match ? async () => (await serveFile(match, new Request(rule.target), collect)).response : undefined;
        });
        if (response) return { response, type: "redirect" };
      }
      const match = await files.match(read);
      return match ? serveFile(match, read, collect) : undefined;
    },
    stop: () => blobs.stop(),
  };
}
