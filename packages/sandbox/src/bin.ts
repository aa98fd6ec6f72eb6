#!/usr/bin/env node
/**
 * `shoplink-sandbox [--port 4010] [--host 127.0.0.1] [--seed 1]`: runs the sandbox until SIGINT or
 * SIGTERM and prints its URLs and test credentials.
 *
 * @example
 * // pnpm sandbox -- --port 4010
 * // node packages/sandbox/dist/bin.js --port 4010 --seed 7
 *
 * @since 0.1.0
 */
import { NodeRuntime } from "@effect/platform-node"
import { Console, Effect } from "effect"
import { parseArgs } from "node:util"
import { SANDBOX_PO_REQUIRED_CUSTOMER } from "./Credentials.js"
import { startSandbox } from "./Sandbox.js"

const usage = "usage: shoplink-sandbox [--port <n>] [--host <address>] [--seed <n>]"

const parsed = (() => {
  try {
    return parseArgs({
      options: { port: { type: "string" }, host: { type: "string" }, seed: { type: "string" }, help: { type: "boolean", short: "h" } }
    }).values
  } catch (error) {
    console.error(`${(error as Error).message}\n${usage}`)
    process.exit(2)
  }
})()

if (parsed.help === true) {
  console.log(usage)
  process.exit(0)
}

const integer = (name: string, value: string | undefined, fallback: number) => {
  if (value === undefined) return fallback
  const n = Number(value)
  if (!Number.isInteger(n) || n < 0) {
    console.error(`--${name} must be a non-negative integer\n${usage}`)
    process.exit(2)
  }
  return n
}

const program = Effect.gen(function*() {
  const sandbox = yield* startSandbox({
    port: integer("port", parsed.port, 4010),
    host: parsed.host ?? "127.0.0.1",
    seed: integer("seed", parsed.seed, 1)
  })
  const c = sandbox.credentials
  yield* Console.log([
    `Shoplink sandbox listening on ${sandbox.url} (seed ${sandbox.seed})`,
    ``,
    `  Punchout create      POST ${sandbox.punchoutCreateUrl}`,
    `  Order Management     ${sandbox.omsBaseUrl("US_QUA")}  (also CA_QUA, US_PRD, CA_PRD)`,
    `  API docs             ${sandbox.openApi.docs}`,
    `  OpenAPI              ${sandbox.openApi.punchout}  ${sandbox.openApi.orderManagement}`,
    `  Admin                ${sandbox.adminUrl}`,
    ``,
    `Test credentials (public fixtures):`,
    `  vendor apiKey        ${c.vendorApiKey}`,
    `  OMS APIKey           test ${c.oms.testApiKey}   production ${c.oms.prodApiKey}`,
    `  US customer          accountNo ${c.customers.us.accountNo}  username ${c.customers.us.username}  apiToken ${c.customers.us.apiToken}`,
    `  CA customer          accountNo ${c.customers.ca.accountNo}  username ${c.customers.ca.username}  apiToken ${c.customers.ca.apiToken}`,
    `  P.O.-required        accountNo ${SANDBOX_PO_REQUIRED_CUSTOMER.accountNo}  username ${SANDBOX_PO_REQUIRED_CUSTOMER.username}  apiToken ${SANDBOX_PO_REQUIRED_CUSTOMER.apiToken}`,
    ``,
    `Ctrl-C stops it.`
  ].join("\n"))
  return yield* Effect.never
})

NodeRuntime.runMain(Effect.scoped(program), { disableErrorReporting: false })
