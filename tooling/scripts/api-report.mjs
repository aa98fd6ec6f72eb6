#!/usr/bin/env node
// The public-API report of each published package (packages/* not private): what its built
// dist/*.d.ts export, read through the TypeScript compiler API, written to
// packages/<dir>/api-report.md, so that growth of a public surface shows up in review.
//   node tooling/scripts/api-report.mjs            check (`pnpm check:api`, part of `pnpm test`):
//                                                  fails with a diff when a report is stale
//   node tooling/scripts/api-report.mjs --update   rewrite the reports (`pnpm api:update`)
// Needs `pnpm build` first. It also fails when a package exports more names than its limit in
// NAME_LIMITS; see countNames for how names are counted. docs/contributing.md describes the format.
import { existsSync, readdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs"
import { dirname, join, relative } from "node:path"
import ts from "typescript"
import { publishablePackages, root } from "./workspace.mjs"

/** Most names a package may export (issue #25: the contract stays small). */
export const NAME_LIMITS = { "@shoplink/connector": 40 }

export const REPORT_FILE = "api-report.md"

const printer = ts.createPrinter({ removeComments: true, newLine: ts.NewLineKind.LineFeed })

/** `exports` entries of a package.json with their types file: [{ key, file }] (absolute paths). */
export const typesEntries = (dir, json) =>
  Object.entries(json.exports ?? {})
    .filter(([key]) => key !== "./package.json")
    .flatMap(([key, target]) => {
      const types = typeof target === "string" ? target.replace(/\.js$/, ".d.ts") : target.types
      return types === undefined ? [] : [{ key, file: join(dir, types) }]
    })

const byName = (a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)
const posix = (path) => path.split("\\").join("/")
const real = (path) => (existsSync(path) ? realpathSync(path) : path)

/** The package a declaration file belongs to, as `name (path)`, for re-exports from elsewhere. */
const origin = (file) => {
  let dir = dirname(file)
  while (dir !== dirname(dir)) {
    const manifest = join(dir, "package.json")
    if (existsSync(manifest)) {
      const name = JSON.parse(readFileSync(manifest, "utf8")).name
      if (name !== undefined) return `${name} (${posix(relative(dir, file))})`
    }
    dir = dirname(dir)
  }
  return posix(file)
}

/**
 * Builds the report of each package in `packages` ([{ dir, json }]): one TypeScript program over
 * every entry point's .d.ts. Returns [{ name, dir, file, text, count, limit, missing }]; `missing`
 * lists the .d.ts files that are not built.
 */
export const buildReports = (packages) => {
  const entriesOf = new Map(packages.map((p) => [p, typesEntries(p.dir, p.json)]))
  const missing = new Map(packages.map((p) => [p, entriesOf.get(p).map((e) => e.file).filter((f) => !existsSync(f))]))
  const rootNames = [...entriesOf.values()].flat().map((e) => e.file).filter((f) => existsSync(f))
  const program = ts.createProgram({
    rootNames,
    options: {
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      target: ts.ScriptTarget.ES2022,
      strict: true,
      noEmit: true,
      skipLibCheck: true,
      types: []
    }
  })
  const checker = program.getTypeChecker()
  return packages.map((pkg) => {
    const file = join(pkg.dir, REPORT_FILE)
    const base = { name: pkg.json.name, dir: pkg.dir, file, limit: NAME_LIMITS[pkg.json.name] }
    if (missing.get(pkg).length > 0) return { ...base, text: undefined, count: 0, missing: missing.get(pkg) }
    const report = reportOf(program, checker, pkg, entriesOf.get(pkg))
    return { ...base, ...report, missing: [] }
  })
}

const resolveAlias = (checker, symbol) =>
  symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol

/** `export * as X from "./X.js"`: the symbol stands for a whole module (a source file). */
const moduleFileOf = (symbol) => symbol.declarations?.find((d) => ts.isSourceFile(d))

const isNamespace = (symbol) => (symbol.flags & ts.SymbolFlags.Module) !== 0

const KIND_ORDER = ["const", "let", "var", "function", "class", "enum", "interface", "type", "namespace", "module"]

/** What a symbol is: `const`, `class`, `interface`, …, `const + type + namespace` when merged. */
export const kindOf = (symbol) => {
  const kinds = new Set()
  for (const d of symbol.declarations ?? []) {
    if (ts.isSourceFile(d)) kinds.add("module")
    else if (ts.isModuleDeclaration(d)) kinds.add("namespace")
    else if (ts.isVariableDeclaration(d)) {
      const flags = ts.getCombinedNodeFlags(d)
      kinds.add(flags & ts.NodeFlags.Const ? "const" : flags & ts.NodeFlags.Let ? "let" : "var")
    } else if (ts.isFunctionDeclaration(d)) kinds.add("function")
    else if (ts.isClassDeclaration(d)) kinds.add("class")
    else if (ts.isEnumDeclaration(d)) kinds.add("enum")
    else if (ts.isInterfaceDeclaration(d)) kinds.add("interface")
    else if (ts.isTypeAliasDeclaration(d)) kinds.add("type")
    else kinds.add(ts.SyntaxKind[d.kind])
  }
  return [...kinds].sort((a, b) => KIND_ORDER.indexOf(a) - KIND_ORDER.indexOf(b)).join(" + ")
}

const MODIFIERS = /^(?:(?:export|declare|default)\s+)+/

/**
 * The declaration as the .d.ts writes it, without comments, `export`, `declare` or the final `;`,
 * with the members of each object type and of each union in a fixed order: tsc writes an inferred
 * type's members in the order it met them, which differs between a clean and an incremental build.
 */
const printDeclaration = (original) => {
  const source = original.getSourceFile()
  const text = (n) => printer.printNode(ts.EmitHint.Unspecified, n, source)
  const byText = (a, b) => (text(a) < text(b) ? -1 : text(a) > text(b) ? 1 : 0)
  const [d] = ts.transform(original, [(context) => {
    const visit = (n) => {
      const node = ts.visitEachChild(n, visit, context)
      if (ts.isTypeLiteralNode(node)) {
        return context.factory.updateTypeLiteralNode(
          node,
          context.factory.createNodeArray([...node.members].sort(byText))
        )
      }
      if (ts.isUnionTypeNode(node)) {
        return context.factory.updateUnionTypeNode(node, context.factory.createNodeArray([...node.types].sort(byText)))
      }
      return node
    }
    return visit
  }]).transformed
  // The printer puts each tuple element on its own line unless told otherwise.
  const singleLineTuples = (n) => {
    if (ts.isTupleTypeNode(n)) ts.setEmitFlags(n, ts.EmitFlags.SingleLine)
    ts.forEachChild(n, singleLineTuples)
  }
  singleLineTuples(d)
  if (ts.isVariableDeclaration(original)) {
    const flags = ts.getCombinedNodeFlags(original)
    const keyword = flags & ts.NodeFlags.Const ? "const" : flags & ts.NodeFlags.Let ? "let" : "var"
    return `${keyword} ${text(d)}`
  }
  if (ts.isModuleDeclaration(original)) return `namespace ${original.name.getText(source)}`
  return text(d).replace(MODIFIERS, "").replace(/;$/, "")
}

/**
 * The names a module or namespace exports; for a namespace merged with a class or function, only
 * the namespace's own members (not `prototype` or static members).
 */
const membersOf = (checker, container) =>
  checker.getExportsOfModule(container).filter((e) =>
    !(e.flags & ts.SymbolFlags.Prototype)
    && (e.declarations ?? []).every((d) => !ts.isClassLike(d.parent))
  )

/** Top-level symbols of this package that `node` names in a type or `extends` (for forgotten exports). */
const referencedSymbols = (checker, node, inPackage) => {
  const found = []
  const visit = (n) => {
    let id
    if (ts.isTypeReferenceNode(n)) id = leftmost(n.typeName)
    else if (ts.isExpressionWithTypeArguments(n)) id = leftmost(n.expression)
    else if (ts.isTypeQueryNode(n)) id = leftmost(n.exprName)
    if (id !== undefined) {
      const symbol = checker.getSymbolAtLocation(id)
      const d = symbol?.declarations?.[0]
      if (
        symbol !== undefined && !(symbol.flags & ts.SymbolFlags.Alias) && d !== undefined && inPackage(d)
        && isTopLevel(d)
      ) found.push(symbol)
    }
    ts.forEachChild(n, visit)
  }
  visit(node)
  return found
}

const leftmost = (name) => {
  let n = name
  while (ts.isQualifiedName(n) || ts.isPropertyAccessExpression(n)) n = ts.isQualifiedName(n) ? n.left : n.expression
  return ts.isIdentifier(n) ? n : undefined
}

const isTopLevel = (d) => {
  const holder = ts.isVariableDeclaration(d) ? d.parent?.parent?.parent : d.parent
  return holder !== undefined && (ts.isSourceFile(holder) || ts.isModuleBlock(holder))
}

/**
 * The names a package exports, counted from its "." entry (or its first entry): each exported name
 * counts once, however many meanings it merges (a const, a type and a namespace called Foo are one
 * name); a namespace (`export * as Foo`, `declare namespace Foo`) counts itself and, recursively,
 * each of its members (Foo.a, Foo.b); a module reached twice (as a namespace of "." and as its own
 * subpath, or from two namespaces) counts once. Entry points that "." does not reach add their
 * names the same way. Names re-exported from another package count, their members do not.
 */
export const countNames = (checker, moduleSymbols, inPackage) => {
  const seen = new Set()
  const count = (container) => {
    if (seen.has(container)) return 0
    seen.add(container)
    let n = 0
    for (const exported of membersOf(checker, container)) {
      n += 1
      const target = resolveAlias(checker, exported)
      const d = target.declarations?.[0]
      if (isNamespace(target) && d !== undefined && inPackage(d)) n += count(target)
    }
    return n
  }
  return moduleSymbols.reduce((n, m) => n + count(m), 0)
}

const reportOf = (program, checker, pkg, entries) => {
  const pkgDir = real(pkg.dir)
  const inPackage = (node) => {
    const file = node.getSourceFile().fileName
    return file.startsWith(pkgDir + "/") && !file.slice(pkgDir.length).includes("/node_modules/")
  }
  const rel = (file) => posix(relative(pkgDir, file))

  const moduleOfFile = (file) => {
    const source = program.getSourceFile(real(file))
    const symbol = source === undefined ? undefined : checker.getSymbolAtLocation(source)
    return { source, symbol }
  }

  // Sections: one per module file, in the order entries reach them; each lists how it is reached.
  const sections = new Map()
  const section = (source, symbol) => {
    if (!sections.has(source.fileName)) sections.set(source.fileName, { source, symbol, reached: [] })
    return sections.get(source.fileName)
  }
  const entryModules = []
  for (const entry of entries) {
    const { source, symbol } = moduleOfFile(entry.file)
    if (symbol === undefined) {
      // A .d.ts with no import or export is a script, not a module: nothing to export.
      sections.set(entry.file, { source, symbol, reached: [`entry \`${entry.key}\``], empty: true })
      continue
    }
    entryModules.push(symbol)
    section(source, symbol).reached.push(`entry \`${entry.key}\``)
  }

  // Modules behind `export * as X`: reached from a section, listed in their own section.
  const queue = [...sections.values()].filter((s) => !s.empty)
  const exportedSymbols = new Set()
  const collect = (container, prefix, from) => {
    for (const exported of membersOf(checker, container)) {
      const target = resolveAlias(checker, exported)
      exportedSymbols.add(target)
      const moduleFile = moduleFileOf(target)
      if (moduleFile !== undefined && inPackage(moduleFile)) {
        const known = sections.has(moduleFile.fileName)
        section(moduleFile, target).reached.push(`\`${prefix}${exported.name}\` of ${from}`)
        if (!known) queue.push(sections.get(moduleFile.fileName))
      } else if (isNamespace(target) && target.declarations?.[0] !== undefined && inPackage(target.declarations[0])) {
        collect(target, `${prefix}${exported.name}.`, from)
      }
    }
  }
  for (let i = 0; i < queue.length; i++) collect(queue[i].symbol, "", `\`${rel(queue[i].source.fileName)}\``)

  const printed = new Set()
  const lines = (container, prefix) => {
    const out = []
    for (const exported of membersOf(checker, container).sort(byName)) {
      const target = resolveAlias(checker, exported)
      const name = `${prefix}${exported.name}`
      const kind = kindOf(target)
      const declarations = target.declarations ?? []
      const first = declarations[0]
      const moduleFile = moduleFileOf(target)
      if (first === undefined) {
        out.push(`// ${name}: ${kind || "unknown"}`, "")
        continue
      }
      if (!inPackage(first)) {
        out.push(`// ${name}: ${kind}, re-exported from ${origin(first.getSourceFile().fileName)}`, "")
        continue
      }
      if (moduleFile !== undefined) {
        out.push(`// ${name}: module namespace, see ${rel(moduleFile.fileName)}`, "")
        continue
      }
      const declaredAs = target.name !== exported.name && target.name !== "default"
        ? ` (declared as ${target.name})`
        : ""
      out.push(`// ${name}: ${kind}${declaredAs}`)
      for (const d of [...declarations].sort((a, b) => a.pos - b.pos)) {
        // Declarations this one names that the package does not export (a class's `X_base`).
        for (const hidden of referencedSymbols(checker, d, inPackage)) {
          if (exportedSymbols.has(hidden) || printed.has(hidden) || hidden === target) continue
          printed.add(hidden)
          out.push(`// not exported, named here: ${hidden.name}`)
          for (const h of hidden.declarations ?? []) out.push(printDeclaration(h))
        }
        out.push(printDeclaration(d))
      }
      out.push("")
      if (isNamespace(target)) out.push(...lines(target, `${name}.`))
    }
    return out
  }

  const count = countNames(checker, entryModules, inPackage)
  const limit = NAME_LIMITS[pkg.json.name]
  const text = [
    `# ${pkg.json.name}: public API`,
    "",
    "<!-- Generated by tooling/scripts/api-report.mjs from dist/*.d.ts: `pnpm api:update` rewrites it, "
    + "`pnpm check:api` (part of `pnpm test`) fails while it is stale. Do not edit by hand. -->",
    "",
    `Names exported: ${count}${limit === undefined ? "" : ` (limit ${limit})`}.`,
    "",
    "| entry point | types |",
    "| --- | --- |",
    ...entries.map((e) => `| \`${e.key}\` | \`${rel(real(e.file))}\` |`),
    "",
    ...[...sections.values()].flatMap((s) => [
      `## ${rel(s.source?.fileName ?? s.file)}`,
      "",
      `Reached as: ${s.reached.join("; ")}.`,
      "",
      "```ts",
      ...(s.empty ? ["// (no exports)", ""] : lines(s.symbol, "")),
      "```",
      ""
    ])
  ]
    .join("\n")
    .replace(/\n\n```\n/g, "\n```\n")
  return { text, count }
}

/** A unified diff of two texts (3 lines of context), or "" when they are equal. */
export const diffLines = (before, after, nameBefore = "a", nameAfter = "b") => {
  if (before === after) return ""
  const a = before.split("\n")
  const b = after.split("\n")
  // Longest common subsequence on lines, after trimming the common head and tail.
  let head = 0
  while (head < a.length && head < b.length && a[head] === b[head]) head++
  let tail = 0
  while (tail < a.length - head && tail < b.length - head && a[a.length - 1 - tail] === b[b.length - 1 - tail]) tail++
  const x = a.slice(head, a.length - tail)
  const y = b.slice(head, b.length - tail)
  const table = Array.from({ length: x.length + 1 }, () => new Uint32Array(y.length + 1))
  for (let i = x.length - 1; i >= 0; i--) {
    for (let j = y.length - 1; j >= 0; j--) {
      table[i][j] = x[i] === y[j] ? table[i + 1][j + 1] + 1 : Math.max(table[i + 1][j], table[i][j + 1])
    }
  }
  // Every line of a and b as an operation: " " kept, "-" removed, "+" added.
  const ops = a.slice(0, head).map((line) => [" ", line])
  let i = 0
  let j = 0
  while (i < x.length || j < y.length) {
    if (i < x.length && j < y.length && x[i] === y[j]) {
      ops.push([" ", x[i++]])
      j++
    } else if (i < x.length && (j === y.length || table[i + 1][j] >= table[i][j + 1])) ops.push(["-", x[i++]])
    else ops.push(["+", y[j++]])
  }
  ops.push(...a.slice(a.length - tail).map((line) => [" ", line]))
  // Hunks: changed lines with up to 3 lines around them.
  const out = [`--- ${nameBefore}`, `+++ ${nameAfter}`]
  const changed = ops.map((op, k) => (op[0] === " " ? -1 : k)).filter((k) => k >= 0)
  let k = 0
  while (k < changed.length) {
    let end = k
    while (end + 1 < changed.length && changed[end + 1] - changed[end] <= 7) end++
    const from = Math.max(0, changed[k] - 3)
    const to = Math.min(ops.length, changed[end] + 4)
    const before0 = ops.slice(0, from).filter((op) => op[0] !== "+").length
    const after0 = ops.slice(0, from).filter((op) => op[0] !== "-").length
    const hunk = ops.slice(from, to)
    const aLen = hunk.filter((op) => op[0] !== "+").length
    const bLen = hunk.filter((op) => op[0] !== "-").length
    out.push(`@@ -${before0 + 1},${aLen} +${after0 + 1},${bLen} @@`, ...hunk.map(([op, line]) => `${op}${line}`))
    k = end + 1
  }
  return out.join("\n")
}

/** Runs the check or the update; returns the exit code. */
export const main = (argv = process.argv.slice(2), log = console.log, error = console.error) => {
  const update = argv.includes("--update")
  const packages = publishablePackages()
  const reports = buildReports(packages)
  let failed = false
  for (const r of reports) {
    const shown = posix(relative(root, r.file))
    if (r.missing.length > 0) {
      error(
        `${r.name}: ${r.missing.map((f) => posix(relative(root, f))).join(", ")} not built: run \`pnpm build\` first`
      )
      failed = true
      continue
    }
    if (r.limit !== undefined && r.count > r.limit) {
      error(
        `${r.name} exports ${r.count} names, more than its limit of ${r.limit} (NAME_LIMITS in tooling/scripts/api-report.mjs)`
      )
      failed = true
    }
    const current = existsSync(r.file) ? readFileSync(r.file, "utf8") : ""
    if (current === r.text) continue
    if (update) {
      writeFileSync(r.file, r.text)
      log(`${shown}: updated`)
    } else {
      error(`${shown} is stale: run \`pnpm api:update\` and review the change\n`)
      error(diffLines(current, r.text, `${shown} (checked in)`, `${shown} (from dist/*.d.ts)`) + "\n")
      failed = true
    }
  }
  // Reports of packages that are gone or private now.
  const known = new Set(reports.map((r) => r.file))
  const packagesDir = join(root, "packages")
  const orphans = existsSync(packagesDir)
    ? readdirSync(packagesDir).map((d) => join(packagesDir, d, REPORT_FILE)).filter((f) =>
      existsSync(f) && !known.has(f)
    )
    : []
  for (const orphan of orphans) {
    const shown = posix(relative(root, orphan))
    if (update) {
      rmSync(orphan)
      log(`${shown}: removed (its package is private or gone)`)
    } else {
      error(`${shown} belongs to no published package: run \`pnpm api:update\` to remove it`)
      failed = true
    }
  }
  if (!failed) {
    const counts = reports.map((r) => `${r.name} ${r.count}`).join(", ")
    log(`check:api: ${reports.length} report(s) ${update ? "written" : "up to date"} (names: ${counts})`)
  }
  return failed ? 1 : 0
}

if (import.meta.filename === process.argv[1]) process.exitCode = main()
