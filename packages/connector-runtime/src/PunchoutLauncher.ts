/**
 * Launches punchout from a repair order: loads the repair order through `ShopSystem`, registers a
 * launch (a webhook key and a callback key), takes the session of that customer and repair order
 * from the `SessionPool` (its webhook URLs point at this service under the webhook key, its callback
 * URL under the callback key), and returns the distributor's ShowCatalog URL for the vehicle, with
 * the repair order number as `referenceID`. The webhook key goes to the distributor in the
 * create-session request only; no URL a browser is given contains it.
 *
 * @since 0.1.0
 */
import * as Clock from "effect/Clock"
import * as Context from "effect/Context"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Layer from "effect/Layer"
import type * as Redacted from "effect/Redacted"
import * as Schema from "effect/Schema"
import type { Punchout } from "@shoplink/protocol"
import { Vin } from "@shoplink/protocol"
import { type PunchoutClient, type PunchoutError, SessionPool, ShowUrls } from "@shoplink/punchout"
import { CredentialsRevoked, CredentialStore, type CustomerCredentials } from "./CredentialStore.js"
import * as Routes from "./internal/routes.js"
import { LaunchRegistry } from "./LaunchRegistry.js"
import { CapabilityMissing, type RepairOrder, ShopSystem } from "@shoplink/connector/ShopSystem"

/**
 * Launcher settings.
 *
 * @example
 * import type { PunchoutLauncher } from "@shoplink/connector-runtime"
 * const options: PunchoutLauncher.Options = { publicBaseUrl: "https://parts.sms.example", smsVendorName: "Acme SMS" }
 *
 * @since 0.1.0
 */
export interface Options {
  /** Where the distributor (webhooks) and the user's browser (callback) reach this service. */
  readonly publicBaseUrl: string
  /** Path the `WebhookReceiver` is mounted under (default `/shoplink`). */
  readonly basePath?: string
  /** Shown in the distributor's footer. */
  readonly smsVendorName: string
  readonly exportButtons?: Punchout.ExportButtons
  /** How long a launch key outlives its session (default 1 hour): late webhook retries still land. */
  readonly keyGracePeriod?: Duration.DurationInput
  /**
   * Refuse a launch for a repair order whose vehicle the catalog cannot find (`VehicleRequired`)
   * instead of opening the catalog without a vehicle (default false).
   */
  readonly requireVehicle?: boolean | undefined
}

/**
 * The vehicle identifier a launch used.
 *
 * @example
 * import type { PunchoutLauncher } from "@shoplink/connector-runtime"
 * const used: PunchoutLauncher.VehicleIdentifier = "vin"
 *
 * @since 0.1.0
 */
export type VehicleIdentifier = "vin" | "licensePlate" | "baseVehicleID" | "none"

/**
 * What a launch returns. `url` holds the session token: keep it Redacted until the browser gets it.
 *
 * @example
 * import { Redacted } from "effect"
 * import type { PunchoutLauncher } from "@shoplink/connector-runtime"
 * const redirect = (launch: PunchoutLauncher.Launched) => Redacted.value(launch.url)
 *
 * @since 0.1.0
 */
export interface Launched {
  readonly url: Redacted.Redacted<string>
  readonly repairOrder: RepairOrder
  readonly vehicle: VehicleIdentifier
}

/**
 * A search term was given but the repair order has no vehicle the distributor can identify.
 *
 * @example
 * import { PunchoutLauncher } from "@shoplink/connector-runtime"
 * new PunchoutLauncher.VehicleRequired({ repairOrderId: "ro_1" }).message
 *
 * @since 0.1.0
 */
export class VehicleRequired extends Schema.TaggedError<VehicleRequired>()("VehicleRequired", {
  repairOrderId: Schema.String
}) {
  override get message(): string {
    return `repair order ${this.repairOrderId} has no VIN, plate with state, or base vehicle ID: a catalog search needs one`
  }
}

/**
 * The SMS says the repair order is closed (`RepairOrder.closed`): no parts are ordered for it.
 *
 * @example
 * import { PunchoutLauncher } from "@shoplink/connector-runtime"
 * new PunchoutLauncher.RepairOrderClosed({ repairOrderId: "ro_1", number: "1042" }).message
 *
 * @since 0.1.0
 */
export class RepairOrderClosed extends Schema.TaggedError<RepairOrderClosed>()("RepairOrderClosed", {
  repairOrderId: Schema.String,
  number: Schema.String
}) {
  override get message(): string {
    return `repair order ${this.number} is closed in the shop system: parts cannot be ordered for it`
  }
}

/**
 * Everything a launch can fail with.
 *
 * @example
 * import { Effect } from "effect"
 * import type { PunchoutLauncher } from "@shoplink/connector-runtime"
 * const describe = (error: PunchoutLauncher.LaunchError) => Effect.logWarning(error.message)
 *
 * @since 0.1.0
 */
