#!/usr/bin/env node
// Type-checks every JSDoc `@example` of every public export of every publishable package, and every
// ```ts block of its README.md (a block that is a fragment on purpose is fenced ```ts fragment).
// Public = reachable from the package.json `exports` entry points (src/<entry>.ts), through
// namespace re-exports, as in tooling/scripts/check-jsdoc.mjs. Each example becomes a module in
// <package>/.tmp/examples/ (gitignored) that imports the packages by name, exactly as a user
// would: the package's own name resolves through its `exports` to the built dist/*.d.ts, other
// names through the package's dependencies. All examples of a package compile in one strict
// program; a failure names the export, its source file and line, and the compiler's message.
// Usage: node check-examples.mjs [packageDir …]   (default: every publishable package; build first)
// One run compiles two programs per package through one compiler host (`declarationCache`): the
// .d.ts files they share (Effect's above all) are parsed once, not once per program.
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { join, relative, resolve } from "node:path"
import ts from "typescript"
import { entrySources, publishablePackages } from "../scripts/workspace.mjs"

/** How examples are compiled: the repository's strict settings, minus the unused-name checks. */
export const exampleCompilerOptions = {
  target: ts.ScriptTarget.ES2022,
  lib: ["lib.es2023.d.ts", "lib.dom.d.ts"],
  module: ts.ModuleKind.NodeNext,
  moduleResolution: ts.ModuleResolutionKind.NodeNext,
  types: ["node"],
  strict: true,
  exactOptionalPropertyTypes: true,
  noUncheckedIndexedAccess: true,
  verbatimModuleSyntax: true,
  skipLibCheck: true,
  noEmit: true
}

const tagText = (comment) =>
  comment === undefined ? "" : typeof comment === "string" ? comment : comment.map((part) => part.text).join("")

