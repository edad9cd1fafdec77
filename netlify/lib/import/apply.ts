/**
 * Writing a planned import: each new or updated business upserted by id (so a write repeated
 * after a failure or a timeout lands once), then one purge of the directory's cached pages.
 * With a deadline (the admin upload runs in a function with a time limit) it starts no write
 * past it but the first; what it did not reach is left for the next run, which plans it again.
 */
import { ConflictError } from "../store/errors.ts";
import { DIRECTORY_TAG, purgeQuietly, type Purge } from "../directory.ts";
import type { Store } from "../store/index.ts";
import type { ImportPlan } from "./plan.ts";

export interface Applied {
  /** Businesses written (new and updated). */
  written: number;
  /** Planned writes not reached before the deadline: run the import again for them. */
  remaining: number;
  /** Writes the store refused, by business. */
  failed: { id: string; name: string; lines: number[]; reason: string }[];
  /** True when the directory's cached pages were purged (something was written). */
  purged: boolean;
}

export interface ApplyOptions {
  /** Drops the CDN's copies by tag (netlifyPurge in a function; scripts/import.ts picks). */
  purge: Purge;
  /** Clock and deadline (ms) for a run with a time limit. */
  now?: () => number;
  deadline?: number;
}

export async function applyPlan(store: Store, plan: ImportPlan, options: ApplyOptions): Promise<Applied> {
  const now = options.now ?? Date.now;
  const writes = plan.changes.filter((c) => c.kind === "new" || c.kind === "updated");
  const applied: Applied = { written: 0, remaining: 0, failed: [], purged: false };
  await store.batch(async () => {
    for (const [i, change] of writes.entries()) {
      // The first write always goes, so applying again always gets further.
      if (i > 0 && options.deadline !== undefined && now() >= options.deadline) {
        applied.remaining = writes.length - i;
        break;
      }
      try {
        await store.businesses.upsert(change.business);
        applied.written++;
      } catch (error) {
        // Another business took the slug since the plan was made: the next run picks another.
        if (!(error instanceof ConflictError)) throw error;
        applied.failed.push({ id: change.id, name: change.name, lines: change.lines, reason: error.message });
      }
    }
  });
  if (applied.written > 0) {
    await purgeQuietly(options.purge, [DIRECTORY_TAG]);
    applied.purged = true;
  }
  return applied;
}
