import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["tests/unit/**/*.test.ts", "tests/unit/**/*.test.tsx", "tests/integration/**/*.test.ts"],
    // Node by default; the island component tests opt into happy-dom per file (`// @vitest-environment happy-dom`).
    environment: "node",
    // Integration suites share one Redis; files run in parallel but each uses its own key prefix.
    testTimeout: 20_000,
    hookTimeout: 30_000,
  },
});