/** The code of an `@example`: markdown fences and a leading caption line without code removed. */
const exampleCode = (text) => text.split("\n").filter((line) => !/^\s*```/.test(line)).join("\n").trim()

/**
 * A compiler host that keeps each declaration file (.d.ts) it parses for the next program: for one
 * run over built packages, whose declarations do not change while it runs. Other files (sources,
 * the examples written for each package) are read afresh every time.
 */
export const declarationCache = (options = exampleCompilerOptions) => {
  const host = ts.createCompilerHost(options)
  const parse = host.getSourceFile.bind(host)
  const parsed = new Map()
  host.getSourceFile = (fileName, languageVersionOrOptions, onError, shouldCreateNewSourceFile) => {
    if (!fileName.endsWith(".d.ts") || shouldCreateNewSourceFile) {
      return parse(fileName, languageVersionOrOptions, onError, shouldCreateNewSourceFile)
    }
    const mode = typeof languageVersionOrOptions === "object"
      ? `${languageVersionOrOptions.languageVersion}:${languageVersionOrOptions.impliedNodeFormat}:${languageVersionOrOptions.jsDocParsingMode}`
      : String(languageVersionOrOptions)
    const key = `${mode}:${fileName}`
    if (!parsed.has(key)) parsed.set(key, parse(fileName, languageVersionOrOptions, onError))
    return parsed.get(key)
  }
  return host
}

/** Every `@example` of the public exports of the package in `dir`, with where it is written. */
export const collectExamples = (dir, host = undefined) => {
  const pkg = JSON.parse(readFileSync(join(dir, "package.json"), "utf8"))
  const entries = entrySources(dir)
  const program = ts.createProgram(entries.map((e) => e.file), { ...exampleCompilerOptions, noEmit: true }, host)
  const checker = program.getTypeChecker()
  const examples = []
  const seenSymbols = new Set()
  const seenTags = new Set()
  const visit = (moduleSymbol, prefix) => {
    for (const exported of checker.getExportsOfModule(moduleSymbol)) {
      const name = `${prefix}${exported.getName()}`
      const target = exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported
      if (seenSymbols.has(target)) continue
      seenSymbols.add(target)
      const declarations = target.getDeclarations() ?? []
      if (declarations.some((d) => ts.isSourceFile(d) || ts.isModuleDeclaration(d))) {
        visit(target, `${name}.`)
        continue
      }
      for (const declaration of declarations) {
        const file = declaration.getSourceFile()
        if (relative(dir, file.fileName).startsWith("..")) continue
        for (const tag of ts.getJSDocTags(declaration)) {
          if (tag.tagName.text !== "example" || seenTags.has(tag)) continue
          seenTags.add(tag) // merged declarations (a schema const and its type) share one comment
          const { line } = file.getLineAndCharacterOfPosition(tag.getStart())
          examples.push({
            exportName: name,
            source: relative(dir, file.fileName),
            line: line + 1,
            code: exampleCode(tagText(tag.comment))
          })
        }
      }
    }
  }
  for (const entry of entries) {
    const source = program.getSourceFile(entry.file)
    const symbol = source && checker.getSymbolAtLocation(source)
    if (symbol) visit(symbol, entry.key === "." ? "" : `${entry.key.slice(2)}:`)
  }
  return { name: pkg.name, examples }
}

/**
 * The ```ts (or ```typescript) blocks of the package's README.md, each a whole module a user could
 * paste; blocks fenced ```ts fragment are left out (they show part of something on purpose).
 */
export const collectReadmeExamples = (dir) => {
  let text
  try {
    text = readFileSync(join(dir, "README.md"), "utf8")
  } catch {
    return []
  }
  const examples = []
  const lines = text.split("\n")
  for (let i = 0; i < lines.length; i++) {
    const open = /^```(ts|typescript)\s*$/.exec(lines[i])
    if (open === null) continue
    const start = i + 1
    let end = start
    while (end < lines.length && !/^```\s*$/.test(lines[end])) end++
    examples.push({
      exportName: `README block`,
      source: "README.md",
      line: start,
      code: lines.slice(start, end).join("\n")
    })
    i = end
  }
  return examples
}

/**
 * Writes and compiles the examples of one package; returns the failures as readable lines. `host`:
 * a `declarationCache()` shared by the packages of one run.
 */
export const checkPackageExamples = (dir, host = undefined) => {
  const collected = collectExamples(dir, host)
  const name = collected.name
  const examples = [...collected.examples, ...collectReadmeExamples(dir)]
  const out = join(dir, ".tmp", "examples")
  rmSync(out, { recursive: true, force: true })
  mkdirSync(out, { recursive: true })
  const byFile = new Map()
  examples.forEach((example, i) => {
    const file = join(out, `${String(i).padStart(3, "0")}-${example.exportName.replace(/[^A-Za-z0-9]+/g, "_")}.ts`)
    // `export {}` makes every example a module, so top-level names never clash across examples.
    writeFileSync(file, `${example.code}\nexport {}\n`)
    byFile.set(file, example)
  })
  const failures = []
  try {
    if (examples.length > 0) {
      const program = ts.createProgram([...byFile.keys()], exampleCompilerOptions, host)
      for (const diagnostic of ts.getPreEmitDiagnostics(program)) {
        const example = diagnostic.file && byFile.get(resolve(diagnostic.file.fileName))
        const message = ts.flattenDiagnosticMessageText(diagnostic.messageText, "\n    ")
        if (example === undefined) {
          failures.push(
            `${name}: ${
              diagnostic.file ? relative(dir, diagnostic.file.fileName) : "(global)"
            }: TS${diagnostic.code}: ${message}`
          )
          continue
        }
        const { line } = diagnostic.file.getLineAndCharacterOfPosition(diagnostic.start ?? 0)
        const codeLine = example.code.split("\n")[line]?.trim() ?? ""
        failures.push(
          `${name} ${example.exportName} (${example.source}:${example.line}), example line ${
            line + 1
          }: TS${diagnostic.code}: ${message}\n    > ${codeLine}`
        )
      }
    }
  } finally {
    rmSync(out, { recursive: true, force: true })
    // Leave no empty .tmp behind (but keep one that holds anything else).
    if (readdirSync(join(dir, ".tmp")).length === 0) rmSync(join(dir, ".tmp"), { recursive: true, force: true })
  }
  return { name, count: examples.length, failures }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const dirs = process.argv.length > 2
    ? process.argv.slice(2).map((d) => resolve(d))
    : publishablePackages().map((p) => p.dir)
  let failed = 0
  const host = declarationCache()
  for (const dir of dirs) {
    const { name, count, failures } = checkPackageExamples(dir, host)
    if (failures.length === 0) {
      console.log(`${name}: ${count} @example and README block(s) type-check`)
    } else {
      failed += failures.length
      console.error(`${name}: ${failures.length} error(s) in @example blocks:\n- ${failures.join("\n- ")}`)
    }
  }
  if (failed > 0) {
    console.error(
      `\n${failed} error(s) in JSDoc examples: fix the example (it must compile as written; declare what a fragment needs)`
    )
    process.exit(1)
  }
}
