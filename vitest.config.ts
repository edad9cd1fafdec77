import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["tests/unit/**/*.test.ts", "tests/integration/**/*.test.ts"],
    environment: "node",
    // Integration suites share one Redis; files run in parallel but each uses its own key prefix.
    testTimeout: 20_000,
    hookTimeout: 30_000,
  },
});
