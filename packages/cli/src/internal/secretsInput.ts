// Where `shops add` reads a shop's secrets — never from the command line, where they would land in
// shell history and `ps`. One JSON document, { "apiToken": "…", "sms": { "<name>": "…" } }, from
// --secrets-file <file> (`-` for stdin), else from stdin when it is not a terminal (scripts:
// `shoplink shops add … < secrets.json`), else typed at prompts that do not echo.
import * as Prompt from "@effect/cli/Prompt"
import * as NodeTerminal from "@effect/platform-node/NodeTerminal"
import { ShopStore } from "@shoplink/connector-runtime"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import { existsSync, readFileSync, statSync } from "node:fs"
import { UsageError } from "./errors.js"
import { err } from "./output.js"

export interface ShopSecrets {
  readonly apiToken: Redacted.Redacted<string>
  readonly sms: Readonly<Record<string, Redacted.Redacted<string>>>
}

export const SECRETS_FORMAT = "{ \"apiToken\": \"…\", \"sms\": { \"apiKey\": \"…\" } }"

const MAX_BYTES = 1024 * 1024
/** The shop store's rule for SMS secret names (ShopStore.validate). */
const SECRET_NAME = /^[A-Za-z][A-Za-z0-9_]{0,63}$/
const formatFix = `give the JSON ${SECRETS_FORMAT} in --secrets-file <file> or on stdin`

const readStdin: Effect.Effect<string, UsageError> = Effect.async<string, UsageError>((resume) => {
  const stdin = process.stdin
  const chunks: Array<Buffer> = []
  let size = 0
  const cleanup = () => {
    stdin.off("data", onData)
    stdin.off("end", onEnd)
    stdin.off("error", onError)
  }
  const onData = (chunk: Buffer) => {
    size += chunk.length
    if (size <= MAX_BYTES) return void chunks.push(chunk)
    cleanup()
    stdin.destroy()
    resume(
      Effect.fail(
        new UsageError({ message: "stdin holds more than 1 MiB; expected a small JSON document", fix: formatFix })
      )
    )
  }
  const onEnd = () => {
    cleanup()
    resume(Effect.succeed(Buffer.concat(chunks).toString("utf8")))
  }
  const onError = (error: Error) => {
    cleanup()
    resume(Effect.fail(new UsageError({ message: `cannot read stdin: ${error.message}`, fix: formatFix })))
  }
  stdin.on("data", onData).once("end", onEnd).once("error", onError)
  return Effect.sync(() => {
    cleanup()
    stdin.pause()
  })
})

const readFile = (path: string): Effect.Effect<string, UsageError> =>
  Effect.gen(function*() {
    if (!existsSync(path) || statSync(path).isDirectory()) {
      return yield* new UsageError({ message: `secrets file not found: ${path}`, fix: formatFix })
    }
    const mode = statSync(path).mode & 0o777
    if (process.platform !== "win32" && (mode & 0o077) !== 0) {
      yield* err(
        `warning: secrets file ${path} can be read by others (mode ${
          mode.toString(8).padStart(4, "0")
        }): chmod 600 it, or delete it once the shop is onboarded`
      )
    }
    if (statSync(path).size > MAX_BYTES) {
      return yield* new UsageError({ message: `secrets file ${path} is larger than 1 MiB`, fix: formatFix })
    }
    return yield* Effect.try({
      try: () => readFileSync(path, "utf8"),
      catch: (error) =>
        new UsageError({ message: `cannot read secrets file ${path}: ${(error as Error).message}`, fix: formatFix })
    })
  })

// JSON keys are shown in errors only when they look like names (a stray value must not be echoed).
const shown = (key: string) => (/^[A-Za-z_][A-Za-z0-9_.-]{0,63}$/.test(key) ? `"${key}"` : "(not shown)")

const isRecord = (u: unknown): u is Record<string, unknown> => typeof u === "object" && u !== null && !Array.isArray(u)

