/**
 * The connector runtime wired for tests against a running sandbox: credential store, launch
 * registry and webhook inbox (in memory, or SQLite on a file to survive a "restart"), the webhook
 * receiver on a loopback server, the punchout launcher, and a `drain` that applies due inbox
 * entries once. The conformance suite builds one per check; adapter authors can use it for their
 * own end-to-end tests.
 *
 * @since 0.1.0
 */
import { HttpRouter } from "@effect/platform"
import { NodeHttpClient, NodeHttpServer } from "@effect/platform-node"
import { SqliteClient } from "@effect/sql-sqlite-node"
import {
  CredentialStore,
  InboxWorker,
  LaunchRegistry,
  PunchoutLauncher,
  ShopSystem,
  WebhookInbox,
  WebhookReceiver
} from "@shoplink/connector"
import { PunchoutClient, SessionPool } from "@shoplink/punchout"
import type { RunningSandbox } from "@shoplink/sandbox"
import { Context, Effect, Layer, Redacted, type Scope } from "effect"
import { createServer } from "node:http"

/**
 * Runtime settings.
 *
 * @example
 * import type { ConformanceRuntime } from "@shoplink/connector-testkit"
 * const options: Omit<ConformanceRuntime.Options<never, never>, "sandbox" | "shopSystem"> = {
 *   shopId: "shop_1", storage: { sqlite: "/tmp/shoplink-test.sqlite" }
 * }
 *
 * @since 0.1.0
 */
export interface Options<E, R> {
  readonly sandbox: RunningSandbox
  /** The adapter's ShopSystem layer (its requirements provided by the caller or by `R`). */
  readonly shopSystem: Layer.Layer<ShopSystem.ShopSystem, E, R>
  /** The shop the sandbox's US customer credentials are stored for (default `shop_1`). */
  readonly shopId?: string
  /** Where the inbox and launch registry live: memory (default) or a SQLite file. */
  readonly storage?: "memory" | { readonly sqlite: string }
  /** Shown in the ordering pages' footer (default "Shoplink Conformance"). */
  readonly smsVendorName?: string
  /** Worker settings used by `drain` (default: 5 attempts, 1 second first retry). */
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
  /** Base URL of the loopback server the receiver listens on. */
  readonly publicBaseUrl: string
  /** Launches the catalog for a repair order of `shopId`. */
  readonly launch: (
    repairOrderId: string,
    searchTerm?: string
  ) => Effect.Effect<PunchoutLauncher.Launched, PunchoutLauncher.LaunchError>
  /** One worker pass over the due inbox entries. */
  readonly drain: Effect.Effect<InboxWorker.PassResult, WebhookInbox.InboxError>
  /** The runtime's inbox. */
  readonly inbox: WebhookInbox.Operations
  /** The adapter's ShopSystem as the runtime uses it. */
  readonly shopSystem: ShopSystem.Operations
}

/**
 * Builds the runtime in the current Scope. Store and server failures are defects (a broken test
 * setup, not a finding about the adapter); a failure to build the adapter's layer is `E`.
 *
 * @example
 * import { Effect, Layer } from "effect"
 * import { ConformanceRuntime } from "@shoplink/connector-testkit"
 * import { ReferenceConnector, ReferenceSms } from "@shoplink/connector-testkit/reference"
 * import { startSandbox } from "@shoplink/sandbox"
 *
 * const program = Effect.scoped(Effect.gen(function*() {
 *   const sandbox = yield* startSandbox()
 *   const sms = ReferenceSms.make([{ id: "ro_1", number: "1042", vehicle: { vin: "1FTEW1E56KFA12345" } }])
 *   const shopSystem = ReferenceConnector.layer.pipe(Layer.provide(Layer.succeed(ReferenceSms.ReferenceSms, sms)))
 *   const runtime = yield* ConformanceRuntime.make({ sandbox, shopSystem })
 *   const launched = yield* runtime.launch("ro_1")
 *   return launched.vehicle // "vin"
 * }))
 *
 * @since 0.1.0
 */
export const make = <E, R>(options: Options<E, R>): Effect.Effect<ConformanceRuntime, E, R | Scope.Scope> =>
  Effect.gen(function*() {
    const { sandbox } = options
    const shopId = options.shopId ?? "shop_1"
    const us = sandbox.credentials.customers.us
    const storage = options.storage ?? "memory"
    const durable = storage === "memory"
      ? Layer.merge(WebhookInbox.layerMemory, LaunchRegistry.layerMemory)
      : Layer.merge(WebhookInbox.layerSql, LaunchRegistry.layerSql).pipe(
        Layer.provide(SqliteClient.layer({ filename: storage.sqlite }))
      )
    const stores = yield* Layer.build(
      Layer.merge(
        durable,
        CredentialStore.layerMemory({ [shopId]: { ...us, country: "US", apiToken: Redacted.make(us.apiToken) } })
      )
    ).pipe(Effect.orDie)
    const sms = yield* Layer.build(options.shopSystem)
    const context = Context.merge(stores, sms)

    // The receiver on its own loopback server, as a deployment would mount it.
    const server = yield* NodeHttpServer.make(() => createServer(), { port: 0, host: "127.0.0.1" }).pipe(Effect.orDie)
    const port = server.address._tag === "TcpAddress" ? server.address.port : 0
    const publicBaseUrl = `http://127.0.0.1:${port}`
    yield* server.serve(HttpRouter.toHttpApp(WebhookReceiver.router()).pipe(Effect.flatten)).pipe(
      Effect.provide(context)
    )

    const punchout = SessionPool.layer().pipe(
      Layer.provideMerge(
        PunchoutClient.layer({ baseUrl: sandbox.url, vendorApiKey: Redacted.make(sandbox.credentials.vendorApiKey) })
      ),
      Layer.provide(NodeHttpClient.layerUndici)
    )
    const launcher = yield* Layer.build(
      PunchoutLauncher.layer({ publicBaseUrl, smsVendorName: options.smsVendorName ?? "Shoplink Conformance" }).pipe(
        Layer.provide(punchout),
        Layer.provide(Layer.succeedContext(context))
      )
    ).pipe(Effect.map(Context.get(PunchoutLauncher.PunchoutLauncher)))

    const worker = options.worker ?? { maxAttempts: 5, baseDelay: "1 second", maxDelay: "30 seconds" }
    return {
      shopId,
      publicBaseUrl,
      launch: (repairOrderId, searchTerm) => launcher.launch({ shopId, repairOrderId, searchTerm }),
      drain: InboxWorker.processDue(worker).pipe(Effect.provide(context)),
      inbox: Context.get(context, WebhookInbox.WebhookInbox),
      shopSystem: Context.get(sms, ShopSystem.ShopSystem)
    } satisfies ConformanceRuntime
  })
