#!/usr/bin/env node
/**
 * `shoplink-sandbox [--port 4010] [--host 127.0.0.1] [--seed 1] [--admin-token <secret>]
 * [--out-of-stock refuse|back-order]`: runs the sandbox until SIGINT or SIGTERM and prints its URLs
 * and test credentials.
 *
 * @example
 * // pnpm sandbox --port 4010          (or: pnpm sandbox -- --port 4010)
 * // node packages/sandbox/dist/bin.js --port 4010 --seed 7
 * // SHOPLINK_SANDBOX_ADMIN_TOKEN=s3cret node packages/sandbox/dist/bin.js --host 0.0.0.0
 *
 * @since 0.1.0
 */
import * as NodeRuntime from "@effect/platform-node/NodeRuntime"
import * as Cause from "effect/Cause"
import * as Console from "effect/Console"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Logger from "effect/Logger"
import * as LogLevel from "effect/LogLevel"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import { parseArgs } from "node:util"
import { OrderManagement } from "@shoplink/protocol"
import { SANDBOX_PO_REQUIRED_CUSTOMER } from "./Credentials.js"
import { startSandbox } from "./Sandbox.js"

const usage =
  "usage: shoplink-sandbox [--port <n>] [--host <address>] [--seed <n>] [--admin-token <secret>] [--out-of-stock refuse|back-order]"

// `pnpm sandbox -- --port 4010` hands the script a literal `--` first; parseArgs would take it as the
// end of options and everything after it as (refused) positionals.
const argv = process.argv.slice(2)
if (argv[0] === "--") argv.shift()

