// vitest globalSetup entry: `globalSetup: ["@shoplink/vitest-config/postgres-setup"]`.
export { postgresGlobalSetup as default } from "./postgres.mjs"
