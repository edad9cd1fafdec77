// Serves the production build as Netlify would, on 127.0.0.1 only: the functions of
// netlify/functions and the on-demand page function run in this process (each imported once,
// runtime/functions.ts), and Netlify's own libraries do the rest: redirects, headers,
// static files, blobs (runtime/edge.mjs).
//
// What Netlify's edge does in front of that pipeline, this server does too (see
// docs/security.md): the client's address comes from the socket, never from a header; a
// body longer than any endpoint takes is refused before it is read; only requests naming
// this server are served; a path that is not valid percent-encoding or a method no site
// answers is refused; answers are compressed (brotli or gzip) as the CDN would.
import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import http from "node:http";
import { networkInterfaces } from "node:os";
import { resolve } from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import zlib from "node:zlib";
import { startEdge } from "./edge.mjs";
import { loadDotEnv } from "./env-file.mjs";
import { register } from "tsx/esm/api";

const fromFile = loadDotEnv();
if (fromFile.length > 0) console.log(`[serve] read ${fromFile.length} setting(s) from .env`);

/** The on-demand pages: the Astro SSR function the adapter writes (npm run build). */
const SSR_ENTRY = resolve(".netlify/v1/functions/ssr/ssr.mjs");
// `astro dev` removes the built SSR function; without it every directory page would be a 404.
if (!existsSync(resolve("dist/index.html")) || !existsSync(SSR_ENTRY)) {
  console.error("[serve] no complete build to serve (dist/ and .netlify/v1/functions/ssr): run npm run build first");
  process.exit(1);
}

// The functions and the store code are TypeScript.
register();

const { MAX_BODY_LIMIT, PAGE_SECURITY_HEADERS, bodyKind, formatBytes, jsonError, wantsPage } =
  await import("../netlify/lib/http.ts");
const { PHOTO_TEXT, photoTooLargePage } = await import("../src/lib/photos.ts");
const { env } = await import("../src/lib/env.ts");
// Without SITE_URL (or Netlify's URL) the links in messages (a visitor's status page, a
// business's answer page, /admin) point at this server, so a default install's whole loop
// can be followed from /admin > Messages. Set before any function reads the configuration.
if (!env().SITE_URL && !env().URL) {
  const { HOST, PORT } = env();
  process.env.SITE_URL = `http://${HOST === "0.0.0.0" || HOST === "::" ? "127.0.0.1" : HOST}:${PORT}`;
}
const { HOST: host, PORT: port, siteUrl } = env();
const { openLocalStore } = await import("../netlify/lib/store/local.ts");
const { createRuntime, loadFunction, loadFunctions, requestFromNode } = await import("./functions.ts");

const localStore = await openLocalStore().catch((error) => {
  console.error(`[serve] ${error instanceof Error ? error.message : error}`);
  process.exit(1);
});
console.log(`[store] using ${localStore.description}`);

const edge = await startEdge();

const functions = [...(await loadFunctions()), await loadFunction(SSR_ENTRY)];
const runtime = createRuntime(functions);
runtime.startSchedules();

/** The methods a page, a file or a function may be asked for; anything else is refused (405). */
const METHODS = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]);

/**
 * Only functions read bodies: the API, and the pages functions render that take a form post
 * (a business's answer page). Pages and files never do.
 */
function readsBody(req) {
  try {
    return runtime.match(new URL(req.url, "http://localhost").pathname, req.method) !== undefined;
  } catch {
    return false;
  }
}
/** A body that stops arriving for this long is abandoned (408): a slow sender holds nothing. */
const BODY_IDLE_MS = 10_000;

// --- which Host values name this server --------------------------------------------------

/**
 * The Host values this server answers to: its loopback names and bound address on its port,
 * every interface address when bound to all of them, and SITE_URL's host (a reverse proxy
 * in front). A request naming anything else is refused, so no header can make a function
 * see (or fetch from) an origin of the client's choosing.
 */
