import { defineShoplinkConfig } from "@shoplink/vitest-config"

export default defineShoplinkConfig({ test: { include: ["test/**/*.test.mjs"] } })
