import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    // Dataset builds for integration tests take tens of seconds on the first run.
    testTimeout: 120_000,
    hookTimeout: 600_000,
    reporters: ["default", "json"],
    outputFile: { json: ".vitest-results.json" },
    pool: "forks",
  },
});
