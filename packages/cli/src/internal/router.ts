// The cheap first pass over the arguments, before anything heavy loads: answers --version and
// --help, and refuses what the spec already shows is wrong (an unknown command or option, with a
// "did you mean"; a value that is not an integer or not one of the choices; an empty value; a
// missing argument or required option) at the level where it occurs. Everything else goes to the
// @effect/cli parser built from the same spec (Cli.ts).
import { helpText } from "./helpText.js"
import * as Spec from "./spec.js"

export type Route =
  | { readonly _tag: "Version" }
  | { readonly _tag: "Help"; readonly text: string }
  | { readonly _tag: "Usage"; readonly message: string; readonly fix: string }
  | {
    readonly _tag: "Run"
    readonly path: ReadonlyArray<string>
    /** The arguments for the parser: global options given before the command moved after it. */
    readonly args: ReadonlyArray<string>
  }

// @effect/cli's own options: left for it to handle (`--log-level` and `--completions` take a value).
const builtIns = new Map([["--log-level", true], ["--completions", true], ["--wizard", false]])

const isHelp = (arg: string) => arg === "-h" || arg === "--help"

/** Optimal string alignment distance: "quots" is 1 from "quotes", "qyt" 1 from "qty". */
const distance = (a: string, b: string): number => {
  const d: Array<Array<number>> = Array.from({ length: a.length + 1 }, (_, i) => [i])
  for (let j = 1; j <= b.length; j++) d[0]![j] = j
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1
      let best = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost)
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) best = Math.min(best, d[i - 2]![j - 2]! + 1)
      d[i]![j] = best
    }
  }
  return d[a.length]![b.length]!
}

/** The closest candidate within a typo's reach (or one the input is a prefix of). */
export const suggest = (input: string, candidates: ReadonlyArray<string>): string | undefined => {
  const scored = candidates
    .map((c) => ({
      c,
      d: c.startsWith(input) && input.length >= 2 ? 0.5 : distance(input.toLowerCase(), c.toLowerCase())
    }))
    .filter(({ c, d }) => d <= Math.max(1, Math.min(2, Math.floor(c.length / 3))))
    .sort((x, y) => x.d - y.d)
  return scored[0]?.c
}

const usage = (message: string, fix: string): Route => ({ _tag: "Usage", message, fix })

const didYouMean = (input: string, candidates: ReadonlyArray<string>, show: (s: string) => string = (s) => s) => {
  const best = suggest(input, candidates)
  return best === undefined ? "" : `; did you mean \`${show(best)}\`?`
}

const checkValue = (
  flag: string,
  option: Spec.OptionSpec,
  value: string | undefined,
  where: string
): Route | undefined => {
  if (value === undefined || value.trim() === "") {
    return usage(
      `${flag} needs a value`,
      `e.g. ${flag} ${option.default ?? `<${option.placeholder ?? "value"}>`}; see \`${where} --help\``
    )
  }
  if (option.kind === "integer" && !/^-?\d+$/.test(value)) {
    return usage(`${flag}: '${value}' is not an integer`, `give a whole number, e.g. ${flag} ${option.default ?? 1}`)
  }
  if (option.kind === "choice" && option.choices !== undefined && !option.choices.includes(value)) {
    return usage(
      `${flag}: '${value}' is not one of ${option.choices.join(", ")}${didYouMean(value, option.choices)}`,
      `e.g. ${flag} ${option.choices[0]}`
    )
  }
  return undefined
}

