// The connector service's database, for `shops`, `secrets rotate`, `keys` and `inbox`: where it
// is (--database, else SHOPLINK_DATABASE_URL: a SQLite file or a postgres:// URL), the keyring that
// seals its secrets (SHOPLINK_SECRET_KEYS), and the stores of @shoplink/connector over it
// (ShopStore, ApiKeys, WebhookInbox on Storage.layer).
import { ApiKeys, Migrations, SecretBox, ShopStore, Storage, WebhookInbox } from "@shoplink/connector-runtime"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Layer from "effect/Layer"
import * as Logger from "effect/Logger"
import * as LogLevel from "effect/LogLevel"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import { existsSync, statSync } from "node:fs"
import { dirname, resolve } from "node:path"
import * as ShoplinkConfig from "../ShoplinkConfig.js"
import * as Logging from "./logging.js"
import { LocalFailure } from "./errors.js"
import type { GlobalArgs } from "./spec.js"

/** Where the commands' database and keyring come from. */
export interface ServiceArgs extends GlobalArgs {
  readonly database: Option.Option<string>
}

export interface Service {
  /** The database as people read it: the file as given, or the URL with its password masked. */
  readonly file: string
  /** Where the stores are: a SQLite file or a PostgreSQL database. */
  readonly location: Storage.Location
}

export interface SealingService extends Service {
  readonly keyring: SecretBox.Keyring
}

/**
 * `existing`: the file must be there (list, remove, rotate, keys list/revoke: opening a mistyped
 * path must not leave an empty database behind); `create`: it may be created (add, keys create).
 */
export type DatabaseUse = "existing" | "create"

const { database: DATABASE, secretKeys: SECRET_KEYS } = ShoplinkConfig.SETTINGS

const fixFor = {
  database: `pass --database <file> or set ${DATABASE.env}: the file the connector service uses`,
  missingFile:
    `check the path (the service's ${DATABASE.env}); \`shoplink shops add\` or \`shoplink keys create\` starts a new database`,
  secretKeys: `set ${SECRET_KEYS.env} to the service's keyring (\`shoplink secrets generate-key\` makes a key)`
}

/** The database path and where it came from, or the problem with it (one line, and its fix). */
const databaseOf = (
  settings: ShoplinkConfig.Settings,
  override: Option.Option<string>,
  use: DatabaseUse
): Either.Either<Storage.Location, readonly [string, string]> => {
  const fromSetting = ShoplinkConfig.optional(settings, "database")
  const given = Option.isSome(override) ? Option.some(override.value.trim()) : fromSetting
  const name = Option.isSome(override) ? "--database" : DATABASE.env
  const what = `${name} (${DATABASE.description})`
  if (Option.isNone(given) || given.value === "") {
    const blank = settings.empty?.database
    return Either.left([
      `${what} ${blank === undefined ? "is missing" : `is set but empty (${blank})`}`,
      fixFor.database
    ])
  }
  // A postgres:// URL is the shared database of a scaled-out service; anything else is a SQLite file.
  const location = Effect.runSync(Effect.either(Storage.fromUrl(given.value)))
  if (Either.isLeft(location)) return Either.left([`${what} is invalid: ${location.left.problem}`, fixFor.database])
  if ("postgres" in location.right) return Either.right(location.right)
  const file = location.right.sqlite
  const full = resolve(file)
  if (existsSync(full)) {
    return statSync(full).isDirectory()
      ? Either.left([`${what} is a folder, not a file: ${file}`, "give the path of the database file"])
      : Either.right(location.right)
  }
  if (use === "existing") return Either.left([`${what} names a file that does not exist: ${file}`, fixFor.missingFile])
  if (!existsSync(dirname(full))) {
    return Either.left([
      `${what} is in a folder that does not exist: ${dirname(file)}`,
      "create the folder first, or give another path"
    ])
  }
  return Either.right(location.right)
}