function allowedHosts() {
  const hosts = new Set(
    ["127.0.0.1", "localhost", "[::1]", host.includes(":") ? `[${host}]` : host].map((h) => `${h}:${port}`),
  );
  if (host === "0.0.0.0" || host === "::") {
    for (const list of Object.values(networkInterfaces())) {
      for (const { address, family } of list ?? [])
        hosts.add(family === "IPv6" ? `[${address}]:${port}` : `${address}:${port}`);
    }
  }
  // Browsers leave the default port out of Host.
  if (port === 80) for (const h of [...hosts]) hosts.add(h.replace(/:80$/, ""));
  try {
    hosts.add(new URL(siteUrl).host);
  } catch {
    // An unparseable SITE_URL adds nothing.
  }
  return hosts;
}
const ALLOWED_HOSTS = allowedHosts();

// --- bodies --------------------------------------------------------------------------------

class TooLarge extends Error {}
class TooSlow extends Error {}

/**
 * Reads at most `limit` bytes: throws TooLarge as soon as more arrive (nothing past the
 * limit is buffered) and TooSlow when the sender goes quiet for BODY_IDLE_MS.
 */
async function readCapped(req, limit) {
  const chunks = [];
  let total = 0;
  let timer;
  const idle = () =>
    new Promise((_, reject) => {
      timer = setTimeout(() => reject(new TooSlow()), BODY_IDLE_MS);
    });
  const iterator = req[Symbol.asyncIterator]();
  try {
    for (;;) {
      const next = await Promise.race([iterator.next(), idle()]);
      clearTimeout(timer);
      if (next.done) break;
      total += next.value.byteLength;
      if (total > limit) throw new TooLarge();
      chunks.push(next.value);
    }
  } finally {
    clearTimeout(timer);
  }
  return Buffer.concat(chunks, total);
}

/** The request's content type and Accept, as a Request the body helpers read. */
function asked(req) {
  const headers = {
    "content-type": String(req.headers["content-type"] ?? ""),
    accept: String(req.headers.accept ?? ""),
  };
  return new Request("http://refusal/", { method: "POST", headers });
}

/**
 * A refusal the server makes itself, before any function or page (as Netlify's edge answers
 * its own): plain words for a browser's form post, JSON otherwise. `page`: a whole HTML page
 * for the form post instead of the plain words.
 */
function refusal(req, status, title, message, page) {
  if (!wantsPage(asked(req))) return jsonError(status, message);
  const [body, type] = page ? [page, "text/html"] : [`${title}\n\n${message}\n`, "text/plain"];
  return new Response(body, {
    status,
    headers: {
      ...PAGE_SECURITY_HEADERS,
      "content-type": `${type}; charset=utf-8`,
      "cache-control": "no-store",
      // The page has no script, style or image of its own.
      ...(page ? { "content-security-policy": "default-src 'none'; base-uri 'none'; frame-ancestors 'none'" } : {}),
    },
  });
}

/**
 * 413 for a body over MAX_BODY_LIMIT. Only the photo forms post that much: a browser's
 * multipart form post gets the page saying the photo is too large, the limit and how to retry
 * (src/lib/photos.ts); a script gets JSON.
 */
function refuseTooLarge(req, res) {
  const photo = bodyKind(asked(req)) === "multipart";
  const message = photo
    ? PHOTO_TEXT.tooLargeToSend
    : `The request is too large (limit ${formatBytes(MAX_BODY_LIMIT)}).`;
  return refuse(req, res, 413, "That upload is too large", message, {}, photo ? photoTooLargePage() : undefined);
}

/** How long a connection whose body is not read may go on sending (dropped) after the answer. */
const LINGER_MS = 2_000;

/**
 * Ends the connection after this answer without reading the rest of the body. Node destroys
 * a "connection: close" socket once the answer is written, and a client still sending then
 * gets a reset that can swallow the answer unread; so half-close instead, drop whatever still
 * arrives (nothing is kept), and cut the connection after LINGER_MS.
 */
