/**
 * Both local servers route by the same table: every path a function's `config` claims, for
 * each method it takes, reaches that function under `npm start` (runtime/serve.mjs over
 * dist/) and under `npm run dev` (astro dev with the local-functions integration); a method a
 * function does not take goes past it (to the pages), and Netlify's default function URLs
 * (/.netlify/functions/<name>) run nothing. The runtime names the function that answered in
 * the Server-Timing header, which is what is read here.
 */
import { cpSync, mkdtempSync, readdirSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { dev } from "astro";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { answeredBy, loadFunctions, matchFunction, type LocalFunction } from "../../runtime/functions.ts";
import { BUILT, ROOT, freePort, startServe } from "../helpers/serve.ts";

/** A sample value for each `:param` (and `*`) of a config path. */
function samplePath(pattern: string): string {
  return pattern.replace(/:(\w+)(\([^)]*\))?[?*+]?/g, "sample-$1").replace(/\*/g, "sample");
}

interface Case {
  method: string;
  path: string;
  /** The function that must answer; undefined = none may (the request is a page's). */
  fn: string | undefined;
  /** The function that must not answer, for a method it does not take. */
  not?: string;
}

const functions: LocalFunction[] = await loadFunctions(join(ROOT, "netlify/functions"));

/** Each function's paths with each method it takes (GET when it names none), and GET where it takes no GET. */
const cases: Case[] = functions.flatMap((fn) =>
  fn.routes.flatMap((route) => {
    const path = samplePath(route.pathname);
    const methods = fn.methods ? [...fn.methods] : ["GET"];
    const refused = fn.methods && !fn.methods.has("GET") ? [{ method: "GET", path, fn: undefined, not: fn.name }] : [];
    return [...methods.map((method) => ({ method, path, fn: fn.name })), ...refused];
  }),
);

/** What answered each case, as `METHOD path -> function`, for one readable comparison. */
async function route(origin: string): Promise<{ expected: string[]; answered: string[] }> {
  const expected: string[] = [];
  const answered: string[] = [];
  for (const c of cases) {
    const res = await fetch(`${origin}${c.path}`, {
      method: c.method,
      redirect: "manual",
      ...(c.method === "GET" || c.method === "HEAD"
        ? {}
        : { body: "{}", headers: { "content-type": "application/json" } }),
    });
    await res.body?.cancel();
    const by = answeredBy(res.headers.get("server-timing"));
    expected.push(`${c.method} ${c.path} -> ${c.fn ?? `not ${c.not}`}`);
    answered.push(`${c.method} ${c.path} -> ${c.fn ? by : by === c.not ? by : `not ${c.not}`}`);
  }
  // Netlify's default URLs run nothing: a function is reached by its config path only.
  for (const fn of functions) {
    for (const method of ["GET", "POST"]) {
      const res = await fetch(`${origin}/.netlify/functions/${fn.name}`, { method, redirect: "manual" });
      await res.body?.cancel();
      expected.push(`${method} /.netlify/functions/${fn.name} -> 404`);
      answered.push(`${method} /.netlify/functions/${fn.name} -> ${res.status}`);
    }
  }
  return { expected, answered };
}

describe("the function table", () => {
  it("has a route or a schedule for every function, and each sample path matches its own function", () => {
    expect(functions.length).toBe(
      readdirSync(join(ROOT, "netlify/functions")).filter((f) => f.endsWith(".mts")).length,
    );
    for (const fn of functions) expect(fn.routes.length > 0 || Boolean(fn.schedule), fn.name).toBe(true);
    for (const c of cases)
      expect(matchFunction(functions, c.path, c.method)?.fn.name, `${c.method} ${c.path}`).toBe(c.fn);
    expect(cases.filter((c) => c.fn).length).toBeGreaterThanOrEqual(functions.filter((f) => !f.schedule).length);
  });
});

if (!BUILT)
  console.warn("[tests] no dist/: the npm start routing test is skipped (npm run build first; npm test does)");

describe.skipIf(!BUILT)("npm start", () => {
  let served: Awaited<ReturnType<typeof startServe>> | undefined;
  beforeAll(async () => {
    // Routing reads no data: no seeding (seconds of CPU in the embedded store) before it starts.
    served = await startServe({ NODE_ENV: "test", TREELINE_AUTO_SEED: "0" });
  }, 120_000);
  afterAll(() => served?.stop());

  it("sends every function path to its function, by method", async () => {
    const { expected, answered } = await route(served!.origin);
    expect(answered).toEqual(expected);
  }, 60_000);
});

describe("npm run dev", () => {
  // astro dev empties the build's SSR function folder (.netlify/v1/functions/ssr), which npm
  // start and the other suites serve, and writes .astro/: run it on a copy of the project.
  const root = mkdtempSync(join(tmpdir(), "treeline-dev-"));
  const skip = [
    ".astro",
    ".data",
    ".git",
    ".netlify",
    "bench",
    "dist",
    "docs",
    "playwright-report",
    "test-results",
    "tests",
  ];
  for (const entry of readdirSync(ROOT)) {
    if (entry === "node_modules") symlinkSync(join(ROOT, entry), join(root, entry));
    else if (!skip.includes(entry)) cpSync(join(ROOT, entry), join(root, entry), { recursive: true });
  }
  let server: Awaited<ReturnType<typeof dev>> | undefined;
  let origin = "";

  beforeAll(async () => {
    // Astro's dev server leaves pages to the test runner when it sees one (VITEST).
    const vitest = process.env.VITEST;
    delete process.env.VITEST;
    try {
      server = await dev({ root, logLevel: "error", server: { host: "127.0.0.1", port: await freePort() } });
    } finally {
      process.env.VITEST = vitest;
    }
    origin = `http://127.0.0.1:${server.address.port}`;
    // The functions load once the server listens (seconds): wait for the first to answer.
    const deadline = Date.now() + 150_000;
    while (answeredBy((await fetch(`${origin}/api/health`)).headers.get("server-timing")) !== "health") {
      if (Date.now() > deadline) throw new Error("the dev server's functions did not answer within 150 s");
      await new Promise((r) => setTimeout(r, 500));
    }
  }, 300_000);
  afterAll(async () => {
    await server?.stop();
    rmSync(root, { recursive: true, force: true });
  });

  it("sends every function path to its function, by method, and the rest to Astro", async () => {
    const { expected, answered } = await route(origin);
    expect(answered).toEqual(expected);
    // A page no function claims is Astro's.
    const home = await fetch(`${origin}/`);
    expect(home.status).toBe(200);
    expect(home.headers.get("server-timing")).toBeNull();
    expect(await home.text()).toContain("<html");
  }, 60_000);
});
