/**
 * Every read and write goes through the store's repositories: the raw client (`store.redis`)
 * is used only inside netlify/lib/store, so the contract suite, which runs the repositories on
 * every transport, covers everything the site keeps. Scanned: the site's code and its
 * operations scripts; tests and benches are instruments and may look at the raw key layout.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative, sep } from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = join(import.meta.dirname, "..", "..");
const SCANNED = ["netlify", "src", "scripts"];
const CODE = /\.(?:[cm]?[jt]sx?|astro)$/;
const STORE = `netlify${sep}lib${sep}store${sep}`;
/**
 * Files still on the raw client while their queue moves into a repository. Each entry must
 * still need its allowance: a stale one fails below, so the list only ever shrinks.
 */
const PENDING: readonly string[] = [];

/** `store.redis`, `x.store.redis`, `const { redis } = store` and the like. */
const RAW_CLIENT = /\bstore\s*\??\.\s*redis\b|\{[^}]*\bredis\b[^}]*\}\s*=\s*[\w.]*\bstore\b/;

function* files(dir: string): Generator<string> {
  for (const name of readdirSync(dir)) {
    if (name === "node_modules" || name.startsWith(".")) continue;
    const path = join(dir, name);
    if (statSync(path).isDirectory()) yield* files(path);
    else if (CODE.test(name)) yield path;
  }
}

function rawClientUsers(): string[] {
  const found: string[] = [];
  for (const top of SCANNED)
    for (const path of files(join(ROOT, top))) {
      const rel = relative(ROOT, path);
      if (rel.startsWith(STORE)) continue;
      if (RAW_CLIENT.test(readFileSync(path, "utf8"))) found.push(rel.split(sep).join("/"));
    }
  return found.sort();
}

describe("store boundary", () => {
  const users = rawClientUsers();

  it("no code outside netlify/lib/store uses the raw client", () => {
    expect(users.filter((f) => !PENDING.includes(f))).toEqual([]);
  });

  it("every pending allowance is still needed", () => {
    expect(PENDING.filter((f) => !users.includes(f))).toEqual([]);
  });

  it("recognises the raw client however it is reached", () => {
    for (const text of [
      "store.redis.get(k)",
      "h.store.redis.del(k)",
      "store?.redis",
      "const { redis, prefix } = store;",
    ])
      expect(RAW_CLIENT.test(text), text).toBe(true);
    for (const text of ["store.redisUrl", "restore.redis", "store.leads.get(id)"])
      expect(RAW_CLIENT.test(text), text).toBe(false);
  });
});