const nameOf = (location: Storage.Location) =>
  "postgres" in location ? Storage.maskUrl(Redacted.value(location.postgres)) : location.sqlite

/** The keyring, or the problem with it. SecretBox.parseKeyring has the last word on its shape. */
const keyringOf = (settings: ShoplinkConfig.Settings): Either.Either<SecretBox.Keyring, readonly [string, string]> => {
  const problem = ShoplinkConfig.problem(settings, "secretKeys")
  if (Option.isSome(problem)) return Either.left([problem.value, fixFor.secretKeys])
  return Either.mapLeft(
    SecretBox.parseKeyring(settings.values.secretKeys!.value),
    (error) =>
      [`${SECRET_KEYS.env} (${SECRET_KEYS.description}) is invalid: ${error.problem}`, fixFor.secretKeys] as const
  )
}

const configProblem = (problems: ReadonlyArray<readonly [string, string]>): ShoplinkConfig.ConfigProblem =>
  problems.length === 1
    ? new ShoplinkConfig.ConfigProblem({ message: problems[0]![0], fix: problems[0]![1], problems: [problems[0]![0]] })
    : new ShoplinkConfig.ConfigProblem({
      message: `${problems.length} settings are missing or invalid`,
      fix: problems.map(([, fix]) => fix).join("; "),
      problems: problems.map(([problem]) => problem)
    })

const loadSettings = (args: GlobalArgs) =>
  Effect.flatMap(ShoplinkConfig.load(Option.getOrUndefined(args.config), process.env), ShoplinkConfig.validate)

/** The database (and the keyring, when `keyring`), every problem with them reported at once. */
export function service(args: ServiceArgs, use: DatabaseUse): Effect.Effect<Service, ShoplinkConfig.ConfigProblem>
export function service(
  args: ServiceArgs,
  use: DatabaseUse,
  keyring: "keyring"
): Effect.Effect<SealingService, ShoplinkConfig.ConfigProblem>
export function service(
  args: ServiceArgs,
  use: DatabaseUse,
  keyring?: "keyring"
): Effect.Effect<Service | SealingService, ShoplinkConfig.ConfigProblem> {
  return Effect.gen(function*() {
    const settings = yield* loadSettings(args)
    const file = databaseOf(settings, args.database, use)
    const ring = keyring === undefined ? undefined : keyringOf(settings)
    const problems = [
      ...(Either.isLeft(file) ? [file.left] : []),
      ...(ring !== undefined && Either.isLeft(ring) ? [ring.left] : [])
    ]
    if (problems.length > 0) return yield* configProblem(problems)
    const location = Either.getOrThrow(file)
    const found = { file: nameOf(location), location }
    return ring === undefined ? found : { ...found, keyring: Either.getOrThrow(ring) }
  })
}

// The stores log their work at Info (`secrets re-sealed`); stdout is the command's output, so only
// warnings and worse are shown, on stderr.
const quiet = <A, E, R>(effect: Effect.Effect<A, E, R>) =>
  effect.pipe(
    Effect.provide(Logging.layer),
    Logger.withMinimumLogLevel(LogLevel.Warning)
  )

/** The stores' database: a SQLite file, or PostgreSQL (which fails with one line when it cannot connect). */
const storage = (service: Service) =>
  Storage.layer(service.location).pipe(
    Layer.mapError((error) =>
      new LocalFailure({
        message: error.message,
        fix: "check the URL, and that the database server answers and accepts the user"
      })
    )
  )

// Storage.sqlite dies when SQLite cannot open the file (not a database, no permission).
const openFailure = (file: string) => <A, E, R>(effect: Effect.Effect<A, E, R>) =>
  Effect.catchAllDefect(effect, (defect) =>
    Effect.fail(
      new LocalFailure({
        message: `cannot open the database ${file}: ${defect instanceof Error ? defect.message : String(defect)}`,
        fix: "check that the path is the service's database file and that you may read and write it"
      })
    ))

