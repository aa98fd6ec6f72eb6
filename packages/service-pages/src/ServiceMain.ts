/**
 * `pnpm start` of a service on `ServiceApp`: its settings from the environment and a `run` that
 * starts it. With the distributor's or the SMS's settings set (`SHOPLINK_PUNCHOUT_BASE_URL`, the
 * adapter's base URL…) it serves the shops onboarded in its database to the users of
 * `SHOPLINK_USERS_FILE`; with none, the app's embedded default (a sandbox and a fake SMS, started
 * in-process) on a scratch database removed at exit. A configuration error is one line per
 * problem, naming the variable and what it is for, never a secret; logs and telemetry follow
 * Shoplink's standard settings (`SHOPLINK_LOG_FORMAT`, `OTEL_EXPORTER_OTLP_ENDPOINT`…).
 *
 * @since 0.1.0
 */
import * as NodeRuntime from "@effect/platform-node/NodeRuntime"
import type { Connector, Setting } from "@shoplink/connector"
import { Observability, Settings as Standard, SettingsTable, Storage } from "@shoplink/connector-runtime"
import { UndiciHttpClient } from "@shoplink/http-node"
import * as Config from "effect/Config"
import * as ConfigError from "effect/ConfigError"
import * as Console from "effect/Console"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import type * as Scope from "effect/Scope"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import * as ServiceApp from "./ServiceApp.js"
import * as SignIn from "./SignIn.js"

const { SETTINGS } = SettingsTable
const own = (env: string, description: string, kind?: Setting.Kind): Setting.SettingDefinition => ({
  env,
  file: ["service", env],
  secret: false,
  description,
  ...(kind === undefined ? {} : { kind })
})

/**
 * The service's own variables (Shoplink's standard ones are in `SettingsTable`).
 *
 * @example
 * import { ServiceMain } from "@shoplink/service-pages"
 * ServiceMain.OWN.port.env // "PORT"
 *
 * @since 0.1.0
 */
export const OWN = {
  port: own("PORT", "the port this service listens on"),
  host: own("HOST", "the interface this service listens on"),
  publicPort: own("SHOPLINK_PUBLIC_PORT", "a separate port for the webhooks and the callback page"),
  appBaseUrl: own("SHOPLINK_APP_BASE_URL", "where users' browsers reach the service's pages", "baseUrl"),
  linkSecret: {
    ...own("SHOPLINK_LINK_SECRET", "signs the links to the parts page (random per run when unset)"),
    secret: true
  },
  smsWebhookSecret: {
    ...own("SHOPLINK_SMS_WEBHOOK_SECRET", "keys the shops' SMS webhook URLs (random per run when unset)"),
    secret: true
  }
} as const

const optionalPort = (name: string) =>
  Config.option(
    Config.integer(name).pipe(
      Config.validate({ message: "expected a port number from 0 to 65535", validation: (n) => n >= 0 && n <= 65535 })
    )
  ).pipe(Config.map(Option.getOrUndefined))

const optionalUrl = (definition: Setting.SettingDefinition) =>
  Config.option(Standard.string(definition)).pipe(
    Config.map((url) => Option.getOrUndefined(Option.map(url, (u) => u.replace(/\/+$/, ""))))
  )

/**
 * Where the service listens and is reached, its name at the distributor, and its database
 * (`undefined`: `run` picks a SQLite file), in either mode.
 *
 * @example
 * import { ServiceMain } from "@shoplink/service-pages"
 * const config = ServiceMain.serviceConfig({ smsVendorName: "Acme SMS (Shoplink sample)" })
 *
 * @since 0.1.0
 */
export const serviceConfig = (defaults: { readonly smsVendorName: string }) =>
  Config.all({
    port: Config.integer(OWN.port.env).pipe(Config.withDefault(3000)),
    host: Config.string(OWN.host.env).pipe(Config.withDefault("127.0.0.1")),
    publicPort: optionalPort(OWN.publicPort.env),
    publicBaseUrl: optionalUrl(SETTINGS.publicBaseUrl),
    appBaseUrl: optionalUrl(OWN.appBaseUrl),
    smsVendorName: Standard.smsVendorName.pipe(Config.withDefault(defaults.smsVendorName)),
    database: Config.option(Standard.storage).pipe(Config.map(Option.getOrUndefined))
  })

