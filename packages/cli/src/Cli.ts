/**
 * `Cli`: the `shoplink` command tree (built with @effect/cli from the command spec that also
 * renders `--help`) and `run`, which parses arguments, runs the command, prints failures and
 * returns the process exit code.
 *
 * @since 0.1.0
 */
import * as Args from "@effect/cli/Args"
import * as Command from "@effect/cli/Command"
import * as Options from "@effect/cli/Options"
import type * as CliApp from "@effect/cli/CliApp"
import * as Console from "effect/Console"
import * as Effect from "effect/Effect"
import * as ExitCode from "./ExitCode.js"
import { err, out, reportError } from "./internal/output.js"
import { formatUsage, route } from "./internal/router.js"
import * as Spec from "./internal/spec.js"
import { VERSION } from "./internal/version.js"

type Handler = (args: any) => Effect.Effect<void, unknown>

/** Ties a leaf of the spec to its handler, checking that the handler takes what the spec parses. */
const bind = <L extends Spec.LeafSpec>(
  spec: L,
  load: () => Promise<(args: Spec.ArgsOf<L>) => Effect.Effect<void, unknown>>
): readonly [Spec.LeafSpec, () => Promise<Handler>] => [spec, load]

// Command modules load when their command runs, not when the CLI starts.
const handlers = new Map<Spec.LeafSpec, () => Promise<Handler>>([
  bind(Spec.doctor, () => import("./internal/doctor.js").then((m) => m.doctor)),
  bind(Spec.punchoutSessionCreate, () => import("./internal/punchoutCommands.js").then((m) => m.sessionCreate)),
  bind(Spec.punchoutSessionUrl, () => import("./internal/punchoutCommands.js").then((m) => m.sessionUrl)),
  bind(Spec.punchoutQuotes, () => import("./internal/punchoutCommands.js").then((m) => m.quotes)),
  bind(Spec.punchoutOrderCreate, () => import("./internal/punchoutCommands.js").then((m) => m.orderCreate)),
  bind(Spec.punchoutOrderSubmit, () => import("./internal/punchoutCommands.js").then((m) => m.orderSubmit)),
  bind(Spec.punchoutOrderReserve, () => import("./internal/punchoutCommands.js").then((m) => m.orderReserve)),
  bind(Spec.punchoutCatalog, () => import("./internal/punchoutCommands.js").then((m) => m.catalog)),
  bind(Spec.omsAccount, () => import("./internal/omsCommands.js").then((m) => m.account)),
  bind(Spec.omsPrice, () => import("./internal/omsCommands.js").then((m) => m.price)),
  bind(Spec.omsOrderCreate, () => import("./internal/omsCommands.js").then((m) => m.orderCreate)),
  bind(Spec.omsOrderGet, () => import("./internal/omsCommands.js").then((m) => m.orderGet)),
  bind(Spec.omsInvoiceList, () => import("./internal/omsCommands.js").then((m) => m.invoiceList)),
  bind(Spec.omsProduct, () => import("./internal/omsCommands.js").then((m) => m.product)),
  bind(Spec.omsAssets, () => import("./internal/omsCommands.js").then((m) => m.assets)),
  bind(Spec.webhookListen, () => import("./internal/webhookListen.js").then((m) => m.listen)),
  bind(Spec.sandboxStart, () => import("./internal/sandboxStart.js").then((m) => m.start)),
  bind(Spec.shopsAdd, () => import("./internal/shopsCommands.js").then((m) => m.add)),
  bind(Spec.shopsList, () => import("./internal/shopsCommands.js").then((m) => m.list)),
  bind(Spec.shopsRemove, () => import("./internal/shopsCommands.js").then((m) => m.remove)),
  bind(Spec.secretsGenerateKey, () => import("./internal/secretsCommands.js").then((m) => m.generateKey)),
  bind(Spec.secretsRotate, () => import("./internal/secretsCommands.js").then((m) => m.rotate)),
  bind(Spec.keysCreate, () => import("./internal/keysCommands.js").then((m) => m.create)),
  bind(Spec.keysList, () => import("./internal/keysCommands.js").then((m) => m.list)),
  bind(Spec.keysRevoke, () => import("./internal/keysCommands.js").then((m) => m.revoke)),
  bind(Spec.inboxList, () => import("./internal/inboxCommands.js").then((m) => m.list)),
  bind(Spec.inboxShow, () => import("./internal/inboxCommands.js").then((m) => m.show)),
  bind(Spec.inboxReplay, () => import("./internal/inboxCommands.js").then((m) => m.replay)),
  bind(Spec.inboxDiscard, () => import("./internal/inboxCommands.js").then((m) => m.discard)),
  bind(Spec.partsList, () => import("./internal/partsCommands.js").then((m) => m.list)),
  bind(Spec.dbMigrate, () => import("./internal/dbCommands.js").then((m) => m.migrate))
])

