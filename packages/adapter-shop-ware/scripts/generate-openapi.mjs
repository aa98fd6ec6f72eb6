#!/usr/bin/env node
// The fake Shop-Ware's routes and shapes, from Shop-Ware's public OpenAPI v1 (not retyped).
//
//   node scripts/generate-openapi.mjs                  writes src/internal/openapi.generated.ts
//                                                       from openapi/shop-ware-v1.subset.yml
//   node scripts/generate-openapi.mjs --check          exits 1 when that file is stale
//   node scripts/generate-openapi.mjs --vendor <original.yml> --commit <sha>
//                                                       first rewrites the subset from the original
//
// The original is `openapi/_original/shop-ware-v1-openapi-original.yml` of the public repository
// `api-evangelist/shop-ware` (800 KB). The subset keeps, verbatim, the path items of the operations
// the fake serves (SERVED), each after a `# v1:<line>` comment giving its line in the original (the
// `v1:LINE` of docs/assumptions.md), plus `components` and `security`; the document has no `$ref`,
// so nothing else is needed. The generated module lists, per served operation, its method, path
// template, success status, and its request and response schemas reduced to what the fake uses
// (type, nullable, enum, format, minLength, required, properties, items); descriptions and examples
// are left out. The document's `type: text` is a string.
import { readFileSync, writeFileSync } from "node:fs"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"
import { parse } from "yaml"

const root = join(dirname(fileURLToPath(import.meta.url)), "..")
const SUBSET = join(root, "openapi", "shop-ware-v1.subset.yml")
const GENERATED = join(root, "src", "internal", "openapi.generated.ts")
const SOURCE = {
  repository: "api-evangelist/shop-ware",
  path: "openapi/_original/shop-ware-v1-openapi-original.yml"
}

/** The operations the fake serves, `METHOD path` as in the document. */
export const SERVED = [
  "GET /api/v1/partners/{partner_id}/authorizations",
  "GET /api/v1/tenants/{id}",
  "GET /api/v1/tenants/{tenant_id}/repair_orders",
  "GET /api/v1/tenants/{tenant_id}/repair_orders/{id}",
  "GET /api/v1/tenants/{tenant_id}/vehicles/{id}",
  "GET /api/v1/tenants/{tenant_id}/customers/{id}",
  "GET /api/v1/tenants/{tenant_id}/notes",
  "POST /api/v1/tenants/{tenant_id}/notes",
  "PUT /api/v1/tenants/{tenant_id}/notes/{id}",
  "GET /api/v1/tenants/{tenant_id}/integrator_tags",
  "POST /api/v1/tenants/{tenant_id}/integrator_tags",
  "PUT /api/v1/tenants/{tenant_id}/integrator_tags/{id}",
  "GET /api/v1/webhooks",
  "POST /api/v1/webhooks",
  "GET /api/v1/webhooks/{id}",
  "PUT /api/v1/webhooks/{id}",
  "DELETE /api/v1/webhooks/{id}"
]

const served = () => [...new Set(SERVED.map((op) => op.slice(op.indexOf(" ") + 1)))]

/**
 * The subset of the original document (its text) that holds the served paths, verbatim.
 * @param {string} original the original document's text
 * @param {string} commit the commit of `api-evangelist/shop-ware` it was read at
 */
