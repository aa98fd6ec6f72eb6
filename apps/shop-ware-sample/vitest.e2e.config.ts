import { defineShoplinkE2eConfig } from "@shoplink/vitest-config/e2e"

// Browser tests (Debian chromium + playwright-core), kept out of the main `test` script.
export default defineShoplinkE2eConfig()
