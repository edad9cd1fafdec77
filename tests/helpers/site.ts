/**
 * The on-demand pages as a browser gets them: the production build served by `npm start`
 * (scripts/serve.mjs over dist/ and the built page function) on a free 127.0.0.1 port and a
 * real Redis under the file's own key prefix, plus a store on that prefix through which the
 * test writes what the pages read. Requests go over HTTP, so routing, the middleware's
 * headers and the function/page split are the real ones.
 *
 * Null when no Redis answers outside CI (the suite then skips, like the store suites). A
 * missing build is an error, never a skip: `npm test` builds first.
 */
import { within } from "@testing-library/dom";
import { createStore, type Store } from "../../netlify/lib/store/index.ts";
import { parseEnv, type Env } from "../../src/lib/env.ts";
import { parseHtml } from "./dist.ts";
import { deleteKeysWithPrefix, resolveTestRedisUrl, uniquePrefix } from "./redis.ts";
import { BUILT, startServe, type Served } from "./serve.ts";

export interface SitePage {
  response: Response;
  html: string;
  document: Document;
  /** The page's `<main>` and queries inside it (Testing Library). */
  main: HTMLElement;
  inMain: ReturnType<typeof within>;
}

export interface SiteHarness {
  origin: string;
  /** The server's store (same Redis, same prefix). */
  store: Store;
  /** The configuration the server runs with, parsed (for signers and handlers in the test). */
  env: Env;
  served: Served;
  /** A request to the server; redirects are returned, not followed. */
  fetch(path: string, init?: RequestInit): Promise<Response>;
  /** GET a page and parse it. */
  page(path: string, init?: RequestInit): Promise<SitePage>;
  stop(): Promise<void>;
}

/**
 * Starts the built site on its own prefix, or on `options.prefix` (another harness's store,
 * which that harness cleans up); `settings` are environment variables for the server.
 */
export async function siteHarness(
  label: string,
  settings: Record<string, string> = {},
  options: { prefix?: string } = {},
): Promise<SiteHarness | null> {
  if (!BUILT) throw new Error("dist/ is missing: run `npm run build` first (npm test builds before vitest)");
  const url = await resolveTestRedisUrl();
  if (!url) return null;
  const prefix = options.prefix ?? uniquePrefix(`site-${label}`);
  const env = {
    REDIS_URL: url,
    REDIS_KEY_PREFIX: prefix,
    TREELINE_AUTO_SEED: "0",
    RATE_LIMIT_PER_MINUTE: "1000",
    ...settings,
  };
  const served = await startServe(env);
  const store = createStore({ transport: "redis", url, prefix });
  const fetchPath = (path: string, init: RequestInit = {}) =>
    fetch(`${served.origin}${path}`, { redirect: "manual", ...init });
  return {
    origin: served.origin,
    store,
    env: parseEnv(env),
    served,
    fetch: fetchPath,
    async page(path, init) {
      const response = await fetchPath(path, init);
      const html = await response.text();
      const document = parseHtml(html, `${served.origin}${path}`);
      const main = document.querySelector<HTMLElement>("main");
      if (!main) throw new Error(`${path}: no <main> in the answer (${response.status}):\n${html.slice(0, 500)}`);
      return { response, html, document, main, inMain: within(main) };
    },
    async stop() {
      await served.stop();
      await store.close();
      if (!options.prefix) await deleteKeysWithPrefix(url, prefix);
    },
  };
}
