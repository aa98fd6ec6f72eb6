import { defineShoplinkConfig } from "@shoplink/vitest-config"

export default defineShoplinkConfig()