const parsed = (() => {
  try {
    return parseArgs({
      args: argv,
      options: {
        port: { type: "string" },
        host: { type: "string" },
        seed: { type: "string" },
        "admin-token": { type: "string" },
        "out-of-stock": { type: "string" },
        help: { type: "boolean", short: "h" }
      }
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

const refuse = (message: string): never => {
  console.error(`${message}\n${usage}`)
  process.exit(2)
}

const integer = (name: string, value: string | undefined, fallback: number, max = Number.MAX_SAFE_INTEGER) => {
  if (value === undefined) return fallback
  const n = Number(value)
  if (!Number.isInteger(n) || n < 0 || n > max) return refuse(`--${name} must be an integer from 0 to ${max}`)
  return n
}

const port = integer("port", parsed.port, 4010, 65535)
const host = parsed.host ?? "127.0.0.1"
const seed = integer("seed", parsed.seed, 1)
const outOfStockFlag = parsed["out-of-stock"] ?? "refuse"
if (outOfStockFlag !== "refuse" && outOfStockFlag !== "back-order") {
  refuse("--out-of-stock must be refuse or back-order")
}
if (parsed["admin-token"] !== undefined && parsed["admin-token"].trim() === "") {
  refuse("--admin-token must not be empty")
}
// An empty variable counts as unset, as shells and .env files leave it.
const adminTokenText = parsed["admin-token"] ?? (process.env["SHOPLINK_SANDBOX_ADMIN_TOKEN"]?.trim() || undefined)
const adminToken = adminTokenText === undefined ? undefined : Redacted.make(adminTokenText.trim())

// Log lines as the other Shoplink processes write them: SHOPLINK_LOG_FORMAT (json, logfmt, pretty;
// auto or unset: pretty on a terminal, else logfmt) and SHOPLINK_LOG_LEVEL (default info), one line
// per event on stdout. With JSON the banner goes to stderr, so stdout holds JSON lines only.
const logFormat = (() => {
  const value = (process.env["SHOPLINK_LOG_FORMAT"] ?? "").trim().toLowerCase()
  if (value === "json" || value === "logfmt" || value === "pretty") return value
  if (value !== "" && value !== "auto") refuse("SHOPLINK_LOG_FORMAT must be json, logfmt, pretty or auto")
  return process.stdout.isTTY === true ? "pretty" : "logfmt"
})()
const logLevel = (() => {
  const value = (process.env["SHOPLINK_LOG_LEVEL"] ?? "").trim().toLowerCase()
  const levels: Record<string, LogLevel.LogLevel> = {
    "": LogLevel.Info,
    trace: LogLevel.Trace,
    debug: LogLevel.Debug,
    info: LogLevel.Info,
    warn: LogLevel.Warning,
    warning: LogLevel.Warning,
    error: LogLevel.Error,
    none: LogLevel.None
  }
  return levels[value] ?? refuse("SHOPLINK_LOG_LEVEL must be one of trace, debug, info, warning, error, none")
})()
const logger = Logger.replace(
  Logger.defaultLogger,
  logFormat === "json"
    ? Logger.withConsoleLog(Logger.jsonLogger)
    : logFormat === "logfmt"
    ? Logger.withConsoleLog(Logger.logfmtLogger)
    : Logger.prettyLogger()
)
const banner = (text: string) => (logFormat === "json" ? Console.error(text) : Console.log(text))

const isLoopback = (h: string) => h === "localhost" || h === "::1" || h === "[::1]" || /^127(\.\d{1,3}){3}$/.test(h)

/** Why the server could not listen, in one line, for the errors a user can fix from the command line. */
const listenProblem = (defect: unknown): string | undefined => {
  const cause = (defect as { readonly cause?: { readonly code?: unknown; readonly message?: unknown } } | null)?.cause
  switch (cause?.code) {
    case "EADDRINUSE":
      return `shoplink-sandbox: port ${port} on ${host} is already in use; stop what is using it, or pick another with --port (0 picks a free one)`
    case "EACCES":
      return `shoplink-sandbox: not allowed to listen on ${host}:${port} (ports below 1024 need privileges); pick another with --port`
    case "EADDRNOTAVAIL":
    case "ENOTFOUND":
      return `shoplink-sandbox: cannot listen on ${host}: no such local address; use --host 127.0.0.1 or 0.0.0.0`
    default:
      return undefined
  }
}

class ListenFailed {
  readonly _tag = "ListenFailed"
  constructor(readonly message: string) {}
}

const program = Effect.gen(function*() {
  // Runs last, after the sandbox's server has closed: one line when a signal stops it (a failure to
  // start is said on stderr instead).
  yield* Effect.addFinalizer((exit) => Exit.isInterrupted(exit) ? Effect.logInfo("sandbox stopped") : Effect.void)
  if (!isLoopback(host) && adminToken === undefined) {
    yield* Console.error(
      `warning: --host ${host} exposes the admin API (/__sandbox/) to the network with no authentication: anyone who can reach this port can add customers, move the clock and inject faults. Pass --admin-token <secret> (or set SHOPLINK_SANDBOX_ADMIN_TOKEN) to require it.`
    )
  }
  const sandbox = yield* startSandbox({
    port,
    host,
    seed,
    outOfStock: outOfStockFlag === "back-order" ? "backOrder" : "refuse",
    adminToken
  }).pipe(
    Effect.catchSomeDefect((defect) =>
      Option.map(Option.fromNullable(listenProblem(defect)), (line) => Effect.fail(new ListenFailed(line)))
    )
  )
  const c = sandbox.credentials
  const [first, ...others] = OrderManagement.Environment.literals
  yield* Effect.logInfo("sandbox listening").pipe(Effect.annotateLogs({ url: sandbox.url, seed: sandbox.seed }))
  yield* banner([
    `Shoplink sandbox listening on ${sandbox.url} (seed ${sandbox.seed})`,
    ``,
    `  Punchout create      POST ${sandbox.punchoutCreateUrl}`,
    `  Order Management     ${sandbox.omsBaseUrl(first)}  (also ${others.join(", ")})`,
    `  API docs             ${sandbox.openApi.docs}`,
    `  OpenAPI              ${sandbox.openApi.punchout}  ${sandbox.openApi.orderManagement}`,
    `  Admin                ${sandbox.adminUrl}${
      adminToken === undefined ? "" : "  (needs Authorization: Bearer <admin token>)"
    }`,
    `  Out of stock         ${
      outOfStockFlag === "back-order" ? "back-ordered (dispatched a week later)" : "refused (API0234)"
    }`,
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

// Errors are reported here rather than by runMain: a problem the user can fix is one line, not a trace.
NodeRuntime.runMain(
  Effect.scoped(program).pipe(
    Effect.tapErrorCause((cause) =>
      Cause.isInterruptedOnly(cause)
        ? Effect.void
        : Console.error(
          Option.match(Cause.failureOption(cause), { onNone: () => Cause.pretty(cause), onSome: (e) => e.message })
        )
    ),
    Effect.provide(logger),
    Logger.withMinimumLogLevel(logLevel)
  ),
  // The logger above is the only one: runMain's own pretty logger would write every event again.
  { disableErrorReporting: true, disablePrettyLogger: true }
)
