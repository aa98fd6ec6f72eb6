// `shoplink … --help`, rendered from the command spec. Imports only plain-data modules, so help
// costs no Effect start-up. Global options, exit codes and the environment appear once, in
// `shoplink --help`; each command's help points there instead of repeating them.
import { EXIT_CODE_TEXT } from "./exitCodes.js"
import { DEFAULT_CONFIG_FILE } from "./configFile.js"
import * as Spec from "./spec.js"

// The settings' names live in @shoplink/connector's import-free table. Loaded here without Effect;
// a copy of dist without its dependencies (see the help test) still answers, without the list.
const SETTINGS = await import("./settingsTable.js").then((table) => table.SETTINGS, () => undefined)

/** Every line of help fits in 99 columns (under 100). */
export const WIDTH = 99

/** Word-wraps `text` to WIDTH: the first line after `first`, the rest after `rest`. */
const wrap = (text: string, first: string, rest: string = " ".repeat(first.length)): Array<string> => {
  const lines: Array<string> = []
  let line = first
  let fresh = true
  for (const word of text.split(/\s+/).filter((w) => w !== "")) {
    if (!fresh && line.length + 1 + word.length > WIDTH) {
      lines.push(line)
      line = rest + word
    } else {
      line = fresh ? line + word : `${line} ${word}`
    }
    fresh = false
  }
  lines.push(line)
  return lines
}

/**
 * Two columns: names padded to the widest (at most 30), descriptions wrapped under themselves;
 * `null` rows are blank lines between blocks.
 */
const columns = (rows: ReadonlyArray<readonly [string, string] | null>): Array<string> => {
  const width = Math.min(30, Math.max(...rows.map((row) => row?.[0].length ?? 0)))
  return rows.flatMap((row) => {
    if (row === null) return [""]
    const [name, text] = row
    return name.length > width
      ? [`  ${name}`, ...wrap(text, " ".repeat(width + 4))]
      : wrap(text, `  ${name.padEnd(width)}  `)
  })
}

/** Splits a shell line into words, keeping quoted strings whole. */
const shellWords = (line: string): Array<string> => line.match(/"[^"]*"|'[^']*'|\S+/g) ?? []

/** `$ command`, continued with ` \` when too long to copy from one line. */
const example = (line: string): Array<string> => {
  const lines: Array<string> = []
  let current = "  $"
  for (const word of shellWords(line)) {
    if (current !== "  $" && current.length + 1 + word.length + 2 > WIDTH) {
      lines.push(`${current} \\`)
      current = `      ${word}`
    } else {
      current = `${current} ${word}`
    }
  }
  lines.push(current)
  return lines
}

const section = (title: string, body: ReadonlyArray<string>): Array<string> => ["", title, ...body]

const placeholder = (option: Spec.OptionSpec): string =>
  option.kind === "boolean" ? "" : ` <${option.placeholder ?? (option.kind === "integer" ? "n" : "value")}>`

const isRequired = (option: Spec.OptionSpec) =>
  option.kind !== "boolean" && option.default === undefined && option.optional !== true && option.repeated !== true

const optionRows = (options: Spec.LeafSpec["options"]): Array<readonly [string, string]> =>
  Object.entries(options).map(([key, option]) => {
    const suffix = option.default !== undefined
      ? ` (default ${option.default})`
      : isRequired(option)
      ? " (required)"
      : ""
    return [`--${Spec.flagOf(key)}${placeholder(option)}`, `${option.description}${suffix}`] as const
  })

const argUsage = (arg: Spec.ArgSpec) => (arg.optional === true ? `[<${arg.name}>]` : `<${arg.name}>`)

/** `shoplink oms price <productID> --brand <code> [options]` */
const leafUsage = (path: ReadonlyArray<string>, leaf: Spec.LeafSpec): string => {
  const required = Object.entries(leaf.options)
    .filter(([, option]) => isRequired(option))
    .map(([key, option]) => `--${Spec.flagOf(key)}${placeholder(option)}`)
  const hasOptional = leaf.global === true || Object.values(leaf.options).some((option) => !isRequired(option))
  return [
    "shoplink",
    ...path,
    ...Object.values(leaf.args).map(argUsage),
    ...required,
    ...(hasOptional ? ["[options]"] : [])
  ]
    .join(" ")
}

