/**
 * Every read and write goes through the store's repositories: the raw client (`store.redis`)
 * is used only inside netlify/lib/store, so the contract suite, which runs the repositories on
 * every transport, covers everything the site keeps. Scanned: the site's code and its
 * operations scripts; tests and benches are instruments and may look at the raw key layout.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { REPO_ROOT, repoFiles } from "../helpers/repo-files.ts";

const SCANNED = ["netlify", "src", "scripts", "runtime"];
const CODE = /\.(?:[cm]?[jt]sx?|astro)$/;
const STORE = "netlify/lib/store/";

/** `store.redis`, `x.store.redis`, `const { redis } = store` and the like. */
const RAW_CLIENT = /\bstore\s*\??\.\s*redis\b|\{[^}]*\bredis\b[^}]*\}\s*=\s*[\w.]*\bstore\b/;

function rawClientUsers(): string[] {
  return repoFiles(SCANNED, CODE).filter(
    (path) => !path.startsWith(STORE) && RAW_CLIENT.test(readFileSync(join(REPO_ROOT, path), "utf8")),
  );
}

describe("store boundary", () => {
  const users = rawClientUsers();

  it("no code outside netlify/lib/store uses the raw client", () => {
    expect(users).toEqual([]);
  });

  it("recognizes the raw client however it is reached", () => {
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
