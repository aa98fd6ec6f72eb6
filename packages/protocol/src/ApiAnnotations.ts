/**
 * What the API definitions (`PunchoutApi`, `OrderManagementApi`) say about each endpoint beyond
 * method, path and schemas: whether it may be repeated (the retry rule reads it), and a plain
 * view of one endpoint that clients can use without walking `HttpApi` internals.
 *
 * @since 0.1.0
 */
import * as HttpApi from "@effect/platform/HttpApi"
import type * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import type * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import * as HttpApiSchema from "@effect/platform/HttpApiSchema"
import * as OpenApi from "@effect/platform/OpenApi"
import * as Context from "effect/Context"
import * as Option from "effect/Option"
import type * as Schema from "effect/Schema"

/**
 * Whether a request may be sent again when it may already have reached the server:
 * `"idempotent"` (reads, and commands whose repetition changes nothing) or `"unsafe"` (a repeat
 * may create or submit a second order; only re-sent when it certainly never left).
 *
 * @example
 * import { ApiAnnotations } from "@shoplink/protocol"
 * const mode: ApiAnnotations.IdempotencyMode = "unsafe"
 *
 * @since 0.1.0
 */
export type IdempotencyMode = "idempotent" | "unsafe"

/**
 * The endpoint annotation that carries the {@link IdempotencyMode}; every endpoint of both
 * definitions has one. The OpenAPI documents show it as `x-shoplink-idempotency`.
 *
 * @example
 * import { Context } from "effect"
 * import { ApiAnnotations, PunchoutApi } from "@shoplink/protocol"
 * const endpoint = PunchoutApi.PunchoutApi.groups["punchout"]!.endpoints["CreateOrder"]!
 * const annotations = endpoint.annotations as Context.Context<ApiAnnotations.Idempotency>
 * Context.getOption(annotations, ApiAnnotations.Idempotency) // Option.some("unsafe")
 *
 * @since 0.1.0
 */
export class Idempotency
  extends Context.Tag("@shoplink/protocol/ApiAnnotations/Idempotency")<Idempotency, IdempotencyMode>()
{}

/**
 * Marks an endpoint with its idempotency (annotation and OpenAPI extension).
 *
 * @example
 * import { HttpApiEndpoint } from "@effect/platform"
 * import { ApiAnnotations } from "@shoplink/protocol"
 * const ping = HttpApiEndpoint.get("ping", "/ping").pipe(ApiAnnotations.withIdempotency("idempotent"))
 *
 * @since 0.1.0
 */
export const withIdempotency =
  (mode: IdempotencyMode) => <E extends HttpApiEndpoint.HttpApiEndpoint.Any>(endpoint: E): E =>
    (endpoint as unknown as HttpApiEndpoint.HttpApiEndpoint.AnyWithProps)
      .annotate(Idempotency, mode)
      .annotate(OpenApi.Override, { "x-shoplink-idempotency": mode }) as unknown as E

/**
 * Where an API's credentials travel.
 *
 * @example
 * import type { ApiAnnotations } from "@shoplink/protocol"
 * const auth: ApiAnnotations.AuthPlacement = [{ name: "token", in: "query" }]
 *
 * @since 0.1.0
 */
export type AuthPlacement = ReadonlyArray<{ readonly name: string; readonly in: "query" | "header" }>

/**
 * One endpoint as plain data: what a client needs to call it.
 *
 * `path` is the full path template (`/punchout/v1/GetProductQuotes`,
 * `/web/services/{environment}/orderDetails`); for Order Management, `relativePath` is the part
 * below `/web/services/{environment}` (`/orderDetails`). `payload`, `success` and `urlParams`
 * are the protocol schemas (`undefined` where the endpoint has none); `successContentType` is
 * `text/html` for the browser pages.
 *
 * @example
 * import { PunchoutApi } from "@shoplink/protocol"
 * const route = PunchoutApi.route("GetProductQuotes")
 * route.method // "POST"
 * route.idempotency // "idempotent"
 *
 * @since 0.1.0
 */
export interface Route<Name extends string = string> {
  readonly name: Name
  readonly method: "GET" | "POST"
  readonly path: string
  readonly relativePath: string
  readonly idempotency: IdempotencyMode
  readonly auth: AuthPlacement
  readonly payload: Schema.Schema.Any | undefined
  readonly success: Schema.Schema.Any | undefined
  readonly successContentType: string
  readonly urlParams: Schema.Schema.Any | undefined
  readonly description: string | undefined
  /** True for the sandbox's assumed endpoints that the specification does not list. */
  readonly assumption: boolean
}