/**
 * The real distributor, the keyring, the link and SMS webhook secrets and the users file.
 *
 * @example
 * import { ServiceMain } from "@shoplink/service-pages"
 * const config = ServiceMain.distributorConfig
 *
 * @since 0.1.0
 */
export const distributorConfig = Config.all({
  punchoutBaseUrl: Standard.punchoutClient.baseUrl,
  vendorApiKey: Standard.punchoutClient.vendorApiKey,
  orderManagement: Config.option(Config.all(Standard.orderManagementClient)).pipe(Config.map(Option.getOrUndefined)),
  // Checked as a keyring: the problem is named, never a key.
  secretKeys: Standard.secretBox.keys,
  linkSecret: Config.option(Config.redacted(OWN.linkSecret.env)).pipe(
    Config.map(Option.getOrElse(() => Redacted.make(SignIn.randomToken())))
  ),
  smsWebhookSecret: Config.option(Config.redacted(OWN.smsWebhookSecret.env)).pipe(
    Config.map(Option.getOrElse(() => Redacted.make(SignIn.randomToken())))
  ),
  users: SignIn.usersFileConfig(SETTINGS.usersFile.env, { hashHint: "`shoplink-hash-password`" })
})

/**
 * One line per problem in a `ConfigError`, naming the variable and what it is for (from its
 * definition: the standard table, `OWN`, and `extra`). Messages of invalid secrets are left out
 * (they may quote the value), except a keyring's or a database URL's, which never do.
 *
 * @example
 * import { ConfigError } from "effect"
 * import { ServiceMain } from "@shoplink/service-pages"
 * ServiceMain.configErrorLines(ConfigError.MissingData(["SHOPLINK_USERS_FILE"], "missing"))
 *
 * @since 0.1.0
 */
export const configErrorLines = (
  error: ConfigError.ConfigError,
  extra: ReadonlyArray<Setting.SettingDefinition> = []
): ReadonlyArray<string> => {
  const definitions = new Map(
    [...Object.values(SETTINGS), ...Object.values(OWN), ...extra].map((d) => [d.env, d] as const)
  )
  const named = (path: ReadonlyArray<string>) => {
    const definition = definitions.get(path.join("_"))
    // The description's first clause: no placeholder ({base_url}), no format after a colon.
    return definition === undefined
      ? path.join("_")
      : `${definition.env} (${definition.description.replace(/, \{[^}]*\}/g, "").split(": ")[0]})`
  }
  const lines = ConfigError.reduceWithContext(error, undefined, {
    andCase: (_, left: ReadonlyArray<string>, right: ReadonlyArray<string>) => [...left, ...right],
    orCase: (_, left: ReadonlyArray<string>, right: ReadonlyArray<string>) => [...left, ...right],
    missingDataCase: (_, path) => [`${named(path)} is missing`],
    invalidDataCase: (_, path, message) => {
      const definition = definitions.get(path.join("_"))
      if (definition?.secret === true && definition.kind !== "keyring" && definition.kind !== "database") {
        return [`${named(path)} is invalid`]
      }
      return [/^(is|must) /.test(message) ? `${named(path)} ${message}` : `${named(path)} is invalid: ${message}`]
    },
    sourceUnavailableCase: (_, path, message) => [`${named(path)} could not be read: ${message}`],
    unsupportedCase: (_, path, message) => [`${named(path)} is not supported: ${message}`]
  })
  return [...new Set(lines)]
}

/**
 * Reads `config`; on a configuration error prints one line per problem to stderr (then `note`) and
 * stops the program with exit code 2, by interruption, so that `runMain` adds no log of its own.
 *
 * @example
 * import { Config } from "effect"
 * import { ServiceMain } from "@shoplink/service-pages"
 * const port = ServiceMain.readOrExplain(Config.integer("PORT"))
 *
 * @since 0.1.0
 */
