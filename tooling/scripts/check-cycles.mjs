#!/usr/bin/env node
// Fails when a module of a workspace package (packages/* and apps/*, their src/) imports itself
// back through a chain of relative imports that run at load time: such a cycle makes evaluation
// order decide whether a binding is initialised. Type-only imports (`import type`, `export type`)
// are erased by the compiler and are left out. Prints each cycle as a chain of files.
// Usage: node tooling/scripts/check-cycles.mjs   (part of `pnpm test`)
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs"
import { dirname, join, relative, resolve } from "node:path"
import { root, workspacePackages } from "./workspace.mjs"

const sourceFiles = (dir) =>
  readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    if (statSync(path).isDirectory()) return sourceFiles(path)
    return /\.tsx?$/.test(name) && !name.endsWith(".d.ts") ? [path] : []
  })

// `import … from "./x.js"`, `export … from "./x.js"`, `import "./x.js"`, `import("./x.js")` (a
// dynamic import runs later, not at load time: left out), minus the type-only forms.
const STATIC = /^\s*(import|export)\s+(type\s+)?(?:[^"';]*?\s+from\s+)?["'](\.{1,2}\/[^"']+)["']/gm

/** The relative imports of `file` that run when it loads, resolved to source files. */
export const runtimeImports = (file) => {
  const text = readFileSync(file, "utf8")
  const found = []
  for (const match of text.matchAll(STATIC)) {
    if (match[2] !== undefined) continue
    const target = resolve(dirname(file), match[3].replace(/\.js$/, ".ts"))
    const candidates = [target, target.replace(/\.ts$/, ".tsx"), join(target.replace(/\.ts$/, ""), "index.ts")]
    const hit = candidates.find((c) => existsSync(c))
    if (hit !== undefined) found.push(hit)
  }
  return found
}

/** Every cycle (strongly connected component of more than one module, or a self-import). */
export const cyclesOf = (files) => {
  const edges = new Map(files.map((f) => [f, runtimeImports(f)]))
  const index = new Map()
  const low = new Map()
  const stack = []
  const onStack = new Set()
  const cycles = []
  let counter = 0
  const visit = (v) => {
    index.set(v, counter)
    low.set(v, counter++)
    stack.push(v)
    onStack.add(v)
    for (const w of edges.get(v) ?? []) {
      if (!edges.has(w)) continue
      if (!index.has(w)) {
        visit(w)
        low.set(v, Math.min(low.get(v), low.get(w)))
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v), index.get(w)))
    }
    if (low.get(v) === index.get(v)) {
      const component = []
      let w
      do {
        w = stack.pop()
        onStack.delete(w)
        component.push(w)
      } while (w !== v)
      if (component.length > 1 || (edges.get(v) ?? []).includes(v)) cycles.push(component.reverse())
    }
  }
  for (const file of files) if (!index.has(file)) visit(file)
  return cycles
}

if (import.meta.url === `file://${process.argv[1]}`) {
  let modules = 0
  const problems = []
  for (const pkg of workspacePackages()) {
    const src = join(pkg.dir, "src")
    if (!existsSync(src)) continue
    const files = sourceFiles(src)
    modules += files.length
    for (const cycle of cyclesOf(files)) problems.push(`${pkg.rel}: ${cycle.map((f) => relative(root, f)).join(" → ")}`)
  }
  if (problems.length > 0) {
    console.error(`check:cycles found ${problems.length} import cycle(s):\n- ${problems.join("\n- ")}`)
    process.exit(1)
  }
  console.log(`check:cycles: no import cycle in ${modules} modules`)
}
