/** `.env` for npm start and npm run dev: read without overriding, and never under a test runner. */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { loadDotEnv } from "../../runtime/env-file.mjs";

const dir = mkdtempSync(join(tmpdir(), "treeline-env-"));
const file = join(dir, ".env");
const saved = { VITEST: process.env.VITEST, NODE_ENV: process.env.NODE_ENV };
afterEach(() => {
  // process.env turns an assigned undefined into "undefined": unset ones are deleted.
  for (const [name, value] of Object.entries(saved)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  delete process.env.TREELINE_TEST_FROM_FILE;
  delete process.env.TREELINE_TEST_ALREADY_SET;
});

describe("loadDotEnv", () => {
  it("sets what the environment lacks and leaves what it has", () => {
    writeFileSync(file, 'TREELINE_TEST_FROM_FILE="from file"\nTREELINE_TEST_ALREADY_SET=file\n# a comment\n');
    process.env.TREELINE_TEST_ALREADY_SET = "environment";
    delete process.env.VITEST;
    delete process.env.NODE_ENV;
    expect(loadDotEnv(file)).toEqual(["TREELINE_TEST_FROM_FILE"]);
    expect(process.env.TREELINE_TEST_FROM_FILE).toBe("from file");
    expect(process.env.TREELINE_TEST_ALREADY_SET).toBe("environment");
  });

  it("reads nothing under a test runner, or without a file", () => {
    writeFileSync(file, "TREELINE_TEST_FROM_FILE=x\n");
    expect(loadDotEnv(file)).toEqual([]);
    delete process.env.VITEST;
    process.env.NODE_ENV = "test";
    expect(loadDotEnv(file)).toEqual([]);
    delete process.env.NODE_ENV;
    expect(loadDotEnv(join(dir, "missing.env"))).toEqual([]);
    expect(process.env.TREELINE_TEST_FROM_FILE).toBeUndefined();
    rmSync(dir, { recursive: true, force: true });
  });
});

describe(".env.example", () => {
  // `cp .env.example .env` is the README's first step: a SITE_URL set there would send every
  // message's link (sign-in, status, answer) of a local `npm start` to a site that is not this one.
  it("leaves SITE_URL unset, so a local server's messages link to itself", () => {
    const set = readFileSync(new URL("../../.env.example", import.meta.url), "utf8")
      .split("\n")
      .filter((line) => /^[A-Z0-9_]+=/.test(line))
      .map((line) => line.slice(0, line.indexOf("=")));
    expect(set).not.toContain("SITE_URL");
    expect(set).not.toContain("URL");
    expect(set).toContain("PORT");
  });
});
