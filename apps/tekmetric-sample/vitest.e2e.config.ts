import { defineConfig } from "vitest/config"

// Browser tests (Debian chromium + playwright-core), kept out of the main `test` script.
export default defineConfig({
  test: {
    include: ["test-e2e/**/*.e2e.test.ts"],
    pool: "forks",
    poolOptions: { forks: { maxForks: 1, minForks: 1 } },
    testTimeout: 90_000,
    hookTimeout: 60_000
  }
})
