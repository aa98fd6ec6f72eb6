// Opens a URL with the platform's opener, or the command in SHOPLINK_BROWSER (split on spaces, URL
// appended) so tests and unusual desktops can substitute their own.
import * as Effect from "effect/Effect"
import { spawn } from "node:child_process"
import { LocalFailure } from "./errors.js"

/** The CLI's own setting, read only here. */
const BROWSER = "SHOPLINK_BROWSER"

const defaultOpener = (): ReadonlyArray<string> =>
  process.platform === "darwin" ? ["open"] : process.platform === "win32" ? ["cmd", "/c", "start", ""] : ["xdg-open"]

export const openUrl = (url: string): Effect.Effect<void, LocalFailure> =>
  Effect.async<void, LocalFailure>((resume) => {
    const configured = process.env[BROWSER]?.trim()
    const [command, ...args] = configured !== undefined && configured !== "" ? configured.split(/\s+/) : defaultOpener()
    const fail = (detail: string) =>
      resume(Effect.fail(
        new LocalFailure({
          message: `could not open the browser with ${command}: ${detail}`,
          fix: `set ${BROWSER} to your browser command, or print the URL with --show-token and open it yourself`
        })
      ))
    const child = spawn(command ?? "xdg-open", [...args, url], { stdio: "ignore" })
    child.once("error", (error) => fail(error.message))
    child.once("exit", (code) => (code === 0 ? resume(Effect.void) : fail(`exit code ${code}`)))
  })
