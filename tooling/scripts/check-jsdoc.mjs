#!/usr/bin/env node
// Fails when a public export of a package has no JSDoc `@example`. Public = everything reachable
// from the entry points in package.json `exports` (source: src/<entry>.ts), through namespace
// re-exports. Declarations merged under one name (a schema const and its type) share their tags.
// Usage: node check-jsdoc.mjs [packageDir]   (default: the current folder)
// lint-package.mjs checks every package through one program (`examplesProgram` of all their
// entry points, then `missingExamples` per package): the declarations they share are read once.
import { readFileSync } from "node:fs"
import { join, relative, resolve } from "node:path"
import { pathToFileURL } from "node:url"
import ts from "typescript"
import { entrySources } from "./workspace.mjs"

/** One program over the entry points of the packages in `dirs`. */
export const examplesProgram = (dirs) =>
  ts.createProgram(dirs.flatMap((dir) => entrySources(dir).map((e) => e.file)), {
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    target: ts.ScriptTarget.ES2022,
    strict: true,
    skipLibCheck: true,
    noEmit: true
  })

/**
 * The public exports of the package in `dir` without an `@example` (`name (file:line)`), and how
 * many were checked; `program` must include its entry points (`examplesProgram`).
 */
export const missingExamples = (program, dir) => {
  const checker = program.getTypeChecker()
  const entries = entrySources(dir)
  const missing = []
  const seen = new Set()
  const visitModule = (moduleSymbol, prefix) => {
    for (const exported of checker.getExportsOfModule(moduleSymbol)) {
      const name = `${prefix}${exported.getName()}`
      const target = exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported
      const declarations = target.getDeclarations() ?? []
      const isModule = declarations.some((d) => ts.isSourceFile(d) || ts.isModuleDeclaration(d))
      if (isModule) {
        if (seen.has(target)) continue
        seen.add(target)
        visitModule(target, `${name}.`)
        continue
      }
      if (seen.has(target)) continue
      seen.add(target)
      const inPackage = declarations.filter((d) => !relative(dir, d.getSourceFile().fileName).startsWith(".."))
      if (inPackage.length === 0) continue
      const hasExample = target.getJsDocTags(checker).some((tag) => tag.name === "example")
      if (!hasExample) {
        const decl = inPackage[0]
        const file = decl.getSourceFile()
        const { line } = file.getLineAndCharacterOfPosition(decl.getStart())
        missing.push(`${name} (${relative(dir, file.fileName)}:${line + 1})`)
      }
    }
  }

  for (const entry of entries) {
    const source = program.getSourceFile(entry.file)
    const moduleSymbol = source && checker.getSymbolAtLocation(source)
    if (moduleSymbol) visitModule(moduleSymbol, entry.key === "." ? "" : `${entry.key.slice(2)}:`)
  }
  return { missing, checked: seen.size }
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const dir = resolve(process.argv[2] ?? process.cwd())
  const pkg = JSON.parse(readFileSync(join(dir, "package.json"), "utf8"))
  const { checked, missing } = missingExamples(examplesProgram([dir]), dir)
  if (missing.length > 0) {
    console.error(
      `${pkg.name}: ${missing.length} public export(s) without a JSDoc @example:\n- ${missing.join("\n- ")}`
    )
    process.exit(1)
  }
  console.log(`${pkg.name}: every public export has a JSDoc @example (${checked} checked)`)
}
