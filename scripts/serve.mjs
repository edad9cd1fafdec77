// Serves the production build (dist/ + netlify/functions) through Netlify's own
// request pipeline (@netlify/dev): redirects, headers, functions and static files
// behave as on Netlify, but bound to 127.0.0.1 only.
import { existsSync } from "node:fs";
import http from "node:http";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { NetlifyDev } from "@netlify/dev";
import { shouldBase64Encode } from "@netlify/dev-utils";
import { register } from "tsx/esm/api";

// The store code is TypeScript shared with the functions.
register();

const host = process.env.HOST || "127.0.0.1";
const port = Number(process.env.PORT || 8888);

const { shareEmbeddedStore } = await import("../netlify/lib/store/shared-embedded.ts");
const embedded = await shareEmbeddedStore();

const netlify = new NetlifyDev({
  projectRoot: process.cwd(),
  aiGateway: { enabled: false },
  blobs: { enabled: true },
  database: { enabled: false },
  edgeFunctions: { enabled: false },
  environmentVariables: { enabled: true },
  functions: { enabled: true },
  geolocation: { enabled: false },
  headers: { enabled: true },
  images: { enabled: false },
  redirects: { enabled: true },
  server: { enabled: false },
  staticFiles: { enabled: true },
  skipGitignore: true,
});

await netlify.start();

/**
 * The on-demand pages (the Astro SSR function the adapter writes to .netlify/v1/functions):
 * @netlify/dev serves netlify/functions only, so the paths in that function's config go to
 * it here, after static files and the API functions, as on Netlify. The request URL is built
 * on this server's own address, never on the client's Host header.
 */
async function loadOnDemand() {
  const file = resolve(".netlify/v1/functions/ssr/ssr.mjs");
  if (!existsSync(file)) return undefined;
  const mod = await import(pathToFileURL(file).href);
  const patterns = [mod.config?.path].flat().filter(Boolean).map((pathname) => new URLPattern({ pathname }));
  return {
    matches: (pathname) => patterns.some((p) => p.test({ pathname })),
    async handle(req) {
      const headers = new Headers();
      for (const [key, value] of Object.entries(req.headers)) {
        if (value === undefined) continue;
        for (const item of Array.isArray(value) ? value : [value]) headers.append(key, item);
      }
      const ip = req.socket.remoteAddress ?? "127.0.0.1";
      headers.set("x-nf-client-connection-ip", ip);
      const request = new Request(new URL(req.url ?? "/", `http://${host}:${port}`), { method: req.method, headers });
      return mod.default(request, { ip, params: {}, waitUntil: (p) => void Promise.resolve(p).catch(() => {}) });
    },
  };
}
const onDemand = await loadOnDemand();

// Netlify answers unmatched paths with the site's 404.html, status 404 and the same
// netlify.toml headers as any page; @netlify/dev leaves that to its host, so serve
// /404.html through the pipeline (collecting its headers) and change the status.
async function notFound(options) {
  const match = await netlify.handleAndIntrospect(new Request(`http://${host}:${port}/404.html`), options);
  if (match?.response) {
    const headers = new Headers(match.response.headers);
    headers.set("cache-control", "public, max-age=0, must-revalidate");
    return new Response(match.response.body, { status: 404, headers });
  }
  return new Response("Not found", { status: 404, headers: { "content-type": "text/plain; charset=utf-8" } });
}

/**
 * @netlify/functions-dev hands a function the body as text but flags binary content types
 * (multipart uploads among them) as base64, so the function decodes garbage. Netlify itself
 * base64-encodes such bodies; do the same here before the request enters the pipeline.
 */
function needsBase64Body(req) {
  return req.method !== "GET" && req.method !== "HEAD" && shouldBase64Encode(req.headers["content-type"] ?? "");
}

async function base64BodyRequest(req) {
  const chunks = [];
  for await (const chunk of req) chunks.push(chunk);
  const headers = new Headers();
  for (const [key, value] of Object.entries(req.headers)) {
    if (key === "content-length" || value === undefined) continue;
    for (const item of Array.isArray(value) ? value : [value]) headers.append(key, item);
  }
  headers.set("x-nf-client-connection-ip", req.socket.remoteAddress ?? "127.0.0.1");
  return new Request(`http://${req.headers.host ?? `${host}:${port}`}${req.url}`, {
    method: req.method,
    headers,
    body: Buffer.concat(chunks).toString("base64"),
  });
}

const server = http.createServer(async (req, res) => {
  try {
    const headers = {};
    const options = {
      headersCollector: (key, value) => {
        headers[key] = value;
      },
    };
    const match = needsBase64Body(req)
      ? await netlify.handleAndIntrospect(await base64BodyRequest(req), options)
      : await netlify.handleAndIntrospectNodeRequest(req, options);
    const pathname = new URL(req.url ?? "/", `http://${host}`).pathname;
    const response =
      match?.response ?? (onDemand?.matches(pathname) && (req.method === "GET" || req.method === "HEAD") ? await onDemand.handle(req) : await notFound(options));
    res.statusCode = response.status;
    response.headers.forEach((value, key) => res.setHeader(key, value));
    for (const [key, value] of Object.entries(headers)) res.setHeader(key, value);
    if (response.body) {
      for await (const chunk of response.body) res.write(chunk);
    }
    res.end();
  } catch (error) {
    console.error("[serve] request failed", error);
    if (!res.headersSent) res.writeHead(500, { "content-type": "text/plain" });
    res.end("Internal error");
  }
});

server.listen(port, host, () => {
  console.log(`[serve] Treeline production build on http://${host}:${port}`);
});

// netlify.stop() can wait forever on its function bundler; never let it block a shutdown.
const stop = async () => {
  server.close();
  server.closeAllConnections();
  await Promise.race([netlify.stop().catch(() => {}), new Promise((resolve) => setTimeout(resolve, 1500))]);
  await embedded?.close().catch(() => {});
  process.exit(0);
};
process.on("SIGINT", stop);
process.on("SIGTERM", stop);
