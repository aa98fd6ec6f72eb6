/**
 * `ConnectorRuntime` set up for tests against a running sandbox: the sandbox's US customer
 * onboarded as one shop (with the SMS secrets the adapter reads through `SmsCredentials`), stores
 * in memory or on a SQLite file (to survive a "restart"), the runtime's routes served on a loopback
 * server, no background worker, and a `drain` that applies due inbox entries once. The conformance
 * suite builds one per check; adapter authors can use it for their own end-to-end tests.
 *
 * @since 0.1.0
 */
import * as HttpRouter from "@effect/platform/HttpRouter"
import * as NodeHttpClient from "@effect/platform-node/NodeHttpClient"
import * as NodeHttpServer from "@effect/platform-node/NodeHttpServer"
import { ShopSystem } from "@shoplink/connector"
import {
  ConnectorRuntime,
  InboxWorker,
  PartsLedger,
  type PunchoutLauncher,
  SecretBox,
  WebhookInbox
} from "@shoplink/connector-runtime"
import type { RunningSandbox } from "@shoplink/sandbox"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Redacted from "effect/Redacted"
import type * as Scope from "effect/Scope"
import { randomBytes } from "node:crypto"
import { createServer } from "node:http"

/**
 * Runtime settings.
 *
 * @example
 * import { Redacted } from "effect"
 * import type { ConformanceRuntime } from "@shoplink/connector-testkit"
 * const options: Omit<ConformanceRuntime.Options<never, never>, "sandbox" | "shopSystem"> = {
 *   shopId: "shop_1",
 *   storage: { sqlite: "/tmp/shoplink-test.sqlite" },
 *   secretKeys: Redacted.make("k1:AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA="),
 *   smsSecrets: { apiKey: Redacted.make("fake-sms-key") }
 * }
 *
 * @since 0.1.0
 */
export interface Options<E, R> {
  readonly sandbox: RunningSandbox
  /**
   * The adapter's ShopSystem layer (`connector.layer` with what it needs). What the runtime gives
   * an adapter (`ConnectorRuntime.ProvidedToAdapter`: `SmsCredentials`, …) it may leave
   * unprovided; anything else (its config, an `HttpClient`) comes from the caller, as `R`.
   */
  readonly shopSystem: Layer.Layer<ShopSystem.ShopSystem, E, R>
  /** The shop onboarded with the sandbox's US customer credentials (default `shop_1`). */
  readonly shopId?: string
  /**
   * The shop's SMS secrets (e.g. `{ apiKey }`), stored with it: the adapter reads them through
   * `SmsCredentials` (default none).
   */
  readonly smsSecrets?: Readonly<Record<string, Redacted.Redacted<string>>>
  /** Where shops, launch keys, the inbox and API keys live: memory (default) or a SQLite file. */
  readonly storage?: "memory" | { readonly sqlite: string }
  /**
   * The keyring sealing the shop's secrets on SQLite (`id:base64key`, see `SecretBox`). Default: a
   * new key per runtime. Pass the same one to build a runtime again on the same file (a restart).
   */
  readonly secretKeys?: Redacted.Redacted<string>
  /** Shown in the ordering pages' footer (default "Shoplink Conformance"). */
  readonly smsVendorName?: string
  /** Worker settings used by `drain` (default: 5 attempts, 1 second first retry, 30 seconds at most). */
  readonly worker?: InboxWorker.Options
}

/**
 * A built runtime. Everything lives until the Scope it was made in closes.
 *
 * @example
 * import { Effect } from "effect"
 * import type { ConformanceRuntime } from "@shoplink/connector-testkit"
 * const launchAndDrain = (runtime: ConformanceRuntime.ConformanceRuntime) =>
 *   Effect.zipRight(runtime.launch("ro_1"), runtime.drain)
 *
 * @since 0.1.0
 */
export interface ConformanceRuntime {
  readonly shopId: string
  /** Base URL of the loopback server the runtime's routes (`publicRouter`, `apiRouter`) listen on. */
  readonly publicBaseUrl: string
  /** Launches the catalog for a repair order of `shopId`. */
  readonly launch: (
    repairOrderId: string,
    searchTerm?: string
  ) => Effect.Effect<PunchoutLauncher.Launched, PunchoutLauncher.LaunchError>
  /** One worker pass over the due inbox entries (there is no background worker). */
  readonly drain: Effect.Effect<InboxWorker.PassResult, WebhookInbox.InboxError>
  /** The runtime's inbox. */
  readonly inbox: WebhookInbox.Operations
  /** The adapter's ShopSystem as the runtime uses it. */
  readonly shopSystem: ShopSystem.Operations
  /**
   * The `ConnectorRuntime` underneath: `shops` (onboard more), `apiKeys` (for the launch API on
   * `publicBaseUrl`), `launchLink` (signed with a secret made for this runtime), …
   */
  readonly runtime: ConnectorRuntime.Runtime
}

/** The adapter's layer failed to build: its error is `E`, not a setup defect. */
class AdapterLayerFailed {
  constructor(readonly error: unknown) {}
}

