/**
 * Transport selection and the protocol adapters that make three backends look like Upstash.
 */
import { describe, expect, it } from "vitest";
import { resolve } from "node:path";
import { existsSync } from "node:fs";
import { storeOptionsFromEnv, createStore } from "../../netlify/lib/store/index.ts";
import { embeddedFileFromEnv } from "../../netlify/lib/store/local.ts";
import { portableScript } from "../../netlify/lib/store/transports/lua-registry.ts";
import { toRestValue } from "../../netlify/lib/store/transports/requester.ts";
import { indexTerms, queryTerms } from "../../netlify/lib/store/text.ts";

describe("storeOptionsFromEnv", () => {
  it("prefers Upstash, then REDIS_URL, then the embedded store", () => {
    const upstash = {
      UPSTASH_REDIS_REST_URL: "https://eu1.upstash.io",
      UPSTASH_REDIS_REST_TOKEN: "t",
      REDIS_URL: "redis://x",
    };
    expect(storeOptionsFromEnv(upstash)).toMatchObject({
      transport: "upstash",
      url: "https://eu1.upstash.io",
      prefix: "treeline:",
    });
    expect(storeOptionsFromEnv({ UPSTASH_REDIS_REST_URL: "https://x", REDIS_URL: "redis://h:1" })).toMatchObject({
      transport: "redis",
      url: "redis://h:1",
    });
    expect(storeOptionsFromEnv({ REDIS_KEY_PREFIX: "ci-1:" })).toMatchObject({
      transport: "embedded",
      prefix: "ci-1:",
    });
  });

  it("keeps a function's embedded store in memory; the local server persists it under .data", () => {
    expect(storeOptionsFromEnv({ TREELINE_DATA_DIR: "/tmp/x" })).not.toHaveProperty("file");
    expect(embeddedFileFromEnv({})).toBe(resolve(".data/store.json"));
    expect(embeddedFileFromEnv({ TREELINE_DATA_DIR: "/tmp/x" })).toBe("/tmp/x/store.json");
    expect(embeddedFileFromEnv({ VITEST: "true" })).toBeUndefined();
    expect(embeddedFileFromEnv({ NODE_ENV: "test" })).toBeUndefined();
    expect(embeddedFileFromEnv({ NODE_ENV: "test", TREELINE_EMBEDDED_PERSIST: "1" })).toBe(resolve(".data/store.json"));
    expect(embeddedFileFromEnv({ TREELINE_EMBEDDED_PERSIST: "false" })).toBeUndefined();
  });

  it("seeds on first use for the embedded store only, unless TREELINE_AUTO_SEED says otherwise", () => {
    const seedFile = resolve("content/directory/businesses.json");
    const present = (o: { seedFile?: string }) => o.seedFile === seedFile;
    expect(present(storeOptionsFromEnv({ REDIS_URL: "redis://h" }))).toBe(false);
    expect(present(storeOptionsFromEnv({ REDIS_URL: "redis://h", TREELINE_AUTO_SEED: "1" }))).toBe(
      existsSync(seedFile),
    );
    expect(present(storeOptionsFromEnv({}))).toBe(existsSync(seedFile));
    expect(storeOptionsFromEnv({ TREELINE_AUTO_SEED: "0" }).seedFile).toBeUndefined();
    expect(storeOptionsFromEnv({ TREELINE_SEED_FILE: "/nonexistent.json" }).seedFile).toBeUndefined();
  });

  it("keeps credentials out of the description", () => {
    const store = createStore({ transport: "redis", url: "redis://user:secret@127.0.0.1:6379/0" });
    expect(store.description).not.toContain("secret");
    expect(store.kind).toBe("redis");
  });
});

describe("Lua portability", () => {
  const flagged = "#!lua flags=allow-key-locking\nreturn 1";
  it("drops Upstash's allow-key-locking flag, keeping line numbers", () => {
    expect(portableScript(flagged, true)).toBe("-- #!lua flags=allow-key-locking\nreturn 1");
    expect(portableScript("#!lua flags=no-writes,allow-key-locking\nreturn 1", true)).toBe(
      "#!lua flags=no-writes\nreturn 1",
    );
    expect(portableScript("#!lua flags=no-writes\nreturn 1", false)).toBe("-- #!lua flags=no-writes\nreturn 1");
    expect(portableScript("return 1", true)).toBe("return 1");
  });
});

describe("REST reply shapes", () => {
  it("flattens hashes and maps nil/booleans/buffers like the REST API", () => {
    expect(toRestValue({ a: "1", b: "2" })).toEqual(["a", "1", "b", "2"]);
    expect(toRestValue([Buffer.from("x"), false, undefined, 3])).toEqual(["x", null, null, 3]);
  });
});

describe("search terms", () => {
  it("indexes words and their prefixes, accent- and case-free", () => {
    const terms = indexTerms(["Café Oaks", "24/7 Service"]);
    expect(terms).toEqual(expect.arrayContaining(["caf", "cafe", "oak", "oaks", "24", "7", "ser", "service"]));
    expect(terms).not.toContain("ca");
    expect(queryTerms("  The OAK's   café ")).toEqual(["cafe", "oaks"]);
    expect(queryTerms("a b c d e f g h")).toHaveLength(5);
  });
});
