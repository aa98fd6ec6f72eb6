#!/usr/bin/env node
// `pnpm new:connector <name>`: generates packages/adapter-<name> and apps/<name>-sample from
// tooling/templates/connector, plus .changeset/first-release-adapter-<name>.md (the package's
// first-release entry, see .changeset/README.md). The generated adapter typechecks and its test
// runs the conformance suite, whose failures list what is left to do; it keeps one client per shop
// from the shop's API key (SmsCredentials.perShop), and has a fake of the SMS and the conformance
// harness on it under `./testing` (src/testing.ts). The sample app runs it on ServiceApp
// (@shoplink/service-pages); with no configuration, on an embedded default (the sandbox and the
// fake in-process), which its `demo` script drives end to end (the quoted lines on the fake, or in
// the runtime's parts ledger for an adapter without part-line writes) and its tests start
// (/readyz, sign-in, the list, Order parts), along with the conformance suite against the fake.
//
// Usage: node tooling/scripts/new-connector.mjs <name> [--title "Human Name"] [--root <dir>]
//   <name>   lower-case kebab-case, e.g. "acme-shop" (the connector id and npm suffix)
//   --title  the SMS's name as people write it (default: from the name, "Acme Shop")
//   --root   the repository to write into (default: this repository; tests use a scratch dir)
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs"
import { dirname, join, relative, resolve } from "node:path"
import { fileURLToPath } from "node:url"

const TEMPLATE = resolve(import.meta.dirname, "../templates/connector")
const NAME = /^[a-z][a-z0-9]*(-[a-z0-9]+)*$/

/** The placeholders of the template and their values for a connector name. */
export const placeholders = (name, title) => {
  const words = name.split("-")
  const pascal = words.map((w) => w[0].toUpperCase() + w.slice(1)).join("")
  return {
    __name__: name,
    __Name__: pascal,
    __NAME__: words.join("_").toUpperCase(),
    __title__: title ?? words.map((w) => w[0].toUpperCase() + w.slice(1)).join(" ")
  }
}

const fill = (text, values) => Object.entries(values).reduce((out, [key, value]) => out.split(key).join(value), text)

// Template files named _package.json become package.json (so no tool mistakes the template for a
// workspace package).
const targetName = (file, values) => fill(file === "_package.json" ? "package.json" : file, values)

const copyTree = (from, to, values, written) => {
  mkdirSync(to, { recursive: true })
  for (const entry of readdirSync(from)) {
    const source = join(from, entry)
    const target = join(to, targetName(entry, values))
    if (statSync(source).isDirectory()) {
      copyTree(source, target, values, written)
    } else {
      writeFileSync(target, fill(readFileSync(source, "utf8"), values))
      written.push(target)
    }
  }
}

/**
 * Generates the adapter, the sample app and the changeset under `root`. Throws on a bad name or
 * when any target exists (nothing is written then). Returns the files written.
 */
export const generate = ({ name, title, root }) => {
  if (typeof name !== "string" || !NAME.test(name)) {
    throw new Error(`connector name must be lower-case kebab-case (like "acme-shop"), got ${JSON.stringify(name)}`)
  }
  if (name.startsWith("adapter-")) throw new Error(`give the SMS name without "adapter-": ${name.slice(8)}`)
  const values = placeholders(name, title)
  const targets = {
    adapter: join(root, "packages", `adapter-${name}`),
    sample: join(root, "apps", `${name}-sample`),
    changeset: join(root, ".changeset", `first-release-adapter-${name}.md`)
  }
  for (const target of Object.values(targets)) {
    if (existsSync(target)) throw new Error(`${relative(root, target)} already exists`)
  }
  const written = []
  copyTree(join(TEMPLATE, "adapter"), targets.adapter, values, written)
  copyTree(join(TEMPLATE, "sample"), targets.sample, values, written)
  mkdirSync(dirname(targets.changeset), { recursive: true })
  writeFileSync(targets.changeset, fill(readFileSync(join(TEMPLATE, "changeset.md"), "utf8"), values))
  written.push(targets.changeset)
  return { ...targets, files: written, values }
}

const main = (argv) => {
  const args = [...argv]
  const option = (flag) => {
    const i = args.indexOf(flag)
    if (i === -1) return undefined
    const [, value] = args.splice(i, 2)
    if (value === undefined) throw new Error(`${flag} needs a value`)
    return value
  }
  const title = option("--title")
  const root = resolve(option("--root") ?? resolve(import.meta.dirname, "../.."))
  const [name, ...rest] = args
  if (name === undefined || rest.length > 0) {
    throw new Error("usage: pnpm new:connector <name> [--title \"Human Name\"] [--root <dir>]")
  }
  const result = generate({ name, title, root })
  const { values } = result
  const rel = (p) => relative(root, p)
  console.log(`Created ${rel(result.adapter)}, ${rel(result.sample)} and ${rel(result.changeset)}.

Next:
  pnpm install
  pnpm --filter @shoplink/adapter-${name} typecheck
  pnpm --filter @shoplink/adapter-${name} test   # the conformance suite: its failures are your to-do list
Then follow docs/adding-a-connector.md: write the fake ${values.__title__}'s routes (src/testing.ts) and the
adapter (src/${values.__Name__}Connector.ts). The adapter builds one client per shop from its ${values.__title__}
API key with SmsCredentials.perShop (secret "apiKey"; an SMS with OAuth client credentials reads two,
e.g. "clientId" and "clientSecret": rename API_KEY_SECRET, list both in \`required\` and onboard with
one --sms-secret per name);
${rel(result.sample)} runs it on ServiceApp (sign-in, repair orders, Order parts; it starts once the
adapter declares listRepairOrders), for the shops onboarded with
\`shoplink shops add … --sms-secret apiKey\` (\`pnpm --filter ${values.__name__}-sample start\`); with no
configuration it starts on the sandbox and the fake in-process, and
\`pnpm --filter ${values.__name__}-sample demo\` runs a launch and a quote through them;
\`pnpm --filter ${values.__name__}-sample test\` checks the service and runs the conformance suite (it fails,
saying what is left, until the adapter is written).`)
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    main(process.argv.slice(2))
  } catch (error) {
    console.error(`new:connector: ${error.message}`)
    process.exit(1)
  }
}
