// `npm test`: every check, side by side where they do not need each other, on the two cores
// CI has (docs/testing.md, "What npm test runs"):
//
//   lint and build  ─> typecheck and static ─┐
//   build           ─> unit (vitest) ─────────┴─> e2e
//
// The build is the deploy as Netlify builds it (`npm run build:netlify`: Netlify's own build,
// offline, runs netlify.toml's build command, `npm run build`, then bundles every function into
// .netlify/functions/), so the site is built once and vitest's tests/unit/built-functions.test.ts
// reads the functions' manifest. tsc reads the content types the build writes to .astro/;
// vitest, the static checks and e2e read the build; e2e runs alone (the browser journeys take
// both cores).
//
// Each stage is its npm script, run as it is; a stage side by side with others prints its
// output when it ends, e2e streams. One failure starts nothing new; what is running
// finishes, so its failures are reported too, and the run fails. The end lists each stage's time.
import { spawn } from "node:child_process";

/** name -> the stages it waits for. Listed in the order the sequential `&&` chain had them. */
const STAGES = {
  lint: [],
  build: [],
  typecheck: ["build", "lint"],
  unit: ["build"],
  static: ["build", "lint"],
  e2e: ["lint", "typecheck", "unit", "static"],
};
const SCRIPTS = {
  lint: "lint",
  build: "build:netlify",
  typecheck: "typecheck",
  unit: "test:unit",
  static: "test:static",
  e2e: "test:e2e",
};
/** Stages that run alone stream their output as it comes. */
const STREAMED = new Set(["e2e"]);

const started = Date.now();
const state = new Map(Object.keys(STAGES).map((name) => [name, { status: "waiting", seconds: 0 }]));
const seconds = (ms) => (ms / 1000).toFixed(1);
const log = (line) => process.stdout.write(`\n[test] ${line}\n`);
// Buffered output keeps its colors when this run's own output is a terminal.
const env = process.stdout.isTTY && !process.env.NO_COLOR ? { ...process.env, FORCE_COLOR: "1" } : process.env;

function run(name) {
  const stage = state.get(name);
  stage.status = "running";
  const begun = Date.now();
  const streamed = STREAMED.has(name);
  log(`${name}: npm run ${SCRIPTS[name]}${streamed ? "" : " (output when it ends)"}`);
  // Its own process group, so stopping the run stops everything the stage started.
  const child = spawn("npm", ["run", "--silent", SCRIPTS[name]], {
    env,
    detached: true,
    stdio: ["ignore", streamed ? "inherit" : "pipe", streamed ? "inherit" : "pipe"],
  });
  children.add(child);
  child.on("exit", () => children.delete(child));
  const chunks = [];
  child.stdout?.on("data", (c) => chunks.push(c));
  child.stderr?.on("data", (c) => chunks.push(c));
  return new Promise((resolve) => {
    child.on("close", (code, signal) => {
      stage.seconds = (Date.now() - begun) / 1000;
      stage.status = code === 0 ? "passed" : "failed";
      if (!streamed) {
        log(`${name}: output`);
        process.stdout.write(Buffer.concat(chunks));
      }
      log(`${name}: ${stage.status} in ${seconds(Date.now() - begun)} s${signal ? ` (${signal})` : ""}`);
      resolve();
    });
  });
}

// Stopped (Ctrl-C, or CI canceling), this run stops each running stage's process group.
const children = new Set();
for (const signal of ["SIGINT", "SIGTERM"]) {
  process.on(signal, () => {
    for (const child of children) {
      try {
        process.kill(-child.pid, signal);
      } catch {
        // Already gone.
      }
    }
    process.exit(signal === "SIGINT" ? 130 : 143);
  });
}

const running = new Set();
let failed = false;
for (;;) {
  if (!failed) {
    for (const [name, needs] of Object.entries(STAGES)) {
      if (state.get(name).status !== "waiting") continue;
      if (!needs.every((need) => state.get(need).status === "passed")) continue;
      const job = run(name).then(() => {
        running.delete(job);
        if (state.get(name).status === "failed") failed = true;
      });
      running.add(job);
    }
  }
  if (running.size === 0) break;
  await Promise.race(running);
}

const summary = [...state]
  .map(
    ([name, { status, seconds: s }]) => `${name} ${status === "waiting" ? "not run" : `${status} ${s.toFixed(1)} s`}`,
  )
  .join(", ");
log(`${failed ? "FAILED" : "passed"} in ${seconds(Date.now() - started)} s: ${summary}`);
process.exit(failed ? 1 : 0);