export type LaunchError =
  | Effect.Effect.Error<ReturnType<CredentialStore["Type"]["get"]>>
  | Effect.Effect.Error<ReturnType<ShopSystem["Type"]["loadRepairOrder"]>>
  | Effect.Effect.Error<ReturnType<LaunchRegistry["Type"]["register"]>>
  | PunchoutClient.CreateSessionError
  | PunchoutError.InvalidInput
  | CapabilityMissing
  | VehicleRequired
  | RepairOrderClosed

/**
 * The launcher's operations.
 *
 * @example
 * import type { PunchoutLauncher } from "@shoplink/connector-runtime"
 * const open = (launcher: PunchoutLauncher.Operations) => launcher.launch({ shopId: "shop_1", repairOrderId: "ro_1" })
 *
 * @since 0.1.0
 */
export interface Operations {
  /** The ShowCatalog URL for the repair order's vehicle, optionally with a search. */
  readonly launch: (input: {
    readonly shopId: string
    readonly repairOrderId: string
    readonly searchTerm?: string | undefined
  }) => Effect.Effect<Launched, LaunchError>
  /** The ShowOrder URL of a distributor order, in the repair order's session. */
  readonly openOrder: (input: {
    readonly shopId: string
    readonly repairOrderId: string
    readonly orderId: string
  }) => Effect.Effect<Launched, LaunchError>
}

/**
 * The service tag.
 *
 * @example
 * import { Effect } from "effect"
 * import { PunchoutLauncher } from "@shoplink/connector-runtime"
 * const urlFor = (repairOrderId: string) =>
 *   Effect.flatMap(PunchoutLauncher.PunchoutLauncher, (l) => l.launch({ shopId: "shop_1", repairOrderId }))
 *
 * @since 0.1.0
 */
export class PunchoutLauncher
  extends Context.Tag("@shoplink/connector-runtime/PunchoutLauncher")<PunchoutLauncher, Operations>()
{}

/**
 * The distributor's identifier for a vehicle: VIN first (when VIN-shaped), then plate with its
 * state, then the ACES base vehicle ID.
 *
 * @example
 * import { PunchoutLauncher } from "@shoplink/connector-runtime"
 * PunchoutLauncher.vehicleParameters({ licensePlate: "8ABC123", licensePlateState: "CA" })
 * // { identifier: "licensePlate", params: { licensePlate: "8ABC123", licensePlateState: "CA" } }
 *
 * @since 0.1.0
 */
export const vehicleParameters = (vehicle: RepairOrder["vehicle"]): {
  readonly identifier: VehicleIdentifier
  readonly params: ShowUrls.ShowCatalogInput
} => {
  const vin = vehicle.vin?.trim().toUpperCase()
  if (vin !== undefined && Vin.shapeProblem(vin) === undefined) return { identifier: "vin", params: { vin } }
  if (vehicle.licensePlate && vehicle.licensePlateState) {
    return {
      identifier: "licensePlate",
      params: { licensePlate: vehicle.licensePlate, licensePlateState: vehicle.licensePlateState.toUpperCase() }
    }
  }
  if (vehicle.baseVehicleId) return { identifier: "baseVehicleID", params: { baseVehicleID: vehicle.baseVehicleId } }
  return { identifier: "none", params: {} }
}

/**
 * Webhook and callback URLs of a launch under the receiver's mount point: the webhooks under the
 * launch's webhook key, the callback under its callback key (a separate secret: see
 * `LaunchRegistry`).
 *
 * @example
 * import { PunchoutLauncher } from "@shoplink/connector-runtime"
 * const urls = PunchoutLauncher.launchUrls("https://parts.sms.example", "/shoplink", { key: "w3bh00k", callbackKey: "c4llb4ck" })
 * urls.order // "https://parts.sms.example/shoplink/webhooks/w3bh00k/order"
 * urls.callback // "https://parts.sms.example/shoplink/callback/c4llb4ck"
 *
 * @since 0.1.0
 */
export const launchUrls = (
  publicBaseUrl: string,
  basePath: string,
  keys: { readonly key: string; readonly callbackKey: string }
) => {
  const base = normalizeBasePath(basePath)
  return {
    order: Routes.url(publicBaseUrl, Routes.webhookRoutes.order, base, keys.key),
    quote: Routes.url(publicBaseUrl, Routes.webhookRoutes.quote, base, keys.key),
    callback: Routes.url(publicBaseUrl, "callback", base, keys.callbackKey)
  }
}

/**
 * `"/shoplink/"`, `"shoplink"` → `"/shoplink"`; `""` or `"/"` → `""`.
 *
 * @example
 * import { PunchoutLauncher } from "@shoplink/connector-runtime"
 * PunchoutLauncher.normalizeBasePath("shoplink/") // "/shoplink"
 *
 * @since 0.1.0
 */
export const normalizeBasePath: (basePath: string) => string = Routes.normalizeBasePath

const SESSION_LIFETIME = Duration.hours(12)

/**
 * Builds the launcher.
 *
 * @example
 * import { PunchoutLauncher } from "@shoplink/connector-runtime"
 * const launcher = PunchoutLauncher.make({ publicBaseUrl: "https://parts.sms.example", smsVendorName: "Acme SMS" })
 *
 * @since 0.1.0
 */