function closeAfterAnswer(req, res) {
  const socket = req.socket;
  socket.destroySoon = () => socket.end();
  req.resume();
  res.once("finish", () => setTimeout(() => socket.destroy(), LINGER_MS).unref());
  res.setHeader("connection", "close");
}

/** Sends a refusal and closes the connection (see closeAfterAnswer). */
async function refuse(req, res, status, title, message, headers = {}, page = undefined) {
  const answer = refusal(req, status, title, message, page);
  for (const [name, value] of Object.entries(headers)) answer.headers.set(name, value);
  const body = Buffer.from(await answer.arrayBuffer());
  closeAfterAnswer(req, res);
  res.writeHead(status, { ...Object.fromEntries(answer.headers), "content-length": body.length });
  res.end(body);
}

// --- compression ----------------------------------------------------------------------------

const COMPRESSIBLE =
  /^(?:text\/|application\/(?:json|javascript|xml|manifest\+json|ld\+json|[a-z.+-]+\+(?:json|xml))|image\/svg\+xml)/i;

/** br or gzip from Accept-Encoding (q=0 refuses a coding), br first as Netlify's CDN. */
function pickEncoding(accept) {
  const offered = new Map();
  for (const part of String(accept ?? "").split(",")) {
    const [name, ...params] = part.trim().toLowerCase().split(";");
    const q = params.map((p) => /^\s*q=([\d.]+)\s*$/.exec(p)?.[1]).find(Boolean);
    if (name) offered.set(name, q === undefined ? 1 : Number(q));
  }
  const accepts = (coding) => (offered.get(coding) ?? offered.get("*") ?? 0) > 0;
  return accepts("br") ? "br" : accepts("gzip") ? "gzip" : null;
}

/**
 * A dynamic answer (JSON, an on-demand page: tens of KB at most, made in milliseconds),
 * compressed in one call. A compression stream per answer left its native buffers to the
 * garbage collector, and a busy server fragmented them into hundreds of MB of RSS (5,000 API
 * calls: 330 -> 490 MB streamed, 284 -> 304 MB uncompressed).
 */
function compressDynamic(bytes, encoding) {
  return encoding === "br"
    ? zlib.brotliCompressSync(bytes, {
        params: {
          [zlib.constants.BROTLI_PARAM_QUALITY]: 5,
          [zlib.constants.BROTLI_PARAM_SIZE_HINT]: bytes.byteLength,
        },
      })
    : zlib.gzipSync(bytes, { level: 6 });
}

/** Compressed static files by content hash and coding, up to CACHE_BYTES (oldest out first). */
const compressedCache = new Map();
const CACHE_BYTES = 64 * 1024 * 1024;
let cachedBytes = 0;

async function compressStatic(bytes, encoding) {
  const key = `${encoding}:${createHash("sha256").update(bytes).digest("hex")}`;
  const hit = compressedCache.get(key);
  if (hit) return hit;
  const out =
    encoding === "br"
      ? zlib.brotliCompressSync(bytes, {
          params: {
            [zlib.constants.BROTLI_PARAM_QUALITY]: 11,
            [zlib.constants.BROTLI_PARAM_SIZE_HINT]: bytes.byteLength,
          },
        })
      : zlib.gzipSync(bytes, { level: 9 });
  compressedCache.set(key, out);
  cachedBytes += out.byteLength;
  for (const [oldKey, old] of compressedCache) {
    if (cachedBytes <= CACHE_BYTES) break;
    compressedCache.delete(oldKey);
    cachedBytes -= old.byteLength;
  }
  return out;
}

/** Response headers meant for the CDN alone (Netlify's caching docs): never sent on to browsers. */
const CDN_ONLY_HEADERS = ["netlify-cdn-cache-control", "cdn-cache-control"];

