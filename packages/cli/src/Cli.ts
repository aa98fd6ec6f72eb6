/**
 * `Cli`: the `shoplink` command tree (built with @effect/cli) and `run`, which parses arguments,
 * runs the command, prints failures and returns the process exit code.
 *
 * @since 0.1.0
 */
import * as Command from "@effect/cli/Command"
import * as HelpDoc from "@effect/cli/HelpDoc"
import type * as CliApp from "@effect/cli/CliApp"
import { Console, Effect } from "effect"
import { readFileSync } from "node:fs"
import * as ExitCode from "./ExitCode.js"
import * as ShoplinkConfig from "./ShoplinkConfig.js"
import { doctorCommand } from "./internal/doctor.js"
import { help } from "./internal/help.js"
import { omsCommand } from "./internal/omsCommands.js"
import { reportError } from "./internal/output.js"
import { punchoutCommand } from "./internal/punchoutCommands.js"
import { sandboxCommand } from "./internal/sandboxStart.js"
import { webhookCommand } from "./internal/webhookListen.js"

/**
 * The root `shoplink` command with every subcommand.
 *
 * @example
 * import { Command } from "@effect/cli"
 * import { Cli } from "@shoplink/cli"
 * const names = Command.getNames(Cli.command) // HashSet containing "shoplink"
 *
 * @since 0.1.0
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export const command: Command.Command<"shoplink", never, unknown, any> = Command.make("shoplink").pipe(
  Command.withDescription(help(
    "Check credentials and try the distributor's Punchout and Order Management APIs.",
    [
      "shoplink doctor",
      "shoplink punchout quotes \"oil filter\" --qty 2",
      "shoplink oms price 51515 --brand WIX --env US_QUA --json",
      "shoplink webhook listen --port 8787"
    ]
  )),
  Command.withSubcommands([doctorCommand, punchoutCommand, omsCommand, webhookCommand, sandboxCommand])
)

const version = (() => {
  try {
    const pkg = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as { version?: string }
    return pkg.version ?? "0.0.0"
  } catch {
    return "0.0.0"
  }
})()

const footer = HelpDoc.blocks([
  HelpDoc.h1("EXIT CODES"),
  ...ExitCode.describe().map(([code, text]) => HelpDoc.p(`  ${code}  ${text}`)),
  HelpDoc.h1("CONFIGURATION"),
  HelpDoc.p(
    `Environment variables, else --config <file> or ./${ShoplinkConfig.DEFAULT_CONFIG_FILE} (environment wins). Secrets are never printed.`
  ),
  ...Object.values(ShoplinkConfig.SETTINGS).map((d) => HelpDoc.p(`  ${d.env.padEnd(30)} ${d.description}`))
])

// Help and parse errors come styled with ANSI escapes; keep them only for a colour terminal.
// eslint-disable-next-line no-control-regex
const ansi = /\u001b\[[0-9;]*m/g
const strip = (args: ReadonlyArray<unknown>) => args.map((a) => (typeof a === "string" ? a.replace(ansi, "") : a))
const plain = <A, E, R>(effect: Effect.Effect<A, E, R>) =>
  Console.consoleWith((base) =>
    Effect.withConsole(effect, {
      ...base,
      log: (...args) => base.log(...strip(args)),
      error: (...args) => base.error(...strip(args))
    })
  )
const colour = () => process.stdout.isTTY === true && process.env["NO_COLOR"] === undefined

const cli = Command.run(command, { name: "shoplink", version, footer })

/**
 * Runs the CLI for `argv` (as `process.argv`: runtime and script first). Failures are printed to
 * stderr (as JSON with `--json`) and mapped to an exit code; the Effect never fails. Needs the
 * platform services of `NodeContext.layer`.
 *
 * @example
 * import { NodeContext } from "@effect/platform-node"
 * import { Console, Effect } from "effect"
 * import { Cli } from "@shoplink/cli"
 * const code = await Effect.runPromise(
 *   Cli.run(["node", "shoplink", "doctor", "--json"]).pipe(Effect.provide(NodeContext.layer))
 * )
 *
 * @since 0.1.0
 */
export const run = (argv: ReadonlyArray<string>): Effect.Effect<number, never, CliApp.CliApp.Environment> =>
  cli(argv).pipe(
    (effect) => (colour() ? effect : plain(effect)),
    Effect.as(ExitCode.ExitCode.Ok as number),
    Effect.catchAll((error) => {
      // Doctor and @effect/cli's own parse errors have already been printed.
      if (typeof error === "object" && error !== null && "_tag" in error && error._tag === "DoctorFailed") {
        return Effect.succeed((error as unknown as { exitCode: number }).exitCode)
      }
      if (ExitCode.exitCodeOf(error) === ExitCode.ExitCode.Usage && "error" in (error as object) && !("message" in (error as object))) {
        return Effect.succeed(ExitCode.ExitCode.Usage as number)
      }
      return reportError(error, argv.includes("--json"))
    })
  )
