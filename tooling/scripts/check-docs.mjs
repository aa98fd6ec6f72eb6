#!/usr/bin/env node
// Fails when the documentation would mislead a reader who copies from it (`pnpm check:docs`, part
// of `pnpm test`):
//   - an install line (`npm install …`, `pnpm add …`) names Effect or one of its packages without
//     the range our peers accept: plain `npm install effect` now resolves Effect 4, which we do not
//     support, and npm then fails with ERESOLVE;
//   - a README that npm publishes links relatively: npm's package page has no sibling folders, so
//     those links must be repository URLs, and those URLs must name a file that exists here;
//   - a relative link in any other Markdown file names a file that does not exist, or an anchor
//     that its target has no heading for;
//   - a source comment or document cites `../shared/`, which exists only beside this checkout (and
//     where it does, docs/spec/ must still be an exact copy of its specs);
//   - pnpm settings sit in .npmrc, where npm warns "Unknown project config" on every `npx pnpm`;
//   - a root script runs turbo without TURBO_TELEMETRY_DISABLED=1 (the notice prints on a fresh
//     clone's first `pnpm demo` otherwise).
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs"
import { dirname, join, relative, resolve } from "node:path"
import { publishablePackages, root } from "./workspace.mjs"

/** Where the repository lives on the web: package READMEs link here instead of relatively. */
export const repositoryWeb = "https://github.com/shoplink/shoplink"

/** Third-party packages whose major line matters to a copied install line, read from the catalog. */
const pinnedPackages = [
  "effect",
  "@effect/platform",
  "@effect/platform-node",
  "@effect/sql",
  "@effect/sql-sqlite-node",
  "@effect/sql-pg",
  "@effect/opentelemetry",
  "@effect/vitest",
  "@effect/cli"
]