export const make = (options: Options): Effect.Effect<
  Operations,
  never,
  ShopSystem | CredentialStore | LaunchRegistry | SessionPool.SessionPool
> =>
  Effect.gen(function*() {
    const sms = yield* ShopSystem
    const credentials = yield* CredentialStore
    const registry = yield* LaunchRegistry
    const pool = yield* SessionPool.SessionPool
    const grace = Duration.decode(options.keyGracePeriod ?? "1 hour")
    const basePath = Routes.basePathOf(options.basePath)

    // Session (and launch key) of a repair order; the pool reuses it for later launches.
    const sessionFor = (shopId: string, customer: CustomerCredentials, repairOrder: RepairOrder) =>
      Effect.gen(function*() {
        const now = yield* Clock.currentTimeMillis
        const keys = yield* registry.register({
          shopId,
          repairOrderId: repairOrder.id,
          repairOrderNumber: repairOrder.number,
          repairOrderUrl: sms.capabilities.has("linkToRepairOrder") ? repairOrder.url : undefined,
          expiresAt: now + Duration.toMillis(SESSION_LIFETIME) + Duration.toMillis(grace)
        })
        return yield* pool.get(
          customer,
          {
            smsVendorName: options.smsVendorName,
            referenceID: repairOrder.number,
            webhooks: launchUrls(options.publicBaseUrl, basePath, keys),
            ...(options.exportButtons === undefined ? {} : { exportButtons: options.exportButtons })
          },
          `${shopId}/${repairOrder.id}`
        ).pipe(
          // 401 at creation: the shop's token was revoked (the spec's UNAUTHORIZED). Mark the shop so
          // later launches fail at once instead of asking the distributor again with a dead token.
          // The caller learns it at once, as every later launch will.
          Effect.catchTag("Unauthorized", () => {
            const reason = "the distributor answered 401 UNAUTHORIZED when a session was created"
            return Effect.zipRight(
              credentials.markRevoked(shopId, reason),
              Effect.fail(new CredentialsRevoked({ shopId, reason }))
            )
          })
        )
      })

    const load = (shopId: string, repairOrderId: string) =>
      sms.capabilities.has("readRepairOrder")
        ? sms.loadRepairOrder({ shopId, repairOrderId })
        : Effect.fail(new CapabilityMissing({ capability: "readRepairOrder" }))

    const launch: Operations["launch"] = ({ repairOrderId, searchTerm, shopId }) =>
      Effect.gen(function*() {
        // The shop first: an unknown or revoked shop fails before any shop-system or distributor call.
        const customer = yield* credentials.get(shopId)
        const repairOrder = yield* load(shopId, repairOrderId)
        // A closed repair order opens no catalog (its past orders still open: `openOrder`).
        if (repairOrder.closed === true) {
          return yield* new RepairOrderClosed({ repairOrderId: repairOrder.id, number: repairOrder.number })
        }
        const vehicle = vehicleParameters(repairOrder.vehicle)
        const term = searchTerm?.trim()
        if ((term || options.requireVehicle === true) && vehicle.identifier === "none") {
          return yield* new VehicleRequired({ repairOrderId })
        }
        const session = yield* sessionFor(shopId, customer, repairOrder)
        const url = yield* Either.match(
          ShowUrls.showCatalogUrl(session, {
            ...vehicle.params,
            ...(term ? { searchTerm: term } : {}),
            referenceID: repairOrder.number
          }),
          { onLeft: Effect.fail, onRight: Effect.succeed }
        )
        return { url, repairOrder, vehicle: vehicle.identifier }
      }).pipe(Effect.withSpan("PunchoutLauncher.launch", { attributes: { shopId, repairOrderId } }))

    const openOrder: Operations["openOrder"] = ({ orderId, repairOrderId, shopId }) =>
      Effect.gen(function*() {
        const customer = yield* credentials.get(shopId)
        const repairOrder = yield* load(shopId, repairOrderId)
        const session = yield* sessionFor(shopId, customer, repairOrder)
        const url = yield* Either.match(ShowUrls.showOrderUrl(session, { orderId, referenceID: repairOrder.number }), {
          onLeft: Effect.fail,
          onRight: Effect.succeed
        })
        return { url, repairOrder, vehicle: vehicleParameters(repairOrder.vehicle).identifier }
      }).pipe(Effect.withSpan("PunchoutLauncher.openOrder", { attributes: { shopId, repairOrderId } }))

    return PunchoutLauncher.of({ launch, openOrder })
  })

/**
 * The launcher as a layer.
 *
 * @example
 * import { PunchoutLauncher } from "@shoplink/connector-runtime"
 * const layer = PunchoutLauncher.layer({ publicBaseUrl: "https://parts.sms.example", smsVendorName: "Acme SMS" })
 *
 * @since 0.1.0
 */
export const layer = (options: Options): Layer.Layer<
  PunchoutLauncher,
  never,
  ShopSystem | CredentialStore | LaunchRegistry | SessionPool.SessionPool
> => Layer.effect(PunchoutLauncher, make(options))
