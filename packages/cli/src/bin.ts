#!/usr/bin/env node
/**
 * The `shoplink` executable. `--version`, `--help` and mistyped commands are answered from plain
 * data (the version written at build time, the command spec) without loading Effect, so they
 * return about as fast as Node starts; anything else loads the full program (`Cli.run` on Node)
 * and exits with its code. Ctrl-C ends long-running commands (`sandbox start`, `webhook listen`)
 * cleanly with exit code 0.
 *
 * @example
 * // npx shoplink doctor
 * // node packages/cli/dist/bin.js punchout quotes "oil filter" --json
 *
 * @since 0.1.0
 */
import { VERSION } from "./internal/version.js"

// `shoplink … | head` closes the pipe early: that is the reader being done, not a failure.
for (const stream of [process.stdout, process.stderr]) {
  stream.on("error", (error: NodeJS.ErrnoException) => {
    if (error.code === "EPIPE") process.exit(0)
    throw error
  })
}

const args = process.argv.slice(2)

if (args[0] === "--version") {
  process.stdout.write(`${VERSION}\n`)
} else {
  const { formatUsage, route } = await import("./internal/router.js")
  const routed = route(args)
  if (routed._tag === "Version") {
    process.stdout.write(`${VERSION}\n`)
  } else if (routed._tag === "Help") {
    process.stdout.write(routed.text)
  } else if (routed._tag === "Usage") {
    process.stderr.write(`${formatUsage(routed, args.includes("--json"))}\n`)
    process.exitCode = 2
  } else {
    const { main } = await import("./internal/main.js")
    main([...process.argv.slice(0, 2), ...routed.args])
  }
}
