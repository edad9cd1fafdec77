import type { IncomingMessage, ServerResponse } from "node:http";
import { resolve } from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { loadDotEnv } from "../../runtime/env-file.mjs";
import type { AstroIntegration } from "astro";
import type { Plugin } from "vite";

/**
 * `astro dev` runs the functions of netlify/functions in its own process, as `npm start` does
 * (runtime/functions.ts), loaded through Vite so an edit is picked up on the next call;
 * the server's embedded store is opened here and shared with them and the pages. Its
 * middleware runs before the Netlify Vite plugin's, whose emulation would start a worker and
 * a fresh store for every call.
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

type Runtime = ReturnType<typeof import("../../runtime/functions.ts").createRuntime>;

function devFunctions(): Plugin {
  return {
    name: "treeline:dev-functions",
    enforce: "pre",
    configureServer(server) {
      const load = (file: string) => server.ssrLoadModule(file) as never;
      const dir = resolve("netlify/functions");
      // Started on the first call: Vite cannot load modules before it is listening.
      let started:
        Promise<{ functions: typeof import("../../runtime/functions.ts"); runtime: Runtime }> | undefined;
      const start = async () => {
        // As in npm start: without SITE_URL, the links in messages point at this dev server.
        const address = server.httpServer?.address();
        if (!process.env.SITE_URL?.trim() && !process.env.URL?.trim() && address && typeof address === "object") {
          process.env.SITE_URL = `http://localhost:${address.port}`;
        }
        const { openLocalStore } = (await load(resolve("netlify/lib/store/local.ts"))) as {
          openLocalStore(): Promise<{ description: string; close(): Promise<void> }>;
        };
        const local = await openLocalStore();
        server.config.logger.info(`[store] using ${local.description}`);
        const functions = (await load(
          resolve("runtime/functions.ts"),
        )) as typeof import("../../runtime/functions.ts");
        const runtime = functions.createRuntime(await functions.loadFunctions(dir, load));
        runtime.startSchedules();
        server.httpServer?.once("close", () => {
          void runtime.stop().then(() => local.close());
        });
        return { functions, runtime };
      };
      server.middlewares.use((req, res, next) => {
        // The API, and the pages functions render (answer and status links); Vite serves the rest.
        if (!/^\/(api|respond|requests|review)\//.test(req.url ?? "")) return next();
        handle(req, res).then(
          (handled) => handled || next(),
          (error: unknown) => next(error),
        );
      });
      async function handle(req: IncomingMessage, res: ServerResponse): Promise<boolean> {
        const { functions, runtime } = await (started ??= start());
        const origin = `http://${req.headers.host ?? "localhost"}`;
        const { pathname } = new URL(`${origin}${req.url}`);
        // Read again on every call: Vite reloads a function that was edited.
        const found = functions.matchFunction(await functions.loadFunctions(dir, load), pathname, req.method ?? "GET");
        if (!found) return false;
        const ip = req.socket.remoteAddress ?? "";
        const hasBody = req.method !== "GET" && req.method !== "HEAD";
        const body = hasBody ? Buffer.concat(await req.toArray()) : null;
        const request = functions.requestFromNode(req, origin, ip, body);
        const response = await runtime.call(found, request, { ip, origin });
        res.statusCode = response.status;
        response.headers.forEach((value, key) => res.setHeader(key, value));
        if (response.body) await pipeline(Readable.fromWeb(response.body as never), res);
        else res.end();
        return true;
      }
    },
  };
}