export const readOrExplain = <A>(
  config: Config.Config<A>,
  options: { readonly note?: ReadonlyArray<string>; readonly settings?: ReadonlyArray<Setting.SettingDefinition> } = {}
): Effect.Effect<A> =>
  Effect.catchAll(config, (error) =>
    Effect.zipRight(
      Effect.sync(() => {
        const lines = configErrorLines(error, options.settings)
        process.stderr.write(
          [
            `Configuration error, ${lines.length} setting${lines.length === 1 ? "" : "s"} to fix:`,
            ...lines.map((l) => `  ${l}`),
            ...(options.note ?? [])
          ]
            .map((l) => `${l}\n`).join("")
        )
        process.exitCode = 2
      }),
      Effect.interrupt
    ))

/**
 * What an app's embedded default gives `run`: the settings it fills, its SMS settings, and the
 * banner lines saying what runs and who signs in.
 *
 * @example
 * import type { ServiceMain } from "@shoplink/service-pages"
 * type AcmeEmbedded = ServiceMain.Embedded<{ readonly baseUrl: string }>
 *
 * @since 0.1.0
 */
export interface Embedded<S> {
  readonly settings: Pick<
    ServiceApp.Settings,
    | "punchoutBaseUrl"
    | "vendorApiKey"
    | "orderManagement"
    | "secretKeys"
    | "linkSecret"
    | "smsWebhookSecret"
    | "users"
    | "shops"
  >
  readonly sms: S
  readonly banner: ReadonlyArray<string>
}

/**
 * What `run` starts: the service's title in logs and banner, its default vendor name and SQLite
 * file, the SMS's own settings (their definitions, and their `Config`), the connector on them,
 * the embedded default, and the pages' options.
 *
 * @example
 * import type { ServiceMain } from "@shoplink/service-pages"
 * type AcmeMain = ServiceMain.Main<{ readonly baseUrl: string }>
 *
 * @since 0.1.0
 */
export interface Main<S> {
  readonly title: string
  readonly smsVendorName: string
  readonly sqliteFile: string
  readonly sms: { readonly settings: ReadonlyArray<Setting.SettingDefinition>; readonly config: Config.Config<S> }
  readonly connector: (sms: S) => Connector.Connector<unknown, ServiceApp.Provided>
  readonly embedded: Effect.Effect<Embedded<S>, never, Scope.Scope>
  readonly options?: ServiceApp.Options
}

// The embedded default's database folder lives as long as the program (Ctrl+C and `kill` too).
const scratchDirectory = Effect.acquireRelease(
  Effect.sync(() => mkdtempSync(join(tmpdir(), "shoplink-sample-"))),
  (dir) => Effect.sync(() => rmSync(dir, { recursive: true, force: true }))
)

const databaseName = (database: Storage.Location) =>
  "postgres" in database ? Storage.maskUrl(Redacted.value(database.postgres)) : database.sqlite

const failStart = (message: string) =>
  Effect.sync(() => {
    process.stderr.write(`Could not start: ${message}\n`)
    process.exitCode = 1
  })