const checkLeaf = (path: ReadonlyArray<string>, leaf: Spec.LeafSpec, rest: ReadonlyArray<string>): Route => {
  const where = ["shoplink", ...path].join(" ")
  const options: Record<string, Spec.OptionSpec> = {
    ...(leaf.global === true ? Spec.GLOBAL_OPTIONS : {}),
    ...leaf.options
  }
  const byFlag = new Map(Object.entries(options).map(([key, option]) => [`--${Spec.flagOf(key)}`, option]))
  const args = Object.values(leaf.args)
  const given = new Set<string>()
  let builtInSeen = false
  let positional = 0
  for (let i = 0; i < rest.length; i++) {
    const arg = rest[i]!
    if (arg === "--") break
    if (isHelp(arg)) return { _tag: "Help", text: helpText(path, leaf) }
    if (arg.startsWith("--")) {
      const eq = arg.indexOf("=")
      const flag = eq === -1 ? arg : arg.slice(0, eq)
      const builtIn = builtIns.get(flag)
      if (builtIn !== undefined) {
        if (builtIn && eq === -1) i++
        builtInSeen = true
        continue
      }
      const option = byFlag.get(flag)
      if (option === undefined) {
        return usage(
          `unknown option ${flag} for \`${where}\`${didYouMean(flag, [...byFlag.keys()])}`,
          `see \`${where} --help\` for its options`
        )
      }
      given.add(flag)
      if (option.kind === "boolean") continue
      const value = eq === -1 ? rest[++i] : arg.slice(eq + 1)
      const wrong = checkValue(flag, option, value, where)
      if (wrong !== undefined) return wrong
      continue
    }
    const spec = args[positional++]
    if (spec === undefined) {
      return usage(
        `unexpected argument "${arg}" for \`${where}\``,
        args.length === 0 ? `\`${where}\` takes no arguments` : `see \`${where} --help\``
      )
    }
    if (arg.trim() === "") return usage(`<${spec.name}> is empty`, `give ${spec.description}`)
  }
  if (!builtInSeen) {
    const missingArg = args.slice(positional).find((a) => a.optional !== true)
    if (missingArg !== undefined) {
      return usage(`missing argument <${missingArg.name}> (${missingArg.description})`, `see \`${where} --help\``)
    }
    const missing = [...byFlag].filter(([flag, o]) =>
      o.kind !== "boolean" && o.default === undefined && o.optional !== true && o.repeated !== true && !given.has(flag)
    )
    if (missing.length > 0) {
      const [flag, option] = missing[0]!
      return usage(
        `missing option ${flag} <${option.placeholder ?? "value"}> (${option.description})`,
        `see \`${where} --help\``
      )
    }
  }
  return { _tag: "Run", path, args: [] }
}

/** Where `args` (the command line after `shoplink`) leads. */
export const route = (args: ReadonlyArray<string>): Route => {
  let node: Spec.CommandSpec = Spec.root
  const path: Array<string> = []
  // What stays where it was (command names, `--log-level`), and the global options given before
  // the command, which go after it: `shoplink --json doctor` is `shoplink doctor --json`.
  const kept: Array<string> = []
  const hoisted: Array<string> = []
  let i = 0
  while (Spec.isGroup(node)) {
    const arg = args[i]
    if (arg === undefined || isHelp(arg)) return { _tag: "Help", text: helpText(path, node) }
    if (arg === "--version" && path.length === 0) return { _tag: "Version" }
    if (arg.startsWith("-")) {
      const flag = arg.split("=")[0]!
      // `--log-level <level>` may precede the command; @effect/cli reads it from the full line.
      if (flag === "--log-level") {
        const width = arg.includes("=") ? 1 : 2
        kept.push(...args.slice(i, i + width))
        i += width
        continue
      }
      if (builtIns.has(flag)) return { _tag: "Run", path, args }
      const global = globalOptions.get(flag)
      if (global !== undefined) {
        const width = global.kind === "boolean" || arg.includes("=") ? 1 : 2
        hoisted.push(...args.slice(i, i + width))
        i += width
        continue
      }
      const where = ["shoplink", ...path].join(" ")
      return usage(`unknown option ${flag} for \`${where}\``, `\`${where} --help\` lists the commands and options`)
    }
    const names = node.subcommands.map((c) => c.name)
    const next: Spec.CommandSpec | undefined = node.subcommands.find((c) => c.name === arg)
    if (next === undefined) {
      const where = ["shoplink", ...path].join(" ")
      return usage(
        `unknown command "${arg}" for \`${where}\`${didYouMean(arg, names)}`,
        `\`${where} --help\` lists its commands: ${names.join(", ")}`
      )
    }
    path.push(next.name)
    kept.push(arg)
    node = next
    i++
  }
  // The leaf's own arguments, with the hoisted options before any `--`.
  const own = args.slice(i)
  const end = own.indexOf("--")
  const rest = end === -1 ? [...own, ...hoisted] : [...own.slice(0, end), ...hoisted, ...own.slice(end)]
  const routed = checkLeaf(path, node, rest)
  return routed._tag === "Run" ? { ...routed, args: [...kept, ...rest] } : routed
}

const globalOptions = new Map<string, Spec.OptionSpec>(
  Object.entries(Spec.GLOBAL_OPTIONS).map(([key, option]) => [`--${Spec.flagOf(key)}`, option])
)

/** A usage error as `reportError` prints one: a line and its fix, or JSON with `--json`. */
export const formatUsage = (route: { readonly message: string; readonly fix: string }, asJson: boolean): string =>
  asJson
    ? JSON.stringify({ error: { exitCode: 2, tag: "UsageError", message: route.message, fix: route.fix } })
    : `error (UsageError): ${route.message}\n  fix: ${route.fix}`