export const vendor = (original, commit) => {
  const lines = original.split("\n")
  const pathLine = (path) => lines.findIndex((l) => l === `  "${path}":`)
  const end = (from) => {
    let i = from + 1
    while (i < lines.length && !/^ {2}\S/.test(lines[i]) && !/^\S/.test(lines[i])) i++
    return i
  }
  const paths = lines.findIndex((l) => l === "paths:")
  const components = lines.findIndex((l) => l === "components:")
  if (paths < 0 || components < 0) throw new Error("no paths: or components: at the top level")
  const out = [
    "# Shop-Ware's public partner OpenAPI v1, only the path items the fake Shop-Ware serves",
    `# (packages/adapter-shop-ware/scripts/generate-openapi.mjs, SERVED), copied verbatim from`,
    `# https://github.com/${SOURCE.repository}/blob/${commit}/${SOURCE.path}`,
    `# (repository: ${SOURCE.repository}, path: ${SOURCE.path}, commit: ${commit}).`,
    "# Each path item follows a `# v1:<line>` comment: its line in the original, as docs/assumptions.md",
    "# cites it. Regenerate with `node scripts/generate-openapi.mjs --vendor <original.yml> --commit <sha>`.",
    ...lines.slice(0, paths + 1)
  ]
  for (const path of served()) {
    const at = pathLine(path)
    if (at < 0) throw new Error(`the original has no path ${path}`)
    out.push(`  # v1:${at + 1}`, ...lines.slice(at, end(at)))
  }
  out.push(...lines.slice(components))
  const text = out.join("\n")
  // The copy must be the original's path items, not a slice that cut one short.
  const a = parse(original).paths
  const b = parse(text).paths
  for (const path of served()) {
    if (JSON.stringify(a[path]) !== JSON.stringify(b[path])) throw new Error(`${path} differs after copying`)
  }
  return text
}

const KEPT = ["type", "nullable", "enum", "format", "minLength", "required"]
const TYPES = new Set(["object", "array", "string", "integer", "number", "boolean"])

const reduce = (schema, where) => {
  if (schema === undefined || schema === null) return undefined
  const out = {}
  for (const key of KEPT) if (schema[key] !== undefined) out[key] = schema[key]
  if (out.type === "text") out.type = "string"
  if (!TYPES.has(out.type)) throw new Error(`${where}: unsupported type ${JSON.stringify(schema.type)}`)
  if (schema.properties !== undefined) {
    out.properties = Object.fromEntries(
      Object.entries(schema.properties).map(([name, property]) => [name, reduce(property, `${where}.${name}`)])
    )
  }
  if (schema.items !== undefined) out.items = reduce(schema.items, `${where}[]`)
  return out
}

// The document repeats schemas inline (no $ref): a repair order is the same in the list and by id.
// A schema of at least SHARED_MIN characters found twice or more is written once, as a constant the
// operations name.
const SHARED_MIN = 300

/** The schemas written once: their JSON text → constant name, dependencies first. */
const sharedSchemas = (operations) => {
  const schemas = operations.flatMap((o) => [o.request, o.response]).filter((s) => s !== null)
  const childrenOf = (schema) => [...Object.values(schema.properties ?? {}), ...(schema.items ? [schema.items] : [])]
  // Counted where first met: inside a repeated schema, what it holds is not counted again.
  const counts = new Map()
  const count = (schema) => {
    const key = JSON.stringify(schema)
    counts.set(key, (counts.get(key) ?? 0) + 1)
    if (counts.get(key) === 1) childrenOf(schema).forEach(count)
  }
  schemas.forEach(count)
  const names = new Map()
  const name = (schema) => {
    childrenOf(schema).forEach(name)
    const key = JSON.stringify(schema)
    if (counts.get(key) > 1 && key.length >= SHARED_MIN && !names.has(key)) names.set(key, `SCHEMA_${names.size + 1}`)
  }
  schemas.forEach(name)
  return names
}

/** `value` as JSON.stringify(value, null, 2) writes it, but a shared schema (not `self`) by its name. */
const print = (value, names, depth = 0, self = undefined) => {
  if (typeof value !== "object" || value === null) return JSON.stringify(value)
  const key = JSON.stringify(value)
  if (key !== self && names.has(key)) return names.get(key)
  const pad = "  ".repeat(depth + 1)
  const end = "  ".repeat(depth)
  const items = Array.isArray(value)
    ? value.map((item) => `${pad}${print(item, names, depth + 1)}`)
    : Object.entries(value).map(([k, v]) => `${pad}${JSON.stringify(k)}: ${print(v, names, depth + 1)}`)
  if (items.length === 0) return Array.isArray(value) ? "[]" : "{}"
  return Array.isArray(value) ? `[\n${items.join(",\n")}\n${end}]` : `{\n${items.join(",\n")}\n${end}}`
}