/** Parses the secrets document. Nothing of its content is ever quoted but key names. */
export const parseSecrets = (text: string, where: string): Effect.Effect<ShopSecrets, UsageError> =>
  Effect.gen(function*() {
    if (text.trim() === "") {
      return yield* new UsageError({ message: `no secrets given: ${where} is empty`, fix: formatFix })
    }
    let json: unknown
    try {
      json = JSON.parse(text)
    } catch {
      // JSON.parse's message quotes the text around the error, which holds secrets.
      return yield* new UsageError({
        message: `${where} is not valid JSON (its content is not shown)`,
        fix: `expected ${SECRETS_FORMAT}`
      })
    }
    if (!isRecord(json)) {
      return yield* new UsageError({ message: `${where} must hold a JSON object`, fix: `expected ${SECRETS_FORMAT}` })
    }
    for (const key of Object.keys(json)) {
      if (key !== "apiToken" && key !== "sms") {
        return yield* new UsageError({
          message: `${where}: unknown key ${shown(key)}; expected "apiToken" and "sms"`,
          fix: `expected ${SECRETS_FORMAT}`
        })
      }
    }
    const token = json["apiToken"] ?? ""
    if (typeof token !== "string") {
      return yield* new UsageError({
        message: `${where}: apiToken must be a string`,
        fix: `expected ${SECRETS_FORMAT}`
      })
    }
    const smsJson = json["sms"] ?? {}
    if (!isRecord(smsJson)) {
      return yield* new UsageError({
        message: `${where}: sms must be an object of secrets by name`,
        fix: `expected ${SECRETS_FORMAT}`
      })
    }
    const sms: Record<string, Redacted.Redacted<string>> = {}
    for (const [name, value] of Object.entries(smsJson)) {
      if (typeof value !== "string") {
        return yield* new UsageError({
          message: `${where}: sms.${name} must be a string`,
          fix: `expected ${SECRETS_FORMAT}`
        })
      }
      sms[name] = Redacted.make(value)
    }
    return { apiToken: Redacted.make(token), sms }
  })

/** On a terminal: one prompt per secret, without echo. */
const prompt = (shopId: string, names: ReadonlyArray<string>): Effect.Effect<ShopSecrets, UsageError> =>
  Effect.gen(function*() {
    const apiToken = yield* Prompt.hidden({ message: `Distributor API token for shop ${shopId}` })
    const sms: Record<string, Redacted.Redacted<string>> = {}
    for (const name of names) sms[name] = yield* Prompt.hidden({ message: `SMS secret ${name} for shop ${shopId}` })
    return { apiToken, sms }
  }).pipe(
    Effect.provide(NodeTerminal.layer),
    Effect.catchTag("QuitException", () => Effect.fail(new UsageError({ message: "cancelled; nothing was stored" })))
  )

/**
 * With `--sms-secret` names, exactly those SMS secrets: each must be given, and no other (a typo
 * in a name would otherwise store a secret the adapter never reads).
 */
const select = (
  secrets: ShopSecrets,
  names: ReadonlyArray<string>
): Effect.Effect<ShopSecrets, ShopStore.InvalidShop> => {
  if (names.length === 0) return Effect.succeed(secrets)
  for (const name of names) {
    if (!(name in secrets.sms)) {
      return Effect.fail(
        new ShopStore.InvalidShop({ field: `sms.${name}`, rule: "is named by --sms-secret but not given" })
      )
    }
  }
  for (const name of Object.keys(secrets.sms)) {
    if (!names.includes(name)) {
      return Effect.fail(
        new ShopStore.InvalidShop({ field: `sms.${name}`, rule: "is given but not named by --sms-secret" })
      )
    }
  }
  return Effect.succeed(secrets)
}

/** The shop's secrets from the file, stdin or prompts (see the module comment). */
export const readSecrets = (
  shopId: string,
  file: Option.Option<string>,
  smsNames: ReadonlyArray<string>
): Effect.Effect<ShopSecrets, UsageError | ShopStore.InvalidShop> => {
  const names = [...new Set(smsNames)]
  // Not quoted: `--sms-secret apiKey=…` would put a value here.
  if (names.some((name) => !SECRET_NAME.test(name))) {
    return Effect.fail(
      new UsageError({
        message: "--sms-secret takes a secret's name (a letter, then letters, digits or '_'), not its value",
        fix: `name the secret, e.g. --sms-secret apiKey, and give its value in the secrets JSON ${SECRETS_FORMAT}`
      })
    )
  }
  const source = Option.isSome(file)
    ? file.value === "-"
      ? Effect.flatMap(readStdin, (text) => parseSecrets(text, "stdin"))
      : Effect.flatMap(readFile(file.value), (text) => parseSecrets(text, `secrets file ${file.value}`))
    : process.stdin.isTTY === true
    ? prompt(shopId, names)
    : Effect.flatMap(readStdin, (text) => parseSecrets(text, "stdin"))
  return Effect.flatMap(source, (secrets) => select(secrets, names))
}
