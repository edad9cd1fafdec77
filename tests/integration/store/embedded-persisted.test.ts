/**
 * Contract suite on the embedded store persisted to a data folder, with compaction made to run
 * all the time (a fresh snapshot whenever the log passes 4 KB). At the end each folder is read
 * back by a new instance and must hold exactly what the running one held: every key, value
 * and expiry, through the log, the snapshots written while the tests wrote, and replay.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, expect } from "vitest";
import { createStore, lendEmbeddedBackend, type Store } from "../../../netlify/lib/store/index.ts";
import { EmbeddedBackend } from "../../../netlify/lib/store/transports/embedded.ts";
import { defineStoreContract } from "./contract.ts";
import { contentsOf } from "./embedded-contents.ts";

const dir = mkdtempSync(join(tmpdir(), "treeline-persisted-contract-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

defineStoreContract("embedded, persisted", async () => {
  const opened: { store: Store; backend: EmbeddedBackend; file: string }[] = [];
  return {
    async fresh(label) {
      const file = join(dir, `${label}-${opened.length}`, "store.json");
      const backend = new EmbeddedBackend({ file, compactMinBytes: 4096, compactRatio: 0.5 });
      lendEmbeddedBackend(backend);
      try {
        const store = createStore({ transport: "embedded", prefix: `treeline:test:${label}:` });
        opened.push({ store, backend, file });
        return store;
      } finally {
        lendEmbeddedBackend(undefined);
      }
    },
    async teardown() {
      for (const { store, backend, file } of opened) {
        await store.close();
        const held = await contentsOf(backend);
        await backend.close();
        const reopened = new EmbeddedBackend({ file });
        try {
          expect(await contentsOf(reopened), file).toEqual(held);
        } finally {
          await reopened.close();
        }
      }
    },
  };
});
