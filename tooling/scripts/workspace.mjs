// Reads the workspace's packages: shared by the check scripts.
import { spawnSync } from "node:child_process"
import { existsSync, readdirSync, readFileSync } from "node:fs"
import { join, resolve } from "node:path"

// SHOPLINK_ROOT lets the scripts' own tests point them at a scratch repository.
export const root = resolve(process.env.SHOPLINK_ROOT ?? resolve(import.meta.dirname, "../.."))

/** Every package folder under packages/ and apps/, with its parsed package.json. */
export const workspacePackages = () =>
  ["packages", "apps"].flatMap((group) => {
    const base = join(root, group)
    if (!existsSync(base)) return []
    return readdirSync(base, { withFileTypes: true })
      .filter((entry) => entry.isDirectory() && existsSync(join(base, entry.name, "package.json")))
      .map((entry) => ({
        group,
        dir: join(base, entry.name),
        rel: `${group}/${entry.name}`,
        json: JSON.parse(readFileSync(join(base, entry.name, "package.json"), "utf8"))
      }))
  })

/** Packages that npm would publish. */
export const publishablePackages = () => workspacePackages().filter((p) => p.group === "packages" && !p.json.private)

/**
 * The source file of each public entry point of the package in `dir`: `exports` targets
 * `./dist/<name>.js` map to `src/<name>.ts` (entries without a source file are left out).
 */
export const entrySources = (dir) => {
  const pkg = JSON.parse(readFileSync(join(dir, "package.json"), "utf8"))
  return Object.entries(pkg.exports ?? {})
    .filter(([key]) => key !== "./package.json")
    .map(([key, target]) => {
      const js = typeof target === "string" ? target : target.default ?? target.import
      return { key, file: join(dir, js.replace(/^\.\/dist\//, "src/").replace(/\.js$/, ".ts")) }
    })
    .filter((entry) => existsSync(entry.file))
}

/**
 * Refreshes src/internal/version.ts (write-version.mjs) of the packages whose own `build` script
 * does, as that script would before `tsc`: for builds that run one `tsc -b` over many packages.
 * Exits the process when one fails.
 */
export const refreshVersions = (packages) => {
  for (const pkg of packages) {
    if (!/write-version\.mjs/.test(pkg.json.scripts?.build ?? "")) continue
    const written = spawnSync(process.execPath, [join(import.meta.dirname, "write-version.mjs")], {
      cwd: pkg.dir,
      stdio: "inherit"
    })
    if (written.status !== 0) process.exit(written.status ?? 1)
  }
}