const program = <S>(main: Main<S>) =>
  Effect.gen(function*() {
    let started = false
    // Runs last, after the app and its database have closed.
    yield* Effect.addFinalizer((exit) =>
      started
        ? Effect.logInfo(`${main.title} stopped`).pipe(Effect.annotateLogs({
          reason: Exit.isInterrupted(exit) ? "signal (SIGTERM or SIGINT)" : Exit.isSuccess(exit) ? "done" : "failure"
        }))
        : Effect.void
    )
    // The banner goes beside the log lines, except when they are JSON (stdout is then JSON only).
    const say = (yield* Standard.observability.logFormat) === "json" ? Console.error : Console.log
    const service = yield* readOrExplain(serviceConfig(main), { settings: main.sms.settings })
    const requested = yield* Config.all(
      [SETTINGS.punchoutBaseUrl, ...main.sms.settings].map((s) => Config.option(Config.string(s.env)))
    )
    const mode = requested.some(Option.isSome) ? "external" : "embedded"
    const setup = mode === "external"
      ? yield* Effect.gen(function*() {
        const settings = yield* readOrExplain(Config.all({ distributor: distributorConfig, sms: main.sms.config }), {
          settings: main.sms.settings,
          note: [
            `${
              [SETTINGS.punchoutBaseUrl, ...main.sms.settings].map((s) => s.env).join(" or ")
            } is set, so the real distributor and`,
            "SMS are used: set the variables above, or unset them all for the embedded default."
          ]
        })
        return {
          settings: { ...settings.distributor, shops: [] },
          sms: settings.sms,
          database: service.database ?? { sqlite: main.sqliteFile }
        }
      })
      : yield* Effect.map(main.embedded, (embedded) => ({
        ...embedded,
        banner: [
          `Embedded default (no ${
            [SETTINGS.punchoutBaseUrl, ...main.sms.settings].map((s) => s.env).join(" or ")
          } set):`,
          ...embedded.banner
        ],
        database: service.database
      }))
    const database = setup.database ?? { sqlite: join(yield* scratchDirectory, "sample.sqlite") }
    const settings: ServiceApp.Settings = {
      ...service,
      ...setup.settings,
      smsWebhookSecret: setup.settings.smsWebhookSecret ?? Redacted.make(SignIn.randomToken()),
      database
    }
    const app = yield* ServiceApp.make(main.connector(setup.sms), settings, main.options).pipe(
      Effect.catchTag("StartFailed", (error) => Effect.zipRight(failStart(error.message), Effect.interrupt))
    )
    const shops = yield* app.runtime.shops.list().pipe(Effect.orElseSucceed(() => []))
    started = true
    yield* Effect.logInfo(`${main.title} listening`).pipe(Effect.annotateLogs({
      url: app.url,
      ...(app.publicUrl === app.url ? {} : { publicUrl: app.publicUrl }),
      appBaseUrl: app.appBaseUrl,
      mode,
      distributor: settings.punchoutBaseUrl,
      database: databaseName(database),
      shops: shops.length
    }))
    yield* say([
      ...("banner" in setup ? setup.banner : [
        `Distributor: ${settings.punchoutBaseUrl}`,
        `Database:    ${
          databaseName(database)
        } (shops: \`shoplink shops add\`; sign-in users: ${SETTINGS.usersFile.env}, ${settings.users.length})`
      ]),
      ...(shops.length === 0
        ? ["No shops in the database yet: onboard one with `shoplink shops add` (see the README)."]
        : []),
      ...(app.publicUrl === app.url ? [] : [`Public routes (webhooks, callback): ${app.publicUrl}`]),
      "",
      `${main.title} is running. Open ${app.appBaseUrl}${
        app.appBaseUrl === app.url ? "" : ` (listening on ${app.url})`
      }`,
      "Press Ctrl+C to stop."
    ].join("\n"))
    return yield* Effect.never
  })

/**
 * Runs the service as a program (`NodeRuntime.runMain`): logs and telemetry from the standard
 * settings, the mode from the environment, until SIGINT or SIGTERM.
 *
 * @example
 * import type { ServiceMain } from "@shoplink/service-pages"
 * declare const acme: ServiceMain.Main<{ readonly baseUrl: string }>
 * // ServiceMain.run(acme)
 *
 * @since 0.1.0
 */
export const run = <S>(main: Main<S>): void => {
  const observability = Observability.layerConfig(Standard.observability).pipe(Layer.provide(UndiciHttpClient.layer))
  // The logger above is the only one: runMain's own pretty logger would write every event again.
  NodeRuntime.runMain(
    Effect.scoped(program(main)).pipe(
      Effect.provide(observability),
      Effect.catchTags({
        ConfigError: (error) => failStart(String(error)),
        TelemetryUnavailable: (error) => failStart(error.message)
      })
    ),
    { disablePrettyLogger: true }
  )
}
