import type { IncomingMessage, ServerResponse } from "node:http";
import { resolve, sep } from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { loadDotEnv } from "../../runtime/env-file.mjs";
import type { AstroIntegration } from "astro";
import type { Plugin, ViteDevServer } from "vite";

type Functions = typeof import("../../runtime/functions.ts");

/** Netlify's default function URLs, which this project's functions do not answer on. */
const FUNCTIONS_URL = "/.netlify/functions/";

/**
 * `astro dev` runs the functions of netlify/functions in its own process, routed by the same
 * table and matcher as `npm start` (runtime/functions.ts): a request some function's config
 * claims (path, method, excluded paths) goes to it, anything else to Astro and Vite. The
 * modules load through Vite, so an edit is picked up on the next call; the server's embedded
 * store is opened here and shared with them and the pages. Its middleware runs before the
 * Netlify Vite plugin's, whose emulation would start a worker and a fresh store for every call.
 */
export default function localFunctions(): AstroIntegration {
  return {
    name: "treeline:local-functions",
    hooks: {
      "astro:config:setup": ({ command, updateConfig }) => {
        if (command !== "dev") return;
        // As npm start does: settings from .env (the environment wins); builds never read it.
        loadDotEnv();
        updateConfig({ vite: { plugins: [devFunctions()] } });
      },
    },
  };
}

function devFunctions(): Plugin {
  return {
    name: "treeline:dev-functions",
    enforce: "pre",
    configureServer(server) {
      const runtime = devRuntime(server);
      server.middlewares.use((req, res, next) => {
        handle(req, res).then(
          (handled) => handled || next(),
          (error: unknown) => next(error),
        );
      });
      async function handle(req: IncomingMessage, res: ServerResponse): Promise<boolean> {
        const origin = `http://${req.headers.host ?? "localhost"}`;
        const { pathname } = new URL(`${origin}${req.url}`);
        if (pathname.startsWith(FUNCTIONS_URL)) {
          // As on Netlify and under npm start, a function is reached by its config path only; the
          // Netlify plugin's emulation would run it here, in a worker with a store of its own.
          res.writeHead(404, { "content-type": "text/plain; charset=utf-8" }).end("Not found");
          return true;
        }
        const { functions, local } = await runtime();
        const found = local.match(pathname, req.method ?? "GET");
        if (!found) return false;
        const ip = req.socket.remoteAddress ?? "";
        const hasBody = req.method !== "GET" && req.method !== "HEAD";
        const body = hasBody ? Buffer.concat(await req.toArray()) : null;
        const request = functions.requestFromNode(req, origin, ip, body);
        const response = await local.call(found, request, { ip, origin });
        res.statusCode = response.status;
        response.headers.forEach((value, key) => res.setHeader(key, value));
        if (response.body) await pipeline(Readable.fromWeb(response.body as never), res);
        else res.end();
        return true;
      }
    },
  };
}

/**
 * The dev server's runtime, started once it listens (Vite cannot load modules before), with
 * its table read again after any edit Vite sees: a function added, removed or given another
 * config routes as it now says, and a call runs the edited code.
 */
function devRuntime(server: ViteDevServer) {
  const load = (file: string) => server.ssrLoadModule(file) as never;
  const root = server.config.root;
  const dir = resolve(root, "netlify/functions");
  let edits = 0;
  // Only source edits: not the embedded store's data file, which changes on every write.
  const ignored = [resolve(root, ".data") + sep, resolve(root, ".netlify") + sep];
  server.watcher.on("all", (_event, file: string) => {
    if (!ignored.some((folder) => file.startsWith(folder))) edits++;
  });
  let started: Promise<{ functions: Functions; local: ReturnType<Functions["createRuntime"]> }> | undefined;
  let loaded = 0;
  let reading: Promise<void> | undefined;

  async function start() {
    // As in npm start: without SITE_URL, the links in messages point at this dev server.
    const address = server.httpServer?.address();
    if (!process.env.SITE_URL?.trim() && !process.env.URL?.trim() && address && typeof address === "object") {
      process.env.SITE_URL = `http://localhost:${address.port}`;
    }
    const { openLocalStore } = (await load(resolve(root, "netlify/lib/store/local.ts"))) as {
      openLocalStore(): Promise<{ description: string; close(): Promise<void> }>;
    };
    const store = await openLocalStore();
    server.config.logger.info(`[store] using ${store.description}`);
    const functions = (await load(resolve(root, "runtime/functions.ts"))) as Functions;
    loaded = edits;
    const local = functions.createRuntime(await functions.loadFunctions(dir, load));
    local.startSchedules();
    server.httpServer?.once("close", () => {
      void local.stop().then(() => store.close());
    });
    return { functions, local };
  }

  const get = async () => {
    // A failed start (the data folder in use) is tried again on the next request.
    const current = await (started ??= start().catch((error: unknown) => {
      started = undefined;
      throw error;
    }));
    while (loaded !== edits) {
      reading ??= (async () => {
        const seen = edits;
        current.local.update(await current.functions.loadFunctions(dir, load));
        loaded = seen;
      })().finally(() => (reading = undefined));
      await reading;
    }
    return current;
  };
  // Loading every function takes seconds: begin once the server listens, not on the first call.
  server.httpServer?.once("listening", () => {
    get().catch((error: unknown) => server.config.logger.error(`[functions] ${String(error)}`));
  });
  return get;
}
