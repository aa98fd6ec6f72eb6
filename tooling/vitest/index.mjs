// Shared vitest settings for every workspace package.
// Usage (in a package's vitest.config.ts):
//   import { defineShoplinkConfig } from "@shoplink/vitest-config"
//   export default defineShoplinkConfig()
import { defineConfig, mergeConfig } from "vitest/config"

/**
 * @param {import("vitest/config").UserConfig} [overrides]
 */
export const defineShoplinkConfig = (overrides = {}) =>
  mergeConfig(
    defineConfig({
      test: {
        include: ["test/**/*.test.ts"],
        // Tests start real loopback servers; keep the pool small on 2-core machines.
        pool: "forks",
        poolOptions: { forks: { maxForks: 2, minForks: 1 } },
        // A fork runs test file after test file instead of one fork per file: Effect, the platform
        // and the package's own modules load once per fork, not once per file (about half the CPU
        // of a package's run of small files). Test files therefore share a process: state a file
        // leaves behind (a module-level afterAll, process.env, a listener) must be its own to undo.
        isolate: false,
        // Bounds that catch a hang, not a slow machine: two test runs sharing 2 cores must pass.
        testTimeout: 120_000,
        hookTimeout: 120_000,
        reporters: process.env.CI ? ["default"] : ["default"],
        sequence: { hooks: "stack" }
      }
    }),
    defineConfig(overrides)
  )
