import * as CliConfig from "@effect/cli/CliConfig"
import * as CommandDescriptor from "@effect/cli/CommandDescriptor"
import * as NodeContext from "@effect/platform-node/NodeContext"
import { describe, expect, it } from "@effect/vitest"
import { Effect, Either } from "effect"
import { spawnSync } from "node:child_process"
import { cpSync, mkdtempSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { dirname, join } from "node:path"
import * as Spec from "../src/internal/spec.js"
import { BIN, runCli } from "./support/cli.js"

// Every command path the spec defines (groups and leaves), without "shoplink".
const groups = (spec: Spec.CommandSpec, path: ReadonlyArray<string>): ReadonlyArray<ReadonlyArray<string>> =>
  Spec.isGroup(spec) ? [path, ...spec.subcommands.flatMap((c) => groups(c, [...path, c.name]))] : []
const leafPaths = Spec.leaves().map((l) => l.path)
const groupPaths = groups(Spec.root, [])

const expectReadable = (text: string) => {
  for (const line of text.split("\n")) expect(line.length, line).toBeLessThan(100)
  expect(text).not.toMatch(/\u001b\[/)
  expect(text).not.toContain("This setting is optional")
  expect(text).not.toContain("A user-defined piece of text")
  // A parent name never repeats: no "punchout punchout session create".
  for (
    const name of [
      "shoplink",
      "punchout",
      "oms",
      "session",
      "order",
      "invoice",
      "webhook",
      "sandbox",
      "shops",
      "secrets",
      "keys",
      "inbox"
    ]
  ) {
    expect(text).not.toContain(`${name} ${name} `)
  }
}

describe("shoplink --help", () => {
  it.effect("lists every command once by its full path, global options once, exit codes and environment", () =>
    Effect.gen(function*() {
      const result = yield* runCli(["--help"], {})
      expect(result.code).toBe(0)
      expect(result.stderr).toBe("")
      const help = result.stdout
      expectReadable(help)
      for (const path of leafPaths) {
        expect(help.match(new RegExp(`^  ${path.join(" ")}  `, "gm")), path.join(" ")).toHaveLength(1)
      }
      expect(help.match(/^GLOBAL OPTIONS$/gm)).toHaveLength(1)
      expect(help.match(/^ {2}--config <file> /gm)).toHaveLength(1)
      expect(help.match(/^ {2}--json /gm)).toHaveLength(1)
      expect(help).toMatch(/^ {2}-h, --help /m)
      expect(help).toMatch(/^ {2}--version /m)
      expect(help.match(/^EXIT CODES$/gm)).toHaveLength(1)
      expect(help).toMatch(/^ {2}5 {2}transport error/m)
      expect(help.match(/^ {2}SHOPLINK_VENDOR_API_KEY /gm)).toHaveLength(1)
      expect(help).toMatch(/^USAGE\n {2}shoplink <command>/m)
    }))

  it.effect(
    "each command's help: usage with its full path, its own options only, a pointer to the rest",
    () =>
      Effect.gen(function*() {
        for (const path of [...leafPaths, ...groupPaths.filter((p) => p.length > 0)]) {
          const result = yield* runCli([...path, "--help"], {})
          const where = path.join(" ")
          expect(result.code, where).toBe(0)
          const help = result.stdout
          expectReadable(help)
          expect(help, where).toMatch(new RegExp(`^USAGE\\n {2}shoplink ${where}( |$)`, "m"))
          expect(help, where).toMatch(/^EXAMPLES\n {2}\$ shoplink /m)
          expect(help, where).toContain("`shoplink --help`")
          // Not repeated from `shoplink --help`:
          expect(help, where).not.toMatch(/^(GLOBAL OPTIONS|EXIT CODES|ENVIRONMENT)$/m)
          expect(help, where).not.toMatch(/^ {2}(--config <file>|-h, --help|--version) /m)
          expect(help, where).not.toContain("SHOPLINK_VENDOR_API_KEY ")
          expect(help, where).not.toContain("--completions")
          expect(help, where).not.toContain("--log-level")
        }
      }),
    { timeout: 180_000 }
  )

  it.effect("a leaf lists its arguments and options with defaults; a group lists its commands by full path", () =>
    Effect.gen(function*() {
      const quotes = (yield* runCli(["punchout", "quotes", "-h"], {})).stdout
      expect(quotes).toContain("  shoplink punchout quotes <term> [options]")
      expect(quotes).toMatch(/^ {2}<term> +search term, or a product ID with --brand$/m)
      expect(quotes).toMatch(/^ {2}--qty <n> +quantity, a positive whole number \(default 1\)$/m)
      expect(quotes).toContain("  $ shoplink punchout quotes 51515 --brand WIX --qty 2 --json")
      const price = (yield* runCli(["oms", "price", "--help"], {})).stdout
      expect(price).toContain("  shoplink oms price <productID> --brand <code> [options]")
      expect(price).toMatch(/^ {2}--brand <code> +brand code, e\.g\. WIX \(required\)$/m)
      const punchout = (yield* runCli(["punchout", "--help"], {})).stdout
      expect(punchout).toContain("  shoplink punchout <command>")
      expect(punchout).toMatch(/^ {2}punchout session create {2,}Create a session/m)
      expect(punchout).toMatch(/^ {2}punchout order reserve {2,}ReserveOrder/m)
      const bare = yield* runCli(["punchout"], {})
      expect(bare.code).toBe(0)
      expect(bare.stdout).toBe(punchout)
    }))

  it.effect("an unknown command is reported where it occurs, with \"did you mean\" (exit 2)", () =>
    Effect.gen(function*() {
      const typo = yield* runCli(["punchout", "quots"], {})
      expect(typo.code).toBe(2)
      expect(typo.stdout).toBe("")
      expect(typo.stderr).toContain("unknown command \"quots\" for `shoplink punchout`; did you mean `quotes`?")
      const top = yield* runCli(["doctr"], {})
      expect(top.code).toBe(2)
      expect(top.stderr).toContain("unknown command \"doctr\" for `shoplink`; did you mean `doctor`?")
      const nested = yield* runCli(["oms", "order", "craete", "--json"], {})
      expect(nested.code).toBe(2)
      expect(JSON.parse(nested.stderr)).toMatchObject({
        error: {
          exitCode: 2,
          tag: "UsageError",
          message: "unknown command \"craete\" for `shoplink oms order`; did you mean `create`?"
        }
      })
      const option = yield* runCli(["punchout", "quotes", "oil", "--qyt", "2"], {})
      expect(option.code).toBe(2)
      expect(option.stderr).toContain("unknown option --qyt for `shoplink punchout quotes`; did you mean `--qty`?")
    }))

  it.effect("values are checked against the option's type ('abc' is not an integer, choices), empty and missing ones", () =>
    Effect.gen(function*() {
      const integer = yield* runCli(["punchout", "quotes", "oil filter", "--qty", "abc"], {})
      expect(integer.code).toBe(2)
      expect(integer.stderr).toContain("--qty: 'abc' is not an integer")
      expect(integer.stderr).not.toContain("a integer")
      const inline = yield* runCli(["sandbox", "start", "--port=http"], {})
      expect(inline.code).toBe(2)
      expect(inline.stderr).toContain("--port: 'http' is not an integer")
      const choice = yield* runCli(["oms", "account", "--env", "US_QA"], {})
      expect(choice.code).toBe(2)
      expect(choice.stderr).toContain(
        "--env: 'US_QA' is not one of US_QUA, CA_QUA, US_PRD, CA_PRD; did you mean `US_QUA`?"
      )
      const empty = yield* runCli(["punchout", "quotes", "oil", "--config", ""], {})
      expect(empty.code).toBe(2)
      expect(empty.stderr).toContain("--config needs a value")
      const blank = yield* runCli(["punchout", "quotes", ""], {})
      expect(blank.code).toBe(2)
      expect(blank.stderr).toContain("<term> is empty")
      const missing = yield* runCli(["oms", "price", "51515", "--json"], {})
      expect(missing.code).toBe(2)
      expect(JSON.parse(missing.stderr)).toMatchObject({
        error: {
          tag: "UsageError",
          message: "missing option --brand <code> (brand code, e.g. WIX)",
          fix: "see `shoplink oms price --help`"
        }
      })
      const argument = yield* runCli(["punchout", "order", "submit"], {})
      expect(argument.code).toBe(2)
      expect(argument.stderr).toContain("missing argument <orderID> (the order ID CreateOrder returned)")
    }))

  it.effect("--version prints the package version", () =>
    Effect.gen(function*() {
      const { version } = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as {
        version: string
      }
      const result = yield* runCli(["--version"], {})
      expect(result.code).toBe(0)
      expect(result.stdout).toBe(`${version}\n`)
      const source = readFileSync(new URL("../src/internal/version.ts", import.meta.url), "utf8")
      expect(source, "src/internal/version.ts is stale: run the build").toContain(
        `export const VERSION = ${JSON.stringify(version)}`
      )
    }))

  it.effect("the help's facts are the parser's: @effect/cli accepts every command, argument and option the spec lists", () =>
    Effect.gen(function*() {
      const { command } = yield* Effect.promise(() => import("../src/Cli.js"))
      const sample = (option: Spec.OptionSpec): ReadonlyArray<string> =>
        option.kind === "boolean" ? [] : [option.kind === "integer" ? "1" : option.choices?.[0] ?? "value"]
      for (const { path, spec } of Spec.leaves()) {
        const options = { ...(spec.global === true ? Spec.GLOBAL_OPTIONS : {}), ...spec.options }
        const argv = [
          "shoplink",
          ...path,
          ...Object.values(spec.args).map(() => "x"),
          ...Object.entries(options).flatMap(([key, option]) => [`--${Spec.flagOf(key)}`, ...sample(option)])
        ]
        const parsed = yield* CommandDescriptor.parse(command.descriptor, argv, CliConfig.defaultConfig).pipe(
          Effect.provide(NodeContext.layer),
          Effect.either
        )
        expect(
          Either.isRight(parsed) && parsed.right._tag === "UserDefined" && parsed.right.leftover.length === 0,
          argv.join(" ")
        )
          .toBe(true)
        // …and nothing the spec leaves out.
        const extra = yield* CommandDescriptor.parse(
          command.descriptor,
          [...argv, "--not-in-the-spec"],
          CliConfig.defaultConfig
        ).pipe(
          Effect.provide(NodeContext.layer),
          Effect.either
        )
        expect(Either.isRight(extra) && extra.right._tag === "UserDefined" && extra.right.leftover.length === 0).toBe(
          false
        )
      }
    }))

  it("--version, --help and a mistyped command answer without loading the program: a copy of dist with no node_modules beside it works", () => {
    // Without node_modules, any import of Effect (or anything else) would fail: what answers here
    // is plain data, which is why it answers about as fast as Node starts (see bench/).
    const dir = mkdtempSync(join(tmpdir(), "shoplink-bare-"))
    try {
      cpSync(dirname(BIN), join(dir, "dist"), { recursive: true })
      const bare = (args: ReadonlyArray<string>) =>
        spawnSync(process.execPath, [join(dir, "dist", "bin.js"), ...args], { cwd: dir, encoding: "utf8" })
      const version = bare(["--version"])
      expect(version.status).toBe(0)
      expect(version.stdout.trim()).toBe(
        JSON.parse(readFileSync(join(dirname(BIN), "..", "package.json"), "utf8")).version
      )
      for (const args of [["--help"], ["punchout", "--help"], ["inbox", "list", "--help"]]) {
        const help = bare(args)
        expect(help.stderr).toBe("")
        expect(help.status).toBe(0)
        expect(help.stdout).toContain("USAGE\n  shoplink ")
      }
      const typo = bare(["punchout", "quots"])
      expect(typo.status).toBe(2)
      expect(typo.stderr).toContain("did you mean")
      // A command that runs does need the program: here it cannot load, as expected.
      expect(bare(["inbox", "list"]).status).not.toBe(0)
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})