const option = (key: string, spec: Spec.OptionSpec): Options.Options<any> => {
  const flag = Spec.flagOf(key)

  const base: Options.Options<any> = spec.kind === "boolean"
    ? Options.boolean(flag)
    : spec.kind === "integer"
    ? Options.integer(flag)
    : spec.kind === "choice"
    ? Options.choice(flag, spec.choices ?? [])
    : Options.text(flag)
  const described = Options.withDescription(base, spec.description)
  if (spec.repeated === true) return Options.repeated(described)
  if (spec.default !== undefined) return Options.withDefault(described, spec.default)
  return spec.optional === true ? Options.optional(described) : described
}

const argument = (spec: Spec.ArgSpec): Args.Args<any> => {
  const described = Args.withDescription(Args.text({ name: spec.name }), spec.description)
  return spec.optional === true ? Args.optional(described) : described
}

type AnyCommand = Command.Command<string, never, unknown, any>

const toCommand = (spec: Spec.CommandSpec): AnyCommand => {
  if (Spec.isGroup(spec)) {
    const children = spec.subcommands.map(toCommand) as [AnyCommand, ...Array<AnyCommand>]
    return Command.make(spec.name).pipe(
      Command.withDescription(spec.description ?? spec.summary),
      Command.withSubcommands(children)
    ) as AnyCommand
  }
  const load = handlers.get(spec)
  if (load === undefined) throw new Error(`shoplink: no handler for command "${spec.name}"`)
  const config = {
    ...Object.fromEntries(
      Object.entries({ ...(spec.global === true ? Spec.GLOBAL_OPTIONS : {}), ...spec.options }).map((
        [key, o]
      ) => [key, option(key, o)])
    ),
    ...Object.fromEntries(Object.entries(spec.args).map(([key, a]) => [key, argument(a)]))
  }
  return Command.make(spec.name, config, (args) => Effect.flatMap(Effect.promise(load), (handler) => handler(args)))
    .pipe(
      Command.withDescription(spec.description ?? spec.summary)
    ) as AnyCommand
}

/**
 * The root `shoplink` command with every subcommand, derived from the same spec as `--help`.
 *
 * @example
 * import { Command } from "@effect/cli"
 * import { Cli } from "@shoplink/cli"
 * const names = Command.getNames(Cli.command) // HashSet containing "shoplink"
 *
 * @since 0.1.0
 */

export const command: Command.Command<"shoplink", never, unknown, any> = toCommand(Spec.root) as any

// Parse errors come styled with ANSI escapes; keep them only for a colour terminal.

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

const cli = Command.run(command, { name: "shoplink", version: VERSION })

/**
 * Runs the CLI for `argv` (as `process.argv`: runtime and script first). `--version`, `--help` and
 * arguments the command spec already refutes are answered before parsing; failures are printed to
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
export const run = (argv: ReadonlyArray<string>): Effect.Effect<number, never, CliApp.CliApp.Environment> => {
  const asJson = argv.includes("--json")
  const routed = route(argv.slice(2))
  switch (routed._tag) {
    case "Version":
      return Effect.as(out(VERSION), ExitCode.ExitCode.Ok)
    case "Help":
      return Effect.as(Effect.sync(() => process.stdout.write(routed.text)), ExitCode.ExitCode.Ok)
    case "Usage":
      return Effect.as(err(formatUsage(routed, asJson)), ExitCode.ExitCode.Usage)
  }
  return cli([...argv.slice(0, 2), ...routed.args]).pipe(
    (effect) => (colour() ? effect : plain(effect)),
    Effect.as(ExitCode.ExitCode.Ok as number),
    Effect.catchAll((error) => {
      // Doctor's failures have already been printed.
      if (typeof error === "object" && error !== null && "_tag" in error && error._tag === "DoctorFailed") {
        return Effect.succeed((error as unknown as { exitCode: number }).exitCode)
      }
      // @effect/cli has printed its parse error; point at the help that shows the right usage.
      if (
        ExitCode.exitCodeOf(error) === ExitCode.ExitCode.Usage && "error" in (error as object) &&
        !("message" in (error as object))
      ) {
        const help = ["shoplink", ...routed.path, "--help"].join(" ")
        return Effect.as(asJson ? Effect.void : err(`  fix: see \`${help}\``), ExitCode.ExitCode.Usage as number)
      }
      return reportError(error, asJson)
    })
  )
}