/**
 * The names of an API definition's endpoints, read from its type (optionally only those of one
 * method), so a list of names is never written beside the definition.
 *
 * @example
 * import type { ApiAnnotations, PunchoutApi } from "@shoplink/protocol"
 * type Pages = ApiAnnotations.EndpointNameOf<typeof PunchoutApi.PunchoutApi, "GET"> // "ShowCatalog" | "ShowOrder"
 * const page: Pages = "ShowOrder"
 *
 * @since 0.1.0
 */
export type EndpointNameOf<Api extends HttpApi.HttpApi.Any, Method extends string = string> = Api extends
  { readonly groups: { readonly [name: string]: infer Groups } } ? HttpApiEndpoint.HttpApiEndpoint.Name<
    Extract<HttpApiGroup.HttpApiGroup.Endpoints<Groups>, { readonly method: Method }>
  >
  : never

/**
 * The annotation marking an endpoint the specification does not define (a sandbox assumption).
 *
 * @example
 * import { OrderManagementApi } from "@shoplink/protocol"
 * OrderManagementApi.route("openOrder").assumption // true
 *
 * @since 0.1.0
 */
export class Assumption extends Context.Reference<Assumption>()("@shoplink/protocol/ApiAnnotations/Assumption", {
  defaultValue: () => false
}) {}

/**
 * Reads every endpoint of an API definition as {@link Route} data, in definition order.
 *
 * @example
 * import { ApiAnnotations, PunchoutApi } from "@shoplink/protocol"
 * const routes = ApiAnnotations.routesOf(PunchoutApi.PunchoutApi, {
 *   basePath: "",
 *   auth: [{ name: "token", in: "query" }]
 * })
 * routes.map((r) => `${r.method} ${r.path}`)
 *
 * @since 0.1.0
 */
export const routesOf = (
  api: HttpApi.HttpApi.Any,
  options: { readonly basePath: string; readonly auth: AuthPlacement | ((name: string) => AuthPlacement) }
): ReadonlyArray<Route> => {
  const routes: Array<Route> = []
  HttpApi.reflect(api as HttpApi.HttpApi<string, HttpApiGroup.HttpApiGroup.AnyWithProps, never, never>, {
    onGroup: () => {},
    onEndpoint: ({ endpoint }) => {
      const e = endpoint as unknown as HttpApiEndpoint.HttpApiEndpoint.AnyWithProps
      const path = e.path.replace(/:(\w+)\??/g, "{$1}")
      const success = e.successSchema === HttpApiSchema.NoContent ? undefined : e.successSchema
      const contentType = success === undefined
        ? "application/json"
        : HttpApiSchema.getEncoding(success.ast).contentType
      routes.push({
        name: e.name,
        method: e.method as "GET" | "POST",
        path,
        relativePath: path.startsWith(options.basePath) ? path.slice(options.basePath.length) : path,
        idempotency: Context.getOrElse(e.annotations, Idempotency, () => "unsafe" as const),
        auth: typeof options.auth === "function" ? options.auth(e.name) : options.auth,
        payload: Option.getOrUndefined(e.payloadSchema) as Schema.Schema.Any | undefined,
        success: success as Schema.Schema.Any | undefined,
        successContentType: contentType,
        urlParams: Option.getOrUndefined(e.urlParamsSchema) as Schema.Schema.Any | undefined,
        description: Option.getOrUndefined(Context.getOption(e.annotations, OpenApi.Description)),
        assumption: Context.get(e.annotations, Assumption)
      })
    }
  })
  return routes
}

/**
 * Rewrites an OpenAPI document's component names to the characters OpenAPI allows
 * (`[A-Za-z0-9._-]`): `Epoch(seconds)` becomes `Epoch_seconds`, and every `$ref` with it. Both
 * definitions apply it as their `OpenApi.Transform`.
 *
 * @example
 * import { ApiAnnotations } from "@shoplink/protocol"
 * ApiAnnotations.componentNames({ components: { schemas: { "Epoch(seconds)": {} } } })
 * // { components: { schemas: { Epoch_seconds: {} } } }
 *
 * @since 0.1.0
 */
export const componentNames = <A extends Record<string, any>>(spec: A): A => {
  const name = (n: string) => n.replace(/[^A-Za-z0-9._-]+/g, "_").replace(/_+$/, "")
  return JSON.parse(
    JSON.stringify(spec).replace(
      /"#\/components\/schemas\/([^"]+)"/g,
      (_, n: string) => `"#/components/schemas/${name(n)}"`
    ),
    function(this: unknown, key, value) {
      if (key === "schemas" && value !== null && typeof value === "object" && !Array.isArray(value)) {
        return Object.fromEntries(Object.entries(value as Record<string, unknown>).map(([k, v]) => [name(k), v]))
      }
      return value
    }
  )
}
