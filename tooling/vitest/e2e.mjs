// Shared settings of the browser (e2e) tests: the vitest config every app's vitest.e2e.config.ts
// uses, and how Chromium is launched (Debian's chromium through playwright-core).
// Usage (in an app's vitest.e2e.config.ts):
//   import { defineShoplinkE2eConfig } from "@shoplink/vitest-config/e2e"
//   export default defineShoplinkE2eConfig()
import { defineConfig, mergeConfig } from "vitest/config"

/**
 * Browser tests in `test-e2e/`, one at a time (a browser is heavy on 2-core machines), with room
 * for a browser's start-up.
 *
 * @param {import("vitest/config").UserConfig} [overrides]
 */
export const defineShoplinkE2eConfig = (overrides = {}) =>
  mergeConfig(
    defineConfig({
      test: {
        include: ["test-e2e/**/*.e2e.test.ts"],
        pool: "forks",
        poolOptions: { forks: { maxForks: 1, minForks: 1 } },
        testTimeout: 90_000,
        hookTimeout: 60_000
      }
    }),
    defineConfig(overrides)
  )

/** The flags Chromium runs headless with here: no sandbox, GPU, background traffic or first-run UI. */
export const CHROMIUM_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run"
]

/** Options for playwright-core's `chromium.launch`: `CHROMIUM_PATH` or /usr/bin/chromium, with `CHROMIUM_ARGS`. */
export const chromiumLaunchOptions = () => ({
  executablePath: process.env["CHROMIUM_PATH"] ?? "/usr/bin/chromium",
  args: CHROMIUM_ARGS
})