const commandRows = (spec: Spec.GroupSpec, path: ReadonlyArray<string>): Array<readonly [string, string]> =>
  Spec.leaves(spec, path).map((l) => [l.path.join(" "), l.spec.summary] as const)

const pointer = (leaf: Spec.LeafSpec | undefined): Array<string> =>
  wrap(
    leaf?.global === true
      ? "Also takes the global options --json and --config <file>. `shoplink --help` lists them, the exit codes and the environment variables."
      : "`shoplink --help` lists the global options, the exit codes and the environment variables.",
    ""
  )

const rootHelp = (): Array<string> => [
  ...wrap(Spec.root.summary, ""),
  ...section("USAGE", ["  shoplink <command> [arguments] [options]"]),
  // Every command once, by its full path, one block per family.
  ...section(
    "COMMANDS",
    columns(Spec.root.subcommands.flatMap((top, i) => [
      ...(i > 0 && Spec.isGroup(top) ? [null] : []),
      ...(Spec.isGroup(top) ? commandRows(top, [top.name]) : [[top.name, top.summary] as const])
    ]))
  ),
  ...section(
    "GLOBAL OPTIONS",
    columns([
      ...optionRows(Spec.GLOBAL_OPTIONS),
      ["-h, --help", "show help for shoplink or for a command"],
      ["--version", "print the version"]
    ])
  ),
  ...section("EXAMPLES", Spec.root.examples.flatMap(example)),
  ...section("EXIT CODES", EXIT_CODE_TEXT.map(([code, text]) => `  ${code}  ${text}`)),
  ...section("ENVIRONMENT", [
    ...wrap(
      `Settings come from environment variables, else from --config <file> or ./${DEFAULT_CONFIG_FILE} (the environment wins). Secrets are never printed.`,
      "  "
    ),
    "",
    ...(SETTINGS === undefined
      ? ["  (the list needs @shoplink/connector installed beside this command)"]
      : columns(Object.values(SETTINGS).map((d) => [d.env, d.description] as const)))
  ]),
  "",
  "Run `shoplink <command> --help` for a command's arguments and options."
]

const groupHelp = (path: ReadonlyArray<string>, spec: Spec.GroupSpec): Array<string> => [
  ...wrap(spec.description ?? spec.summary, ""),
  ...section("USAGE", [`  shoplink ${path.join(" ")} <command> [arguments] [options]`]),
  ...section("COMMANDS", columns(commandRows(spec, path))),
  ...section("EXAMPLES", spec.examples.flatMap(example)),
  "",
  ...wrap(`Run \`shoplink ${path.join(" ")} <command> --help\` for a command's arguments and options.`, ""),
  ...pointer(undefined)
]

const leafHelp = (path: ReadonlyArray<string>, spec: Spec.LeafSpec): Array<string> => {
  const args = Object.values(spec.args)
  const options = optionRows(spec.options)
  return [
    ...wrap(spec.description ?? spec.summary, ""),
    ...(spec.notes ?? []).flatMap((note) => ["", ...wrap(note, "")]),
    ...section("USAGE", wrap(leafUsage(path, spec), "  ", "      ")),
    ...(args.length > 0 ? section("ARGUMENTS", columns(args.map((a) => [argUsage(a), a.description] as const))) : []),
    ...(options.length > 0 ? section("OPTIONS", columns(options)) : []),
    ...section("EXAMPLES", spec.examples.flatMap(example)),
    "",
    ...pointer(spec)
  ]
}

/** The help of the command at `path` (without `shoplink`; the root's is empty). */
export const helpText = (path: ReadonlyArray<string>, spec: Spec.CommandSpec): string =>
  `${
    (path.length === 0 ? rootHelp() : Spec.isGroup(spec) ? groupHelp(path, spec) : leafHelp(path, spec))
      .map((line) => line.trimEnd())
      .join("\n")
  }\n`