/** The pinned stack: pnpm-workspace.yaml's `catalog:` block, flat `name: version` lines. */
export const readCatalog = (dir = root) => {
  const catalog = {}
  let inside = false
  for (const line of readFileSync(join(dir, "pnpm-workspace.yaml"), "utf8").split("\n")) {
    if (/^catalog:\s*$/.test(line)) {
      inside = true
      continue
    }
    if (inside && /^\S/.test(line)) inside = false
    const match = inside && /^\s+["']?([^"':\s]+)["']?:\s*["']?([^"'\s#]+)/.exec(line)
    if (match) catalog[match[1]] = match[2]
  }
  return catalog
}

/** The range an install line must give `name`: the caret range of the catalog version, as our peers say. */
export const expectedRange = (catalog, name) => catalog[name] === undefined ? undefined : `^${catalog[name]}`

const splitSpec = (spec) => {
  const at = spec.indexOf("@", spec.startsWith("@") ? 1 : 0)
  return at === -1 ? { name: spec, range: undefined } : { name: spec.slice(0, at), range: spec.slice(at + 1) }
}

/** Every install command in a Markdown text, joined across `\` continuations, with its line number. */
export const installLines = (text) => {
  const lines = text.split("\n")
  const found = []
  for (let i = 0; i < lines.length; i++) {
    if (!/^\s*(?:\$\s*)?(?:npm (?:install|i)|pnpm add|yarn add)\s/.test(lines[i])) continue
    let command = lines[i]
    let j = i
    while (/\\\s*$/.test(command) && j + 1 < lines.length) command = command.replace(/\\\s*$/, " ") + lines[++j]
    found.push({ line: i + 1, command: command.replace(/#.*$/, "").trim() })
    i = j
  }
  return found
}

/** Problems with one install command: each pinned package must carry exactly the catalog's caret range. */
export const checkInstallLine = (command, catalog) => {
  const problems = []
  const words = command.split(/\s+/).filter((w) => w !== "$" && !w.startsWith("-"))
  for (const word of words.slice(2)) {
    const { name, range } = splitSpec(word)
    if (!pinnedPackages.includes(name)) continue
    const expected = expectedRange(catalog, name)
    if (expected !== undefined && range !== expected) {
      problems.push(`${name} must be pinned as ${name}@${expected} (found ${word})`)
    }
  }
  return problems
}

const headingSlug = (heading) =>
  heading.trim().toLowerCase().replace(/[`*_~]/g, "").replace(/[^\p{L}\p{N}\s-]/gu, "").replace(/\s/g, "-")

/** The anchors GitHub gives a Markdown file's headings. */
export const anchorsOf = (text) => {
  const seen = new Map()
  const anchors = new Set()
  let fenced = false
  for (const line of text.split("\n")) {
    if (/^\s*```/.test(line)) fenced = !fenced
    const match = !fenced && /^#{1,6}\s+(.*)$/.exec(line)
    if (!match) continue
    const slug = headingSlug(match[1])
    const count = seen.get(slug) ?? 0
    seen.set(slug, count + 1)
    anchors.add(count === 0 ? slug : `${slug}-${count}`)
  }
  return anchors
}

/** Markdown links `[text](target)` outside code fences and inline code, with line numbers. */
export const linksOf = (text) => {
  const found = []
  let fenced = false
  text.split("\n").forEach((line, index) => {
    if (/^\s*```/.test(line)) fenced = !fenced
    if (fenced) return
    const prose = line.replace(/`[^`]*`/g, "")
    for (const match of prose.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) {
      found.push({ line: index + 1, target: match[1] })
    }
  })
  return found
}

/** Problems with a link target that should name a file under `dir` (a repository-relative path). */
const checkTarget = (dir, fromFile, pathAndAnchor) => {
  const [path, anchor] = pathAndAnchor.split("#")
  const file = path === "" ? fromFile : resolve(dir, decodeURIComponent(path))
  if (!existsSync(file)) return [`links to ${pathAndAnchor}, which does not exist`]
  if (
    anchor !== undefined && anchor !== "" && file.endsWith(".md") && !anchorsOf(readFileSync(file, "utf8")).has(anchor)
  ) {
    return [`links to ${pathAndAnchor}, whose file has no heading for #${anchor}`]
  }
  return []
}

/** Problems with the links of one Markdown file; `published` READMEs must not link relatively. */
export const checkLinks = (file, text, { published, repoRoot = root }) => {
  const problems = []
  for (const { line, target } of linksOf(text)) {
    const at = `line ${line}`
    if (/^(mailto:|#)/.test(target) && published) continue
    if (target.startsWith(`${repositoryWeb}/`)) {
      const match = /^\/(?:blob|tree)\/main\/(.*)$/.exec(target.slice(repositoryWeb.length))
      if (!match) {
        problems.push(`${at}: ${target} must point at /blob/main/… or /tree/main/…`)
        continue
      }
      problems.push(...checkTarget(repoRoot, file, match[1]).map((p) => `${at}: ${p}`))
      continue
    }
    if (/^[a-z]+:/i.test(target)) continue
    if (published) {
      problems.push(
        `${at}: relative link ${target} breaks on npm's package page; use ${repositoryWeb}/blob/main/${
          relative(repoRoot, resolve(dirname(file), target.split("#")[0])) || "…"
        }`
      )
      continue
    }
    problems.push(...checkTarget(dirname(file), file, target).map((p) => `${at}: ${p}`))
  }
  return problems
}

const markdownFiles = (dir) =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    if (["node_modules", "dist", ".git", ".turbo", "spec", "test-results"].includes(entry.name)) return []
    const path = join(dir, entry.name)
    if (entry.isDirectory()) return markdownFiles(path)
    return entry.name.endsWith(".md") && !entry.name.startsWith("CHANGELOG") ? [path] : []
  })

const sourceFiles = (dir) =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    if (["node_modules", "dist", ".git", ".turbo", "test-results"].includes(entry.name)) return []
    const path = join(dir, entry.name)
    if (entry.isDirectory()) return sourceFiles(path)
    return /\.(ts|mts|mjs|js|md)$/.test(entry.name) && statSync(path).size < 1_000_000 ? [path] : []
  })

/** What every published README that pins Effect says, so no reader takes Effect 4 by accident. */
export const EFFECT_LINE_STATEMENT = "Shoplink supports the **Effect 3** line only"

/** Every problem in the repository at `repoRoot`, as `file: problem` lines. */
export const checkRepository = (repoRoot = root) => {
  const problems = []
  const catalog = readCatalog(repoRoot)
  const published = new Set(publishablePackages().map((pkg) => join(pkg.dir, "README.md")))
  const docs = [
    join(repoRoot, "README.md"),
    ...["docs", "packages", "apps", "tooling"].flatMap((d) =>
      existsSync(join(repoRoot, d)) ? markdownFiles(join(repoRoot, d)) : []
    )
  ]
  for (const file of docs.filter(existsSync)) {
    const text = readFileSync(file, "utf8")
    const rel = relative(repoRoot, file)
    const installs = installLines(text)
    for (const { line, command } of installs) {
      for (const problem of checkInstallLine(command, catalog)) problems.push(`${rel}:${line}: ${problem}`)
    }
    // A reader copying the install line must also learn which Effect line we support, and why the pins.
    if (
      published.has(file) && installs.some(({ command }) => /\seffect@/.test(command)) &&
      !text.includes(EFFECT_LINE_STATEMENT)
    ) {
      problems.push(`${rel}: pins effect but does not say "${EFFECT_LINE_STATEMENT}"`)
    }
    for (const problem of checkLinks(file, text, { published: published.has(file), repoRoot })) {
      problems.push(`${rel}: ${problem}`)
    }
  }
  for (const dir of ["packages", "apps", "tooling", "docs"].map((d) => join(repoRoot, d)).filter(existsSync)) {
    for (const file of sourceFiles(dir)) {
      if (file === import.meta.filename || file.includes(`${join("scripts", "test")}`)) continue
      readFileSync(file, "utf8").split("\n").forEach((line, index) => {
        if (line.includes("../shared/")) {
          problems.push(
            `${relative(repoRoot, file)}:${
              index + 1
            }: cites ../shared/, which is not in the repository (the specs are in docs/spec/)`
          )
        }
      })
    }
  }
  // docs/spec holds copies of the specs; where the originals sit beside the checkout, they must agree.
  const shared = join(repoRoot, "..", "shared", "spec")
  if (existsSync(shared) && existsSync(join(repoRoot, "docs", "spec"))) {
    for (const name of readdirSync(shared).filter((f) => f.endsWith(".md"))) {
      const copy = join(repoRoot, "docs", "spec", name)
      if (!existsSync(copy) || readFileSync(copy, "utf8") !== readFileSync(join(shared, name), "utf8")) {
        problems.push(
          `docs/spec/${name}: differs from the spec beside the checkout (../shared/spec/${name}); copy it again`
        )
      }
    }
  }
  const npmrc = join(repoRoot, ".npmrc")
  if (existsSync(npmrc)) {
    for (const key of ["auto-install-peers", "strict-peer-dependencies", "shamefully-hoist", "node-linker"]) {
      if (new RegExp(`^\\s*${key}\\s*=`, "m").test(readFileSync(npmrc, "utf8"))) {
        problems.push(
          `.npmrc: ${key} is a pnpm setting (npm warns "Unknown project config"); set it in pnpm-workspace.yaml`
        )
      }
    }
  }
  const scripts = JSON.parse(readFileSync(join(repoRoot, "package.json"), "utf8")).scripts ?? {}
  for (const [name, script] of Object.entries(scripts)) {
    for (const part of script.split(/&&|\|\||;/)) {
      if (/(^|\s)turbo\s/.test(part) && !/TURBO_TELEMETRY_DISABLED=1\s/.test(part)) {
        problems.push(`package.json: script "${name}" runs turbo without TURBO_TELEMETRY_DISABLED=1`)
      }
    }
  }
  return problems
}

if (import.meta.filename === resolve(process.argv[1] ?? "")) {
  const problems = checkRepository()
  if (problems.length > 0) {
    console.error(`check-docs: ${problems.length} problem(s)\n${problems.map((p) => `  ${p}`).join("\n")}`)
    process.exit(1)
  }
  console.log(
    "check-docs: install lines pinned, links resolve, no ../shared/ citations, pnpm settings in pnpm-workspace.yaml"
  )
}
