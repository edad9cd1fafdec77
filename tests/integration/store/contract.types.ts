/** What each transport's test file hands the store contract (contract.ts) and its parts. */
import type { Store } from "../../../netlify/lib/store/index.ts";

export interface StoreHarness {
  /** A new, empty store with its own prefix. */
  fresh(label: string): Promise<Store>;
  /** Releases everything fresh() created. */
  teardown(): Promise<void>;
}
