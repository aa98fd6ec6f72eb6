// What the service needs to run, read from the environment. With neither SHOPLINK_PUNCHOUT_BASE_URL
// nor TEKMETRIC_BASE_URL set, it runs on the embedded default: the distributor sandbox and the fake
// Tekmetric started in-process, with two demo shops and their users (see embedded.ts).
import { Config, ConfigError, Effect, Either, Option, Redacted } from "effect"
import { readFileSync } from "node:fs"
import { SecretBox, type ShopStore, SignIn, Storage } from "@shoplink/connector"

/** Someone who may sign in to the sample's pages, and the one shop they act for. */
export interface User {
  readonly email: string
  readonly name: string
  readonly shopId: string
  /** `scrypt:N:r:p:salt:hash` (`SignIn.hashPassword` of @shoplink/connector). */
  readonly passwordHash: string
}

export interface Settings {
  readonly port: number
  readonly host: string
  /** Where the distributor (webhooks) and browsers (callback, parts page) reach this service. */
  readonly publicBaseUrl: string | undefined
  readonly smsVendorName: string
  readonly database: Storage.Location
  readonly punchoutBaseUrl: string
  readonly vendorApiKey: Redacted.Redacted<string>
  /** `https://api.tekmetric.com` or `https://sandbox.tekmetric.com` (or the fake's URL). */
  readonly tekmetricBaseUrl: string
  readonly secretKeys: Redacted.Redacted<string>
  /** Signs the links to the runtime's parts page (random per run when not set). */
  readonly linkSecret: Redacted.Redacted<string>
  readonly users: ReadonlyArray<User>
  /** Shops onboarded (or replaced) at start-up: the embedded default's two; none otherwise. */
  readonly shops: ReadonlyArray<ShopStore.ShopInput>
}

export const serviceConfig = Config.all({
  port: Config.integer("PORT").pipe(Config.withDefault(3000)),
  host: Config.string("HOST").pipe(Config.withDefault("127.0.0.1")),
  publicBaseUrl: Config.option(Config.string("SHOPLINK_PUBLIC_BASE_URL")).pipe(Config.map(Option.getOrUndefined)),
  smsVendorName: Config.string("SHOPLINK_SMS_VENDOR_NAME").pipe(Config.withDefault("Tekmetric (Shoplink sample)")),
  database: Config.option(Storage.config("SHOPLINK_DATABASE_URL")).pipe(Config.map(Option.getOrUndefined))
})

const secretKeys = Config.string("SHOPLINK_SECRET_KEYS").pipe(
  Config.mapOrFail((keys) =>
    Either.match(SecretBox.parseKeyring(keys), {
      onLeft: (invalid) => Either.left(ConfigError.InvalidData([], invalid.problem)),
      onRight: () => Either.right(Redacted.make(keys))
    })
  )
)

/** The sign-in users of real-service mode: a JSON array of { email, name?, shopId, passwordHash }. */
export const parseUsers = (text: string): Either.Either<ReadonlyArray<User>, string> => {
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch {
    return Either.left("not JSON: expected [{ \"email\", \"name\", \"shopId\", \"passwordHash\" }, …]")
  }
  if (!Array.isArray(json) || json.length === 0) return Either.left("expected a non-empty JSON array of users")
  const users: Array<User> = []
  for (const [index, entry] of json.entries()) {
    const { email, name, passwordHash, shopId } = (entry ?? {}) as Record<string, unknown>
    const at = `user ${index + 1}`
    if (typeof email !== "string" || !/^[^\s@]+@[^\s@]+$/.test(email.trim())) return Either.left(`${at}: email must be an email address`)
    if (typeof shopId !== "string" || !/^[A-Za-z0-9._-]{1,64}$/.test(shopId)) return Either.left(`${at}: shopId must be a shop's id`)
    if (typeof passwordHash !== "string" || !SignIn.isPasswordHash(passwordHash)) return Either.left(`${at}: passwordHash must be an scrypt hash`)
    const normalized = email.trim().toLowerCase()
    users.push({ email: normalized, name: typeof name === "string" && name.trim() !== "" ? name.trim() : normalized, shopId, passwordHash })
  }
  return Either.right(users)
}

const usersFile = Config.string("SHOPLINK_USERS_FILE").pipe(
  Config.mapOrFail((file) => {
    let text: string
    try {
      text = readFileSync(file, "utf8")
    } catch (error) {
      return Either.left(ConfigError.InvalidData([], `cannot read ${file} (${(error as NodeJS.ErrnoException).code ?? "error"})`))
    }
    return Either.mapLeft(parseUsers(text), (problem) => ConfigError.InvalidData([], `${file}: ${problem}`))
  })
)

/** The real distributor and the real Tekmetric, when configured. */
export const externalConfig = Config.all({
  punchoutBaseUrl: Config.string("SHOPLINK_PUNCHOUT_BASE_URL"),
  vendorApiKey: Config.redacted("SHOPLINK_VENDOR_API_KEY"),
  tekmetricBaseUrl: Config.string("TEKMETRIC_BASE_URL").pipe(Config.withDefault("https://sandbox.tekmetric.com")),
  secretKeys,
  linkSecret: Config.option(Config.redacted("SHOPLINK_LINK_SECRET")).pipe(
    Config.map(Option.getOrElse(() => Redacted.make(SignIn.randomToken())))
  ),
  users: usersFile
}).pipe(Config.map((settings) => ({ ...settings, shops: [] as ReadonlyArray<ShopStore.ShopInput> })))

/** Whether a real-service setting is present: then all of them must be. */
export const externalRequested = Config.all(
  ["SHOPLINK_PUNCHOUT_BASE_URL", "TEKMETRIC_BASE_URL"].map((name) => Config.option(Config.string(name)))
).pipe(Config.map((values) => values.some(Option.isSome)))

/** Reads `config`; on an error prints it in one line per problem and exits with code 2. */
export const readOrExplain = <A>(config: Config.Config<A>): Effect.Effect<A> =>
  Effect.catchAll(config, (error) =>
    Effect.zipRight(
      Effect.sync(() => {
        process.stderr.write(`Configuration error: ${String(error).replace(/\s+/g, " ")}\n`)
        process.exitCode = 2
      }),
      Effect.interrupt
    ))
