import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { defineConfig, devices } from "@playwright/test";
import { env } from "./src/lib/env.ts";

/**
 * E2E runs against the production build served exactly as `npm start` serves it
 * (runtime/serve.mjs on 127.0.0.1), on its own port so a developer's
 * running server is never reused by accident. `npm test` builds first.
 */
const chromiumPath = env().CHROME_PATH;
if (!existsSync(chromiumPath)) {
  console.error(`Chromium not found at ${chromiumPath}: install it (apt-get install chromium) or set CHROME_PATH.`);
  process.exit(1);
}
// Free ports, picked once in the runner and inherited by its workers through the environment
// (each worker re-reads this file), so a server already on any fixed port never gets in the way.
if (!process.env.E2E_PORT || !process.env.E2E_OWNERS_PORT) {
  const probe =
    'const a=require("net").createServer().listen(0,"127.0.0.1",()=>{const b=require("net").createServer().listen(0,"127.0.0.1",()=>{process.stdout.write(a.address().port+" "+b.address().port);a.close();b.close()})})';
  [process.env.E2E_PORT, process.env.E2E_OWNERS_PORT] = execFileSync(process.execPath, ["-e", probe], {
    encoding: "utf8",
  })
    .trim()
    .split(" ");
}
const port = Number(process.env.E2E_PORT);
const baseURL = `http://127.0.0.1:${port}`;
const ownersPort = Number(process.env.E2E_OWNERS_PORT);
const ownersURL = `http://127.0.0.1:${ownersPort}`;
const launchOptions = {
  executablePath: chromiumPath,
  args: [
    "--disable-gpu",
    "--disable-quic",
    "--no-sandbox",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
  ],
};

/** Specs whose journeys add businesses, change a listing's hours, or declare a storm over directory pages. */
const DIRECTORY_WRITES = /(owner-claims|storm)\.spec\.ts$/;

export default defineConfig({
  testDir: "tests/e2e",
  fullyParallel: true,
  forbidOnly: !!process.env.CI,
  retries: 0,
  // Three on two cores: a journey often waits (on the server, an animation, a held request).
  workers: 3,
  reporter: process.env.CI ? [["list"]] : [["list"]],
  timeout: 60_000,
  expect: { timeout: 7_000 },
  use: { baseURL, trace: "retain-on-failure", launchOptions },
  // The phone runs only the journeys where layout or touch matters (tagged @mobile, or
  // @mobile-only for the phone's own header and menu); everything else runs once, on desktop.
  projects: [
    // Projects run in the order listed, each spec file's tests in order, spread over the
    // workers: the long journeys first (owners, then the phone's axe and widths), so the run
    // ends on short desktop tests instead of one long test running alone.
    //
    // Journeys that change the directory itself (a new business, an owner's hours) run against
    // a server and store of their own (same build, same settings, its own key prefix and seed),
    // so no count or "open now" another test reads can change under them.
    {
      name: "owners",
      testMatch: DIRECTORY_WRITES,
      use: { ...devices["Desktop Chrome"], viewport: { width: 1280, height: 800 }, launchOptions, baseURL: ownersURL },
    },
    { name: "mobile", grep: /@mobile/, testIgnore: DIRECTORY_WRITES, use: { ...devices["Pixel 7"], launchOptions } },
    {
      name: "desktop",
      grepInvert: /@mobile-only/,
      testIgnore: DIRECTORY_WRITES,
      use: { ...devices["Desktop Chrome"], viewport: { width: 1280, height: 800 }, launchOptions },
    },
  ],
  webServer: [server(port), server(ownersPort, "-owners")],
});

/**
 * `npm start`'s server on `port`. With `suffix`, a store of its own: the run's key prefix with
 * `suffix` before its last ":" ("ci-1:" -> "ci-1-owners:"), a sibling, not a key space inside it.
 */
function server(port: number, suffix = "") {
  const prefix = process.env.REDIS_KEY_PREFIX || "treeline:";
  return {
    // Without REDIS_URL each server shares one in-memory embedded store with its functions.
    command: "node runtime/serve.mjs",
    url: `http://127.0.0.1:${port}/api/health`,
    env: {
      PORT: String(port),
      HOST: "127.0.0.1",
      NODE_ENV: "test",
      REDIS_KEY_PREFIX: suffix ? prefix.replace(/:?$/, `${suffix}:`) : prefix,
      // With REDIS_URL (CI) the run's fresh key prefix starts empty: seed the directory.
      TREELINE_AUTO_SEED: "1",
      // Every e2e request comes from 127.0.0.1; the limiter itself is covered by function tests.
      RATE_LIMIT_PER_MINUTE: "1000",
      // A fixed test-only operator token for tests/e2e/admin.spec.ts (no secret: CI needs none).
      ADMIN_TOKEN: process.env.E2E_ADMIN_TOKEN || "e2e-admin-token-not-a-secret",
    },
    reuseExistingServer: false,
    timeout: 60_000,
    stdout: "pipe" as const,
    stderr: "pipe" as const,
  };
}
