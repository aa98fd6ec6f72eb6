// check-examples must compile each public export's @example as a user would (importing the package
// by name, resolved through `exports` to dist/*.d.ts) and name the export and line of a failure.
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { afterEach, expect, it } from "vitest"
import { checkPackageExamples, collectExamples } from "../check-examples.mjs"

const scratch = []
afterEach(() => {
  for (const dir of scratch.splice(0)) rmSync(dir, { recursive: true, force: true })
  const tmp = join(import.meta.dirname, "..", ".tmp")
  if (readdirSync(tmp).length === 0) rmSync(tmp, { recursive: true, force: true })
})

// Inside the workspace (gitignored .tmp) so that @types/node resolves as it does for a package.
const fixture = (files) => {
  mkdirSync(join(import.meta.dirname, "..", ".tmp"), { recursive: true })
  const dir = mkdtempSync(join(import.meta.dirname, "..", ".tmp", "fixture-"))
  scratch.push(dir)
  mkdirSync(join(dir, "src"))
  mkdirSync(join(dir, "dist"))
  writeFileSync(
    join(dir, "package.json"),
    JSON.stringify({
      name: "@fixture/pkg",
      type: "module",
      exports: { ".": { types: "./dist/index.d.ts", default: "./dist/index.js" } }
    })
  )
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text)
  return dir
}

const source = {
  "src/index.ts": "export * as Greeting from \"./Greeting.js\"\n",
  "src/Greeting.ts": [
    "/**",
    " * Greets.",
    " *",
    " * @example",
    " * import { Greeting } from \"@fixture/pkg\"",
    " * const text: string = Greeting.greet(\"Ada\")",
    " */",
    "export const greet = (name: string): string => `hi ${name}`",
    "",
    "/**",
    " * Counts letters.",
    " *",
    " * @example",
    " * import { Greeting } from \"@fixture/pkg\"",
    " * const n: number = Greeting.count(\"Ada\")",
    " */",
    "export const count = (text: string): number => text.length",
    ""
  ].join("\n"),
  "dist/index.d.ts": "export * as Greeting from \"./Greeting.js\";\n",
  "dist/Greeting.d.ts":
    "export declare const greet: (name: string) => string;\nexport declare const count: (text: string) => number;\n"
}

it("collects the examples of public exports through namespace re-exports", () => {
  const { name, examples } = collectExamples(fixture(source))
  expect(name).toBe("@fixture/pkg")
  expect(examples.map((e) => [e.exportName, e.source, e.line])).toEqual([
    ["Greeting.greet", "src/Greeting.ts", 4],
    ["Greeting.count", "src/Greeting.ts", 13]
  ])
  expect(examples[0].code).toBe(
    "import { Greeting } from \"@fixture/pkg\"\nconst text: string = Greeting.greet(\"Ada\")"
  )
})

it("passes when every example compiles against the built declarations", () => {
  expect(checkPackageExamples(fixture(source))).toEqual({ name: "@fixture/pkg", count: 2, failures: [] })
})

it("names the export, its source line and the compiler error of an example that does not compile", () => {
  const broken = {
    ...source,
    "dist/Greeting.d.ts":
      "export declare const greet: (name: string) => string;\nexport declare const count: (text: string) => string;\n"
  }
  const { failures } = checkPackageExamples(fixture(broken))
  expect(failures).toHaveLength(1)
  expect(failures[0]).toContain("@fixture/pkg Greeting.count (src/Greeting.ts:13), example line 2: TS2322")
  expect(failures[0]).toContain("> const n: number = Greeting.count(\"Ada\")")
})

it("fails an example that imports a name the package does not export", () => {
  const renamed = { ...source, "dist/Greeting.d.ts": "export declare const greet: (name: string) => string;\n" }
  const { failures } = checkPackageExamples(fixture(renamed))
  expect(failures).toHaveLength(1)
  expect(failures[0]).toMatch(/Greeting\.count .*TS2339/)
})
