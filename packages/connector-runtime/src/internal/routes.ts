// The runtime's own routes, written once. Everything that names one derives from this table: the
// URL builders (`PunchoutLauncher.launchUrls`, `LaunchLinks.url`, the parts page's CSV link), the
// routers (`WebhookReceiver.router`, the runtime's api, health and admin routers), the lean
// `node:http` webhook matcher (`nodeWebhooks`) and the keyed-path patterns (`isKeyedPath`, `redact`).
import * as HttpRouter from "@effect/platform/HttpRouter"

/**
 * Each route: its method, whether it lives under the runtime's base path (`base`) or at the
 * server's root (`root`: probes and scrapes, which are not traced), its path (`:key` is a launch
 * key, or a shop's SMS webhook key) and what admits a request: a key in the path, a vendor API
 * key, a signed link in the query (`link`), either of the last two, or nothing.
 */
export const routes = {
  webhookOrder: { method: "POST", mount: "base", path: "/webhooks/:key/order", admits: "key" },
  webhookQuote: { method: "POST", mount: "base", path: "/webhooks/:key/quote", admits: "key" },
  callback: { method: "GET", mount: "base", path: "/callback/:key", admits: "key" },
  smsWebhook: { method: "POST", mount: "base", path: "/sms-webhooks/:key", admits: "key" },
  launch: { method: "POST", mount: "base", path: "/launch", admits: "bearer" },
  launchLink: { method: "GET", mount: "base", path: "/launch/link", admits: "link" },
  parts: { method: "GET", mount: "base", path: "/parts", admits: "link-or-bearer" },
  partsCsv: { method: "GET", mount: "base", path: "/parts.csv", admits: "link-or-bearer" },
  health: { method: "GET", mount: "root", path: "/healthz", admits: "anyone" },
  readiness: { method: "GET", mount: "root", path: "/readyz", admits: "anyone" },
  metrics: { method: "GET", mount: "root", path: "/metrics", admits: "bearer" }
} as const

export type RouteName = keyof typeof routes

const names = Object.keys(routes) as ReadonlyArray<RouteName>

/** The route of each webhook kind. */
export const webhookRoutes = { order: "webhookOrder", quote: "webhookQuote" } as const

/** `"/shoplink/"`, `"shoplink"` → `"/shoplink"`; `""` or `"/"` → `""`. */
export const normalizeBasePath = (basePath: string): string => {
  const trimmed = basePath.replace(/^\/+|\/+$/g, "")
  return trimmed === "" ? "" : `/${trimmed}`
}

/** The normalized base path from a setting, `/shoplink` when it is not set. */
export const basePathOf = (basePath: string | undefined): string => normalizeBasePath(basePath ?? "/shoplink")

/** The pattern a router mounts (`:key` left in), under `base` (a normalized base path). */
export const pattern = (name: RouteName, base: string): HttpRouter.PathInput =>
  `${routes[name].mount === "root" ? "" : base}${routes[name].path}` as HttpRouter.PathInput

/** The path of a request to the route, with its launch key filled in. */
export const path = (name: RouteName, base: string, key?: string): string =>
  key === undefined ? pattern(name, base) : pattern(name, base).replace(":key", key)

/** The absolute URL of the route on this service. */
export const url = (publicBaseUrl: string, name: RouteName, base: string, key?: string): string =>
  `${publicBaseUrl.replace(/\/+$/, "")}${path(name, base, key)}`

/**
 * Adds the route to a router with its method and pattern. Typed as `HttpRouter.get` is: the
 * platform's `route` leaves `ParsedSearchParams`, which every router provides, in the requirements.
 */
export const mount = <E1, R1>(
  name: RouteName,
  base: string,
  handler: HttpRouter.Route.Handler<E1, R1>
): <E, R>(
  self: HttpRouter.HttpRouter<E, R>
) => HttpRouter.HttpRouter<E1 | E, R | HttpRouter.HttpRouter.ExcludeProvided<R1>> =>
  HttpRouter.route(routes[name].method)(pattern(name, base), handler) as any

/** The keyed routes' path before `:key` (`/webhooks/`, `/callback/`). */
const keyedPrefixes = names.filter((name) => routes[name].admits === "key")
  .map((name) => routes[name].path.slice(0, routes[name].path.indexOf(":key")))

/** The names in front of a launch key (`webhooks`, `callback`), for text that is not a request path. */
export const keyedSegments: ReadonlyArray<string> = [
  ...new Set(keyedPrefixes.map((prefix) => prefix.split("/").at(-2)!))
]

/**
 * Whether a request path (query included) carries a secret: a launch key after a keyed route's
 * prefix, or a signed link (on the launch-link route always; on routes that also take a vendor
 * API key, when it has a `sig`).
 */
export const isKeyedPath = (base: string): (path: string) => boolean => {
  const keyed = keyedPrefixes.map((prefix) => `${base}${prefix}`)
  const linked = names.filter((name) => routes[name].admits === "link").map((name) => pattern(name, base))
  const maybeLinked = names.filter((name) => routes[name].admits === "link-or-bearer").map((name) =>
    pattern(name, base)
  )
  return (path) =>
    keyed.some((prefix) =>
      path.startsWith(prefix) && path.length > prefix.length && !"/?#".includes(path[prefix.length]!)
    ) ||
    linked.some((prefix) => path.startsWith(prefix)) ||
    (path.includes("sig=") && maybeLinked.some((prefix) => path.startsWith(prefix)))
}

/** Paths of the routes at the server's root (probes and scrapes), which are not traced. */
export const rootPaths: ReadonlySet<string> = new Set(
  names.filter((name) => routes[name].mount === "root").map((name) => routes[name].path)
)

interface Matched<N extends RouteName> {
  readonly name: N
  readonly key: string
}

/**
 * Matches a request's method and URL against keyed routes exactly as the router would, or
 * `undefined`: the key is one plain segment (no `/`, no `%` escape the router would decode).
 */
export const keyedMatcher = <N extends RouteName>(base: string, candidates: ReadonlyArray<N>) => {
  const compiled = candidates.map((name) => {
    const full = pattern(name, base)
    const at = full.indexOf(":key")
    return {
      name,
      method: routes[name].method as string,
      prefix: full.slice(0, at),
      suffix: full.slice(at + ":key".length)
    }
  })
  return (method: string | undefined, url: string | undefined): Matched<N> | undefined => {
    if (url === undefined) return undefined
    const query = url.indexOf("?")
    const requestPath = query === -1 ? url : url.slice(0, query)
    for (const route of compiled) {
      if (method !== route.method) continue
      if (!requestPath.startsWith(route.prefix) || !requestPath.endsWith(route.suffix)) continue
      const key = requestPath.slice(route.prefix.length, requestPath.length - route.suffix.length)
      if (key.length > 0 && !key.includes("/") && !key.includes("%")) return { name: route.name, key }
    }
    return undefined
  }
}