/** Writes the pipeline's response, compressed when the client and the content allow it. */
async function send(req, res, response, extraHeaders, isStatic) {
  res.statusCode = response.status;
  response.headers.forEach((value, key) => res.setHeader(key, value));
  for (const [key, value] of Object.entries(extraHeaders)) res.setHeader(key, value);
  // Instructions for the CDN's own cache, which Netlify strips before the browser.
  for (const key of CDN_ONLY_HEADERS) res.removeHeader(key);
  const type = String(res.getHeader("content-type") ?? "");
  const compressible =
    response.body &&
    COMPRESSIBLE.test(type) &&
    !res.hasHeader("content-encoding") &&
    response.status !== 204 &&
    response.status !== 304;
  if (compressible) res.setHeader("vary", [res.getHeader("vary"), "Accept-Encoding"].filter(Boolean).join(", "));
  const encoding = compressible && req.method !== "HEAD" ? pickEncoding(req.headers["accept-encoding"]) : null;
  if (!response.body || req.method === "HEAD") {
    await response.body?.cancel().catch(() => {});
    res.end();
    return;
  }
  if (!encoding) {
    await pipeline(Readable.fromWeb(response.body), res);
    return;
  }
  res.removeHeader("content-length");
  res.setHeader("content-encoding", encoding);
  // Files do not change while the server runs: compress each once, as hard as the CDN does.
  const bytes = Buffer.from(await response.arrayBuffer());
  const out = isStatic ? await compressStatic(bytes, encoding) : compressDynamic(bytes, encoding);
  res.setHeader("content-length", out.byteLength);
  res.end(out);
}

// --- the server -----------------------------------------------------------------------------

// Netlify answers unmatched paths with the site's 404.html, status 404 and the same
// netlify.toml headers as any page: serve /404.html (collecting its headers) with that status.
async function notFound(origin, collect) {
  const match = await edge.handle(new Request(`${origin}/404.html`), collect);
  if (match?.response) {
    const headers = new Headers(match.response.headers);
    headers.set("cache-control", "public, max-age=0, must-revalidate");
    return new Response(match.response.body, { status: 404, headers });
  }
  return new Response("Not found", { status: 404, headers: { "content-type": "text/plain; charset=utf-8" } });
}

const server = http.createServer(async (req, res) => {
  try {
    const hostHeader = String(req.headers.host ?? "").toLowerCase();
    if (!ALLOWED_HOSTS.has(hostHeader)) {
      return refuse(
        req,
        res,
        421,
        "Unknown host",
        `This server does not answer for ${JSON.stringify(hostHeader || "(no Host)")}.`,
      );
    }
    if (!req.url?.startsWith("/")) return refuse(req, res, 400, "Bad request", "The request target must be a path.");
    if (!METHODS.has(req.method ?? "")) {
      return refuse(req, res, 405, "Method not allowed", `This site does not answer ${req.method} requests.`, {
        allow: [...METHODS].join(", "),
      });
    }
    const origin = `http://${hostHeader}`;
    const client = req.socket.remoteAddress ?? "";
    if (!client) return refuse(req, res, 400, "Bad request", "The connection has no address.");

    const hasBody = req.method !== "GET" && req.method !== "HEAD";
    let body = null;
    if (hasBody) {
      const declared = Number(req.headers["content-length"] ?? "");
      if (Number.isFinite(declared) && declared > MAX_BODY_LIMIT) return refuseTooLarge(req, res);
      if (readsBody(req)) {
        try {
          body = await readCapped(req, MAX_BODY_LIMIT);
        } catch (error) {
          if (error instanceof TooLarge) return refuseTooLarge(req, res);
          if (error instanceof TooSlow)
            return refuse(req, res, 408, "The upload stalled", "The request body stopped arriving. Please try again.");
          throw error;
        }
      } else {
        // A page or file never reads a body; whatever is still coming dies with the connection.
        closeAfterAnswer(req, res);
      }
    }

    let pathname;
    try {
      pathname = new URL(`${origin}${req.url}`).pathname;
      decodeURIComponent(pathname);
    } catch {
      return refuse(req, res, 400, "Bad request", "The address is not valid: it has a broken %-escape.");
    }

    const headers = {};
    const collect = (key, value) => {
      headers[key] = value;
    };
    const call = (fn, payload) =>
      runtime.call(fn, requestFromNode(req, origin, client, payload), { ip: client, origin });
    // As on Netlify: a function's path wins over files, except for one that prefers static
    // files (the on-demand pages), which answers only where no file or redirect does.
    const fn = runtime.match(pathname, req.method);
    let response;
    let isStatic = false;
    if (fn && !fn.fn.preferStatic) {
      response = await call(fn, body);
    } else {
      const match = await edge.handle(requestFromNode(req, origin, client, body), collect);
      if (match) {
        response = match.response;
        isStatic = match.type === "static";
      } else if (fn && (req.method === "GET" || req.method === "HEAD")) {
        response = await call(fn, null);
      } else {
        response = await notFound(origin, collect);
        isStatic = true;
      }
    }
    await send(req, res, response, headers, isStatic);
  } catch (error) {
    // A client that hung up mid-answer is not a server failure.
    if (res.destroyed || error?.code === "ERR_STREAM_PREMATURE_CLOSE") return;
    console.error("[serve] request failed", error);
    if (!res.headersSent) res.writeHead(500, { "content-type": "text/plain" });
    res.end("Internal error");
  }
});