/**
 * Builds the runtime in the current Scope. Store, server and client-setting failures are defects
 * (a broken test setup, not a finding about the adapter); a failure to build the adapter's layer
 * is `E`.
 *
 * @example
 * import { Effect, Layer } from "effect"
 * import { ConformanceRuntime } from "@shoplink/connector-testkit"
 * import { ReferenceConnector, ReferenceSms } from "@shoplink/connector-testkit/reference"
 * import { startSandbox } from "@shoplink/sandbox"
 *
 * const program = Effect.scoped(Effect.gen(function*() {
 *   const sandbox = yield* startSandbox()
 *   const sms = ReferenceSms.make([{
 *     id: "ro_1",
 *     shopId: "shop_1",
 *     number: "1042",
 *     vehicle: { vin: "1FTEW1E56KFA12345" }
 *   }])
 *   const shopSystem = ReferenceConnector.layer.pipe(Layer.provide(Layer.succeed(ReferenceSms.ReferenceSms, sms)))
 *   const runtime = yield* ConformanceRuntime.make({ sandbox, shopSystem })
 *   const launched = yield* runtime.launch("ro_1")
 *   return launched.vehicle // "vin"
 * }))
 *
 * @since 0.1.0
 */
export const make = <E, R>(
  options: Options<E, R>
): Effect.Effect<ConformanceRuntime, E, Exclude<R, ConnectorRuntime.ProvidedToAdapter> | Scope.Scope> =>
  Effect.gen(function*() {
    const { sandbox } = options
    const shopId = options.shopId ?? "shop_1"
    const us = sandbox.credentials.customers.us

    // The adapter gets what the caller provides (its config, its HttpClient) and what the runtime
    // provides (SmsCredentials from the shop store); the runtime's own HttpClient stays its own.
    const callers = yield* Effect.context<Exclude<R, ConnectorRuntime.ProvidedToAdapter>>()
    const shopSystem = options.shopSystem.pipe(
      Layer.provide(Layer.succeedContext(callers)),
      Layer.mapError((error) => new AdapterLayerFailed(error))
    ) as Layer.Layer<ShopSystem.ShopSystem, AdapterLayerFailed, ConnectorRuntime.ProvidedToAdapter>

    // The routes on their own loopback server, as a deployment would serve them.
    const server = yield* NodeHttpServer.make(() => createServer(), { port: 0, host: "127.0.0.1" }).pipe(Effect.orDie)
    const port = server.address._tag === "TcpAddress" ? server.address.port : 0
    const publicBaseUrl = `http://127.0.0.1:${port}`

    // The HttpClient lives as long as the runtime (ConnectorRuntime keeps the one in context).
    const http = yield* Layer.build(NodeHttpClient.layerUndici)
    const runtime = yield* ConnectorRuntime.make(shopSystem, {
      publicBaseUrl,
      smsVendorName: options.smsVendorName ?? "Shoplink Conformance",
      punchout: { baseUrl: sandbox.url, vendorApiKey: Redacted.make(sandbox.credentials.vendorApiKey) },
      storage: options.storage ?? "memory",
      secretKeys: options.secretKeys ?? Redacted.make(SecretBox.generateKey("conformance")),
      launchLinkSecrets: [Redacted.make(randomBytes(32).toString("base64url"))],
      worker: false
    }).pipe(
      Effect.provide(http),
      // The adapter's own failure is `E`; anything else is the setup's fault, not the adapter's.
      Effect.catchAll((error) =>
        error instanceof AdapterLayerFailed ? Effect.fail(error.error as E) : Effect.die(error)
      )
    )
    yield* runtime.serve(
      server,
      HttpRouter.concat(runtime.publicRouter, runtime.apiRouter).pipe(HttpRouter.toHttpApp, Effect.flatten)
    )

    // Replaced, not added: a runtime built again on the same SQLite file finds the shop there.
    yield* runtime.shops.add({
      id: shopId,
      name: "Conformance Shop",
      distributor: {
        accountNo: us.accountNo,
        username: us.username,
        country: "US",
        apiToken: Redacted.make(us.apiToken)
      },
      sms: options.smsSecrets ?? {}
    }, { replace: true }).pipe(Effect.orDie)

    const inbox = runtime.inbox
    const drain = InboxWorker.processDue(
      options.worker ?? { maxAttempts: 5, baseDelay: "1 second", maxDelay: "30 seconds" }
    ).pipe(
      Effect.provideService(WebhookInbox.WebhookInbox, inbox),
      Effect.provideService(ShopSystem.ShopSystem, runtime.shopSystem),
      // The runtime's parts ledger: where lines go that the SMS cannot take.
      Effect.provideService(PartsLedger.PartsLedger, runtime.parts)
    )
    return {
      shopId,
      publicBaseUrl,
      launch: (repairOrderId, searchTerm) => runtime.launch({ shopId, repairOrderId, searchTerm }),
      drain,
      inbox,
      shopSystem: runtime.shopSystem,
      runtime
    } satisfies ConformanceRuntime
  })