/**
 * The generated module's text from the subset's text.
 * @param {string} subset the vendored subset
 */
export const generate = (subset) => {
  const document = parse(subset)
  const commit = /commit: ([0-9a-f]{40})/.exec(subset)?.[1]
  if (commit === undefined) throw new Error("the subset names no commit")
  const lines = subset.split("\n")
  const sourceLine = (path) => {
    const at = lines.findIndex((l) => l === `  "${path}":`)
    const line = /^ {2}# v1:(\d+)$/.exec(lines[at - 1] ?? "")?.[1]
    if (line === undefined) throw new Error(`${path}: no # v1:<line> comment before it`)
    return Number(line)
  }
  const operations = SERVED.map((key) => {
    const [method, path] = key.split(" ")
    const operation = document.paths?.[path]?.[method.toLowerCase()]
    if (operation === undefined) throw new Error(`the subset has no ${key}`)
    const statuses = Object.keys(operation.responses ?? {}).filter((s) => /^2\d\d$/.test(s))
    if (statuses.length !== 1) throw new Error(`${key}: expected one 2xx response, found ${statuses.join(", ")}`)
    const response = operation.responses[statuses[0]].content?.["application/json"]?.schema
    const request = operation.requestBody?.content?.["application/json"]?.schema
    return {
      key,
      method,
      path,
      route: `${method} ${path.replace(/\{([^}]+)\}/g, ":$1")}`,
      source: `v1:${sourceLine(path)}`,
      summary: operation.summary ?? "",
      status: Number(statuses[0]),
      request: reduce(request, `${key} request`) ?? null,
      response: reduce(response, `${key} response`) ?? null
    }
  })
  const names = sharedSchemas(operations)
  return [
    "// Generated by scripts/generate-openapi.mjs from openapi/shop-ware-v1.subset.yml: do not edit.",
    "// `pnpm --filter @shoplink/adapter-shop-ware run generate` rewrites it; test/openapi.test.ts fails",
    "// while it is stale. The operations the fake Shop-Ware serves, with their schemas reduced to what",
    "// the fake uses (type, nullable, enum, format, minLength, required, properties, items); a schema",
    "// the document repeats is written once (SCHEMA_n).",
    "import type { Operation, Schema } from \"./openapi.js\"",
    "",
    "/** Where the document was read. */",
    `export const SOURCE = ${JSON.stringify({ ...SOURCE, commit }, null, 2)} as const`,
    "",
    ...[...names].flatMap(([key, name]) => [`const ${name}: Schema = ${print(JSON.parse(key), names, 0, key)}`, ""]),
    "/** The served operations, in the fake's route order. */",
    `export const OPERATIONS: ReadonlyArray<Operation> = ${print(operations, names)}`,
    ""
  ].join("\n")
}

const main = () => {
  const args = process.argv.slice(2)
  const flag = (name) => {
    const i = args.indexOf(name)
    return i < 0 ? undefined : args[i + 1]
  }
  const original = flag("--vendor")
  if (original !== undefined) {
    const commit = flag("--commit")
    if (commit === undefined || !/^[0-9a-f]{40}$/.test(commit)) throw new Error("--vendor needs --commit <sha>")
    writeFileSync(SUBSET, vendor(readFileSync(original, "utf8"), commit))
    console.log(`wrote ${SUBSET}`)
  }
  const text = generate(readFileSync(SUBSET, "utf8"))
  if (args.includes("--check")) {
    if (readFileSync(GENERATED, "utf8") !== text) {
      console.error(`${GENERATED} is stale: run node scripts/generate-openapi.mjs`)
      process.exit(1)
    }
    console.log(`${GENERATED} is up to date`)
    return
  }
  writeFileSync(GENERATED, text)
  console.log(`wrote ${GENERATED}`)
}

if (process.argv[1] === fileURLToPath(import.meta.url)) main()