// A request Node's parser refuses (a head over 16 KB, bad characters) gets its 4xx and a
// half-close, so a client still sending reads the answer instead of a reset.
server.on("clientError", (error, socket) => {
  if (error?.code === "ECONNRESET" || !socket.writable) return socket.destroy();
  const status = error?.code === "HPE_HEADER_OVERFLOW" ? "431 Request Header Fields Too Large" : "400 Bad Request";
  socket.end(`HTTP/1.1 ${status}\r\ncontent-length: 0\r\nconnection: close\r\n\r\n`);
  setTimeout(() => socket.destroy(), LINGER_MS).unref();
});

// CONNECT never reaches the request handler (Node hands over the socket): refuse it here.
server.on("connect", (req, socket) => {
  const allow = [...METHODS].join(", ");
  socket.end(`HTTP/1.1 405 Method Not Allowed\r\nallow: ${allow}\r\ncontent-length: 0\r\nconnection: close\r\n\r\n`);
});

// A port already taken is a message and a clean exit (the data folder released), not a stack trace.
server.once("error", async (error) => {
  const taken = error?.code === "EADDRINUSE";
  console.error(
    taken
      ? `[serve] ${host}:${port} is already in use (another server?): stop it or start this one with PORT=<another port>`
      : `[serve] cannot listen on ${host}:${port}: ${error?.message ?? error}`,
  );
  await runtime.stop(1_000);
  await localStore.close().catch(() => {});
  process.exit(1);
});

// The launch checklist, as /admin > Setup shows it: one line per item, state and what to do.
const { logSetup } = await import("../netlify/lib/admin/setup.ts");
const { getStore } = await import("../netlify/lib/store/index.ts");

server.listen(port, host, () => {
  const origin = `http://${host.includes(":") ? `[${host}]` : host}:${port}`;
  console.log(`[serve] Treeline production build on ${origin}`);
  // The checklist lives in /admin, which stays shut without a token: say how to open it.
  console.log(
    process.env.ADMIN_TOKEN
      ? `[serve] operator area: ${origin}/admin (sign in with ADMIN_TOKEN)`
      : "[serve] operator area /admin is off: set ADMIN_TOKEN (in .env or the environment) and start again",
  );
  void logSetup({ store: getStore() });
});

// Never let the blobs server's stop block a shutdown.
const stop = async () => {
  server.close();
  server.closeAllConnections();
  // Work a function handed to waitUntil (a lead's notification) finishes before the store closes.
  await runtime.stop();
  await Promise.race([edge.stop().catch(() => {}), new Promise((resolve) => setTimeout(resolve, 1500))]);
  await localStore.close().catch(() => {});
  process.exit(0);
};
process.on("SIGINT", stop);
process.on("SIGTERM", stop);
