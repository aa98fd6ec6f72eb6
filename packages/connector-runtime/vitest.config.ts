import { defineShoplinkConfig } from "@shoplink/vitest-config"

// The PostgreSQL store tests need a server: the one at SHOPLINK_TEST_DATABASE_URL, or a throwaway
// cluster the global setup starts (see @shoplink/vitest-config/postgres).
export default defineShoplinkConfig({
  test: {
    globalSetup: ["@shoplink/vitest-config/postgres-setup"],
    // Removes the scratch SQLite folder of connector-runtime/test/fixtures.ts after each test file.
    setupFiles: ["./test/setup.ts"]
  }
})
