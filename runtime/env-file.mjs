// `npm start` and `npm run dev` read a `.env` in the project folder (.env.example says how):
// a variable already set in the environment wins over the file, and under a test runner the
// file is not read at all, so a developer's own settings never leak into the tests.
import { existsSync, readFileSync } from "node:fs";
import { resolve } from "node:path";
import { parseEnv } from "node:util";

/** Loads `.env` into process.env without overriding; returns the names it set. */
export function loadDotEnv(file = resolve(".env")) {
  if (process.env.NODE_ENV === "test" || process.env.VITEST || !existsSync(file)) return [];
  const set = [];
  for (const [name, value] of Object.entries(parseEnv(readFileSync(file, "utf8")))) {
    if (process.env[name] !== undefined) continue;
    process.env[name] = value;
    set.push(name);
  }
  return set;
}
