// Reads the workspace's packages: shared by the check scripts.
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
