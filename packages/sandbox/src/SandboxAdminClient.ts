/**
 * A typed client of the sandbox's admin API (`/__sandbox`), derived from `SandboxApi` with
 * `HttpApiClient`: tests, the CLI and the conformance kit read sessions, orders and deliveries
 * with it instead of matching HTML.
 *
 * @since 0.1.0
 */
import * as HttpApiClient from "@effect/platform/HttpApiClient"
import * as HttpClient from "@effect/platform/HttpClient"
import * as HttpClientRequest from "@effect/platform/HttpClientRequest"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Redacted from "effect/Redacted"
import { SandboxApi } from "./SandboxApi.js"

/**
 * Where the sandbox is, and its admin token when it has one.
 *
 * @example
 * import { Redacted } from "effect"
 * import type { SandboxAdminClientOptions } from "@shoplink/sandbox"
 * const options: SandboxAdminClientOptions = { url: "http://127.0.0.1:4010", adminToken: Redacted.make("s3cret") }
 *
 * @since 0.1.0
 */
export interface SandboxAdminClientOptions {
  /** The sandbox's base URL (`RunningSandbox.url`). */
  readonly url: string
  readonly adminToken?: Redacted.Redacted<string> | undefined
}

/**
 * Makes the admin client: one method per admin route (`clock`, `advanceClock`, `order`,
 * `session`, `driverSearch`, …), with the payload and path parameters the definition declares;
 * failures are `AdminBadRequest`, `AdminNotFound`, `AdminUnauthorized` or an HTTP client error.
 *
 * @example
 * import { FetchHttpClient } from "@effect/platform"
 * import { Effect } from "effect"
 * import { makeSandboxAdminClient, withSandbox } from "@shoplink/sandbox"
 * const program = withSandbox((sandbox) =>
 *   Effect.gen(function*() {
 *     const admin = yield* makeSandboxAdminClient({ url: sandbox.url })
 *     const order = yield* admin.order({ path: { orderID: "10001" } })
 *     return order.state
 *   })
 * ).pipe(Effect.provide(FetchHttpClient.layer))
 *
 * @since 0.1.0
 */
export const makeSandboxAdminClient = (options: SandboxAdminClientOptions) =>
  Effect.flatMap(HttpClient.HttpClient, (httpClient) =>
    HttpApiClient.group(SandboxApi, {
      group: "admin",
      httpClient: options.adminToken === undefined
        ? httpClient
        : HttpClient.mapRequest(httpClient, HttpClientRequest.bearerToken(Redacted.value(options.adminToken))),
      baseUrl: options.url
    }))

/**
 * The admin client's type.
 *
 * @example
 * import { Effect } from "effect"
 * import type { SandboxAdminClientApi } from "@shoplink/sandbox"
 * const clock = (admin: SandboxAdminClientApi) => Effect.map(admin.clock(), (c) => c.now)
 *
 * @since 0.1.0
 */
export type SandboxAdminClientApi = Effect.Effect.Success<ReturnType<typeof makeSandboxAdminClient>>

/**
 * The admin client as a service.
 *
 * @example
 * import { FetchHttpClient } from "@effect/platform"
 * import { Effect, Layer } from "effect"
 * import { SandboxAdminClient } from "@shoplink/sandbox"
 * const program = Effect.flatMap(SandboxAdminClient, (admin) => admin.deliveries()).pipe(
 *   Effect.provide(SandboxAdminClient.layer({ url: "http://127.0.0.1:4010" }).pipe(Layer.provide(FetchHttpClient.layer)))
 * )
 *
 * @since 0.1.0
 */
export class SandboxAdminClient
  extends Context.Tag("@shoplink/sandbox/SandboxAdminClient")<SandboxAdminClient, SandboxAdminClientApi>()
{
  /** The client of the sandbox at `options.url`, on the application's `HttpClient`. */
  static readonly layer = (
    options: SandboxAdminClientOptions
  ): Layer.Layer<SandboxAdminClient, never, HttpClient.HttpClient> =>
    Layer.effect(SandboxAdminClient, makeSandboxAdminClient(options))
}
