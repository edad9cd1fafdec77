import { statSync } from "node:fs";
import { BaseSequencer, type TestSpecification } from "vitest/node";
import { defineConfig } from "vitest/config";

/**
 * Files that hold a worker for long while mostly waiting (a dev server starting, a deadline,
 * a server seeding its store): started first, so they overlap with everything else instead
 * of finishing last. Then the integration files, then the unit files, each larger first.
 * The same order every run (no cache of earlier runs, which a clean clone does not have).
 */
const FIRST = [
  "tests/integration/local-routing.test.ts",
  "tests/integration/site.test.ts",
  "tests/integration/faults.test.ts",
  "tests/integration/serve.test.ts",
];

class SlowFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const rank = (spec: TestSpecification) => {
      const first = FIRST.findIndex((path) => spec.moduleId.endsWith(path));
      if (first >= 0) return first;
      return spec.moduleId.includes("/tests/integration/") ? FIRST.length : FIRST.length + 1;
    };
    const size = (spec: TestSpecification) => statSync(spec.moduleId).size;
    return [...files].sort((a, b) => rank(a) - rank(b) || size(b) - size(a));
  }
}

export default defineConfig({
  test: {
    // Node by default; the island component tests opt into happy-dom per file (`// @vitest-environment happy-dom`).
    environment: "node",
    // Integration suites share one Redis; files run in parallel but each uses its own key prefix.
    // Each file on its own (isolate, the default), so no module state crosses files. Many files
    // mostly wait (servers they start, Redis, deadlines), so more workers than cores: vitest's
    // default on two cores is one worker.
    maxWorkers: 3,
    sequence: { sequencer: SlowFirst },
    testTimeout: 20_000,
    hookTimeout: 30_000,
    projects: [
      {
        extends: true,
        // Pure modules, islands and the built pages: a worker thread each (still a fresh module
        // graph per file) starts in a fraction of a process's time; their environment changes
        // stay in the thread (a worker's process.env is its own copy).
        test: { name: "unit", include: ["tests/unit/**/*.test.ts", "tests/unit/**/*.test.tsx"], pool: "threads" },
      },
      {
        extends: true,
        // Servers, child processes, signals and the working directory: a process each.
        test: { name: "integration", include: ["tests/integration/**/*.test.ts"], pool: "forks" },
      },
    ],
  },
});