const storeFailure = (file: string) => (error: { readonly reason: string }) =>
  new LocalFailure({ message: `database ${file}: ${error.reason}`, fix: "check that it is the service's database" })

/** A stored secret that does not open: its key left the keyring (configuration), or it was altered. */
const unreadable = (error: SecretBox.SecretUnreadable) =>
  error.reason.startsWith("no key")
    ? new ShoplinkConfig.ConfigProblem({
      message: error.message,
      fix:
        `put key ${error.keyId} back in ${SECRET_KEYS.env} (after the first key), then run \`shoplink secrets rotate\``
    })
    : new LocalFailure({
      message: error.message,
      fix: "onboard the shop again (`shoplink shops add <id> … --replace`) to store its secrets afresh"
    })

/** The stores' own failures, said in the CLI's words (and exit codes); others pass unchanged. */
const translate = (file: string) => <E>(error: E): E | LocalFailure | ShoplinkConfig.ConfigProblem =>
  error instanceof ShopStore.ShopStoreError || error instanceof ApiKeys.ApiKeyStoreError ||
    error instanceof WebhookInbox.InboxError
    ? storeFailure(file)(error)
    : error instanceof SecretBox.SecretUnreadable
    ? unreadable(error)
    : error

/** Runs `f` with the shop store on the database, secrets sealed under the keyring. */
export const withShops = <A, E>(
  service: SealingService,
  f: (store: ShopStore.Operations) => Effect.Effect<A, E>
): Effect.Effect<A, Exclude<E, SecretBox.SecretUnreadable> | LocalFailure | ShoplinkConfig.ConfigProblem> =>
  Effect.flatMap(ShopStore.ShopStore, f).pipe(
    Effect.provide(
      ShopStore.layerSql.pipe(Layer.provide(storage(service)), Layer.provide(SecretBox.layer(service.keyring)))
    ),
    Effect.mapError((error) =>
      translate(service.file)(error) as
        | Exclude<E, SecretBox.SecretUnreadable>
        | LocalFailure
        | ShoplinkConfig.ConfigProblem
    ),
    openFailure(service.file),
    quiet
  )

/** Runs `f` with the vendor API key store on the database. */
export const withApiKeys = <A, E>(
  service: Service,
  f: (keys: ApiKeys.Operations) => Effect.Effect<A, E>
): Effect.Effect<A, E | LocalFailure> =>
  Effect.flatMap(ApiKeys.ApiKeys, f).pipe(
    Effect.provide(ApiKeys.layerSql.pipe(Layer.provide(storage(service)))),
    Effect.mapError((error) => translate(service.file)(error) as E | LocalFailure),
    openFailure(service.file),
    quiet
  )

/** Runs `f` with the webhook inbox on the database. */
export const withInbox = <A, E>(
  service: Service,
  f: (inbox: WebhookInbox.Operations) => Effect.Effect<A, E>
): Effect.Effect<A, Exclude<E, WebhookInbox.InboxError> | LocalFailure> =>
  Effect.flatMap(WebhookInbox.WebhookInbox, f).pipe(
    Effect.provide(WebhookInbox.layerSql.pipe(Layer.provide(storage(service)))),
    Effect.mapError((error) => translate(service.file)(error) as Exclude<E, WebhookInbox.InboxError> | LocalFailure),
    openFailure(service.file),
    quiet
  )

/** Runs `Migrations.run` on the database: the versions it applied (none when it was up to date). */
export const migrate = (service: Service) =>
  Migrations.run.pipe(
    Effect.provide(storage(service)),
    Effect.mapError((error) =>
      error instanceof LocalFailure
        ? error
        : new LocalFailure({
          message: error.message,
          fix: "fix the cause above and run it again: a failed migration changes nothing"
        })
    ),
    openFailure(service.file),
    quiet
  )

/** An instant as ISO-8601 (the stores keep epoch milliseconds). */
export const iso = (epochMillis: number): string => new Date(epochMillis).toISOString()
