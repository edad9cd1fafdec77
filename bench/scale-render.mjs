// Child process of bench/scale.ts: loads the built on-demand function (the Astro SSR
// function @astrojs/netlify writes) in a fresh process, as a new function instance would,
// and renders the pages it is given. Prints one JSON line. Env: REDIS_URL, REDIS_KEY_PREFIX.
//   node bench/scale-render.mjs <slug> [<slug> ...]
import { gzipSync } from "node:zlib";
import path from "node:path";
import { pathToFileURL } from "node:url";

const slugs = process.argv.slice(2);
const context = { ip: "127.0.0.1", params: {}, waitUntil: () => {} };
const origin = "http://127.0.0.1";

const t0 = performance.now();
const { default: handler } = await import(pathToFileURL(path.resolve(".netlify/v1/functions/ssr/ssr.mjs")).href);
const importMs = performance.now() - t0;

async function render(pathname) {
  const started = performance.now();
  const res = await handler(new Request(origin + pathname), context);
  const body = Buffer.from(await res.arrayBuffer());
  const ms = performance.now() - started;
  const trips = /"(\d+) round trips"/.exec(res.headers.get("server-timing") ?? "")?.[1];
  return {
    status: res.status,
    ms,
    bytes: body.length,
    gzip: gzipSync(body).length,
    roundTrips: trips === undefined ? null : Number(trips),
  };
}

const cold = await render(`/directory/${slugs[0]}`);
const warm = [];
for (const slug of slugs.slice(1)) warm.push(await render(`/directory/${slug}`));
const directory = await render("/directory");
const missing = await render("/directory/no-such-business-anywhere");
console.log(JSON.stringify({ importMs, cold, warm, directory, missing }));
process.exit(0);
