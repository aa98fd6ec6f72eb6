/**
 * The signed-in pages of an integration service (what the sample apps serve, and what a vendor's
 * own service can start from): the page layout and its one stylesheet (allowed by hash in the
 * Content-Security-Policy, no script anywhere), the sign-in, error and forbidden pages, the repair
 * order list with its "Order parts" buttons, and the routes and guards around them — GET/POST
 * `/sign-in` and POST `/sign-out` on `SignIn`'s sessions, `signedInPage` (else a redirect to sign
 * in) and `signedInAction` (same origin, signed in, and the session's CSRF token, else 403). Every
 * value goes through the escaping `html` tag of `@shoplink/http`.
 *
 * The SMS-specific pages (a repair order with its parts) stay in the application; they use
 * `layout`, `csrfField` and `orderPartsButton` from here.
 *
 * @since 0.1.0
 */
import * as HttpIncomingMessage from "@effect/platform/HttpIncomingMessage"
import * as HttpRouter from "@effect/platform/HttpRouter"
import * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import * as UrlParams from "@effect/platform/UrlParams"
import { Html as HtmlTag } from "@shoplink/http"
import { Punchout } from "@shoplink/protocol"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import { createHash } from "node:crypto"
import { Money } from "@shoplink/connector"
import * as SessionStore from "./SessionStore.js"
import type { ShopSystem } from "@shoplink/connector"
import * as SignIn from "./SignIn.js"
import { FailureWords, PunchoutLauncher } from "@shoplink/connector-runtime"

const { html, toHtmlString } = HtmlTag
type Html = HtmlTag.Html

// Phone first (360 px and up): no fixed widths; below 48rem a table scrolls inside its own box.
const STYLE = `
*,*::before,*::after{box-sizing:border-box}
body{font-family:system-ui,sans-serif;max-width:60rem;margin:1rem auto;padding:0 1rem;color:#1f2933;line-height:1.4;overflow-wrap:break-word}
h1{font-size:1.5rem}table{border-collapse:collapse;width:100%;margin:1rem 0}
th,td{text-align:left;padding:.4rem .6rem;border-bottom:1px solid #d9e2ec}th{background:#f0f4f8}
td.num{text-align:right;font-variant-numeric:tabular-nums}button{background:#0b6bcb;color:#fff;border:0;border-radius:4px;padding:.4rem .9rem;cursor:pointer}
.muted{color:#627d98}.badge{background:#e3f8ff;border-radius:4px;padding:.1rem .4rem}a{color:#0b6bcb}
.hint{color:#8d2b0b;font-size:.875rem;margin:.25rem 0 0}.error{color:#8d2b0b}
header{display:flex;flex-wrap:wrap;gap:.5rem;justify-content:space-between;align-items:center;border-bottom:1px solid #d9e2ec;padding-bottom:.5rem}
header form{display:inline}header button{background:#627d98}
label{display:block;margin:.75rem 0 .25rem}input{padding:.4rem;width:20rem;max-width:100%;font:inherit}button{font:inherit}
@media (max-width:48rem){table{display:block;overflow-x:auto}body{margin-top:.5rem}
table.reflow{overflow:visible}table.reflow thead{display:none}table.reflow tbody,table.reflow tr,table.reflow td{display:block}
table.reflow tr{border-bottom:1px solid #d9e2ec;padding:.5rem 0}table.reflow td{border:0;padding:.15rem 0}}
`

/**
 * The layout's stylesheet as a Content-Security-Policy source (`'sha256-…'`).
 *
 * @example
 * import { ServicePages } from "@shoplink/service-pages"
 * const policy = `default-src 'none'; style-src ${ServicePages.STYLE_HASH}`
 *
 * @since 0.1.0
 */
export const STYLE_HASH = `'sha256-${createHash("sha256").update(STYLE).digest("base64")}'`

/**
 * Who is signed in: the page header and the CSRF field of every form.
 *
 * @example
 * import type { ServicePages } from "@shoplink/service-pages"
 * const viewer: ServicePages.Viewer = {
 *   name: "Ava",
 *   email: "ava@example.com",
 *   shopName: "Main Street Auto",
 *   csrfToken: "…"
 * }
 *
 * @since 0.1.0
 */
export interface Viewer {
  readonly name: string
  readonly email: string
  readonly shopName: string
  readonly csrfToken: string
}

/**
 * The viewer of a session.
 *
 * @example
 * import { ServicePages, SignIn } from "@shoplink/service-pages"
 * const { session } = SignIn.makeSessions().create({
 *   email: "ava@example.com",
 *   name: "Ava",
 *   shopId: "s1",
 *   shopName: "Main Street Auto"
 * })
 * ServicePages.viewerOf(session).shopName // "Main Street Auto"
 *
 * @since 0.1.0
 */
export const viewerOf = (session: SignIn.Session): Viewer => ({
  name: session.name,
  email: session.email,
  shopName: session.shopName,
  csrfToken: session.csrfToken
})

/**
 * The hidden `csrf` field every form of a signed-in page carries.
 *
 * @example
 * import { Html } from "@shoplink/http"
 * import { ServicePages } from "@shoplink/service-pages"
 * const form = Html.html`<form method="post" action="/do">${ServicePages.csrfField("token")}<button>Do</button></form>`
 *
 * @since 0.1.0
 */
export const csrfField = (token: string): Html => html`<input type="hidden" name="csrf" value="${token}">`

/**
 * A whole page: the head with its title (and an optional refresh), the stylesheet, the header
 * with the viewer and a sign-out button when someone is signed in, then `body`.
 *
 * @example
 * import { Html } from "@shoplink/http"
 * import { ServicePages } from "@shoplink/service-pages"
 * const page = ServicePages.layout("Hello", Html.html`<h1>Hello</h1>`)
 *
 * @since 0.1.0
 */
export const layout = (
  title: string,
  body: Html,
  options: { readonly viewer?: Viewer; readonly refreshSeconds?: number } = {}
): string => {
  const head = html`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${title}</title>
${options.refreshSeconds === undefined ? "" : html`<meta http-equiv="refresh" content="${options.refreshSeconds}">`}`
  const page = html`<body>
${
    options.viewer === undefined ?
      "" :
      html`<header><span data-testid="signed-in-as">${options.viewer.name} · <strong data-testid="shop-name">${options.viewer.shopName}</strong></span>
<form method="post" action="/sign-out">${
        csrfField(options.viewer.csrfToken)
      }<button data-testid="sign-out">Sign out</button></form></header>`
  }
${body}</body></html>`
  // The stylesheet is a constant (no markup in it), put in as is: its hash must match byte for byte.
  return `${toHtmlString(head)}\n<style>${STYLE}</style></head>${toHtmlString(page)}`
}

/**
 * A vehicle in one line: year, make and model, then the VIN or the plate with its state.
 *
 * @example
 * import { ServicePages } from "@shoplink/service-pages"
 * ServicePages.vehicleName({ year: 2019, make: "Ford", model: "F-150", vin: "1M8GDM9AXKP042788" })
 * // "2019 Ford F-150 · 1M8GDM9AXKP042788"
 *
 * @since 0.1.0
 */
export const vehicleName = (vehicle: ShopSystem.Vehicle): string => {
  const name = [vehicle.year, vehicle.make, vehicle.model].filter((x) => x !== undefined && x !== null).join(" ")
  const id = vehicle.vin ??
    (vehicle.licensePlate ? `${vehicle.licensePlate} (${vehicle.licensePlateState ?? "?"})` : undefined)
  return [name || "Unknown vehicle", id].filter((x) => x !== undefined).join(" · ")
}

/**
 * `hint` when the vehicle has nothing the distributor's catalog can find it by (no VIN, no plate
 * with its state), else `undefined`.
 *
 * @example
 * import { ServicePages } from "@shoplink/service-pages"
 * ServicePages.vehicleHint({ make: "Ford" }, "Add a VIN to the vehicle first.") // "Add a VIN to the vehicle first."
 *
 * @since 0.1.0
 */
export const vehicleHint = (vehicle: ShopSystem.Vehicle, hint: string): string | undefined =>
  PunchoutLauncher.vehicleParameters(vehicle).identifier === "none" ? hint : undefined

/**
 * A row of the repair order list.
 *
 * @example
 * import type { ServicePages } from "@shoplink/service-pages"
 * const row: ServicePages.RepairOrderRow = {
 *   id: "ro_1",
 *   number: "1042",
 *   vehicle: "2019 Ford F-150",
 *   customer: "Dana Reyes",
 *   vehicleHint: undefined
 * }
 *
 * @since 0.1.0
 */
export interface RepairOrderRow {
  readonly id: string
  readonly number: string
  readonly vehicle: string
  readonly customer: string
  /** Set when the vehicle has nothing the catalog can look it up by: what to add (`vehicleHint`). */
  readonly vehicleHint: string | undefined
  /** Set when the SMS says the repair order is closed: shown instead of the Order parts button. */
  readonly closedNote?: string | undefined
}

/**
 * What the list shows for a vehicle the catalog cannot find: the button and the hint
 * (`"button-and-hint"`: the catalog opens without a vehicle), or the hint alone (`"hint"`).
 *
 * @example
 * import type { ServicePages } from "@shoplink/service-pages"
 * const withoutVehicle: ServicePages.WithoutVehicle = "hint"
 *
 * @since 0.1.0
 */
export type WithoutVehicle = "button-and-hint" | "hint"

/**
 * The "Order parts" form of a repair order: a POST to `/ro/:id/order-parts` with the CSRF token,
 * opening the distributor's catalog in a new tab (the service's own page stays where it was).
 *
 * @example
 * import { ServicePages } from "@shoplink/service-pages"
 * const viewer = { name: "Ava", email: "ava@example.com", shopName: "Main Street Auto", csrfToken: "…" }
 * const button = ServicePages.orderPartsButton({ id: "ro_1", vehicleHint: undefined }, viewer)
 *
 * @since 0.1.0
 */
export const orderPartsButton = (
  ro: { readonly id: string; readonly vehicleHint: string | undefined; readonly closedNote?: string | undefined },
  viewer: Viewer,
  withoutVehicle: WithoutVehicle = "button-and-hint"
): Html => {
  if (ro.closedNote !== undefined) return html`<p class="hint" data-testid="ro-closed">${ro.closedNote}</p>`
  const button = html`<form method="post" action="/ro/${encodeURIComponent(ro.id)}/order-parts" target="_blank">${
    csrfField(viewer.csrfToken)
  }<button data-testid="order-parts">Order parts</button></form>`
  if (ro.vehicleHint === undefined) return button
  const hint = html`<p class="hint" data-testid="vehicle-hint">${ro.vehicleHint}</p>`
  return withoutVehicle === "hint" ? hint : html`${button}\n${hint}`
}

/**
 * The repair order list: one row a repair order, linking to `/ro/:id`, with its Order parts button.
 *
 * @example
 * import { ServicePages } from "@shoplink/service-pages"
 * const viewer = { name: "Ava", email: "ava@example.com", shopName: "Main Street Auto", csrfToken: "…" }
 * const body = ServicePages.repairOrdersPage(viewer, [{
 *   id: "ro_1",
 *   number: "1042",
 *   vehicle: "2019 Ford F-150",
 *   customer: "Dana Reyes",
 *   vehicleHint: undefined
 * }])
 *
 * @since 0.1.0
 */
export const repairOrdersPage = (
  viewer: Viewer,
  rows: ReadonlyArray<RepairOrderRow>,
  withoutVehicle: WithoutVehicle = "button-and-hint"
): string =>
  layout(
    "Repair orders",
    html`<h1>Repair orders</h1>
<table class="reflow"><thead><tr><th>RO</th><th>Vehicle</th><th>Customer</th><th></th></tr></thead><tbody>
${
      rows.map((ro) =>
        html`<tr data-testid="repair-order" data-ro="${ro.number}">
<td><a href="/ro/${encodeURIComponent(ro.id)}">RO ${ro.number}</a></td><td>${ro.vehicle}</td><td>${ro.customer}</td>
<td>${orderPartsButton(ro, viewer, withoutVehicle)}</td></tr>
`
      )
    }</tbody></table>`,
    { viewer }
  )

/**
 * A repair order as its page shows it above the SMS-specific part: the list row, and the
 * distributor's deliveries still waiting (`pending`) or dead-lettered (`failed`, their last errors).
 *
 * @example
 * import type { ServicePages } from "@shoplink/service-pages"
 * const ro: ServicePages.RepairOrderHeading = {
 *   id: "ro_1",
 *   number: "1042",
 *   vehicle: "2019 Ford F-150",
 *   customer: "Dana Reyes",
 *   vehicleHint: undefined,
 *   pending: 0,
 *   failed: []
 * }
 *
 * @since 0.1.0
 */
export interface RepairOrderHeading extends RepairOrderRow {
  /** Deliveries received but not yet applied. */
  readonly pending: number
  readonly failed: ReadonlyArray<string>
}

/**
 * The quantity and money cells that end a part line's table row: quantity, unit cost, unit list
 * price and core charge (a dash when there is none), right-aligned, in dollars and cents.
 *
 * @example
 * import { Html } from "@shoplink/http"
 * import { ServicePages } from "@shoplink/service-pages"
 * const row = Html.html`<tr><td>WIX 51515</td>${
 *   ServicePages.amountCells({ quantity: 2, costCents: 649, listCents: 999, coreCents: 0 })
 * }</tr>`
 *
 * @since 0.1.0
 */
export const amountCells = (
  line: {
    readonly quantity: number
    readonly costCents: number
    readonly listCents: number
    readonly coreCents: number
  }
): Html =>
  html`<td class="num">${line.quantity}</td><td class="num">$${
    Money.formatCents(line.costCents)
  }</td><td class="num">$${Money.formatCents(line.listCents)}</td>
<td class="num">${line.coreCents > 0 ? `$${Money.formatCents(line.coreCents)}` : "—"}</td>`

/**
 * A distributor order's status in words ("Order submitted", "Shipped, partial"), never a raw code:
 * the protocol's one table (`Punchout.orderStatusText` of `@shoplink/protocol`). An unknown code
 * reads as the distributor's `description` when there is one.
 *
 * @example
 * import { ServicePages } from "@shoplink/service-pages"
 * ServicePages.orderStatusText("3") // "Order submitted"
 *
 * @since 0.1.0
 */
export const orderStatusText: (status: string | number, description?: string | null) => string =
  Punchout.orderStatusText

/**
 * The `pending` count and the `failed` deliveries of a repair order's inbox entries
 * (`runtime.inbox.list`), for its page: each failure in plain words (what happened, that it is not
 * retried automatically, what to do, and a short reference from the entry's `id` that
 * `shoplink inbox show` finds), never the raw error or a command.
 *
 * @example
 * import { ServicePages } from "@shoplink/service-pages"
 * ServicePages.deliveries([
 *   { status: "pending" },
 *   {
 *     id: "ec89f3a0-0000-4000-8000-000000000000",
 *     status: "dead",
 *     lastError: "applyQuote: Acme createPart (POST /parts) failed: HttpStatus 401: Unauthorized"
 *   }
 * ])
 * // {
 * //   pending: 1,
 * //   failed: [
 * //     "Acme refused this shop's credentials. Retrying cannot help, so it is not retried automatically. "
 * //     + "The shop must be connected to Acme again; your administrator has been notified (reference EC89F3A0)."
 * //   ]
 * // }
 *
 * @since 0.1.0
 */
export const deliveries = (
  entries: ReadonlyArray<
    { readonly id?: string; readonly status: string; readonly lastError?: string | null | undefined }
  >
): Pick<RepairOrderHeading, "pending" | "failed"> => ({
  pending: entries.filter((e) => e.status === "pending").length,
  failed: entries.filter((e) => e.status === "dead").map((e) =>
    FailureWords.deadDeliveryText(e.lastError ?? undefined, e.id)
  )
})

/**
 * A repair order's page: a link back to the list, the title, the customer, the Order parts button,
 * a note while deliveries are pending (and a refresh every 2 seconds) or failed, then `body` (what
 * the SMS keeps of the parts). `applied` words the notes: "being added…", "Could not add a delivery"
 * by default.
 *
 * @example
 * import { Html } from "@shoplink/http"
 * import { ServicePages } from "@shoplink/service-pages"
 * const viewer = { name: "Ava", email: "ava@example.com", shopName: "Main Street Auto", csrfToken: "…" }
 * const ro = {
 *   id: "ro_1",
 *   number: "1042",
 *   vehicle: "2019 Ford F-150",
 *   customer: "Dana Reyes",
 *   vehicleHint: undefined,
 *   pending: 0,
 *   failed: []
 * }
 * const page = ServicePages.repairOrderPage(viewer, ro, Html.html`<h2>Parts</h2>`)
 *
 * @since 0.1.0
 */
export const repairOrderPage = (
  viewer: Viewer,
  ro: RepairOrderHeading,
  body: Html,
  options: {
    readonly withoutVehicle?: WithoutVehicle
    readonly applied?: { readonly being: string; readonly couldNot: string }
  } = {}
): string => {
  const applied = options.applied ?? { being: "added", couldNot: "add" }
  return layout(
    `RO ${ro.number}`,
    html`<p><a href="/">← Repair orders</a></p>
<h1 data-testid="ro-title">RO ${ro.number} · ${ro.vehicle}</h1>
<p class="muted">${ro.customer}</p>
${orderPartsButton(ro, viewer, options.withoutVehicle)}
${
      ro.pending > 0
        ? html`<p data-testid="pending">${ro.pending} delivery(ies) from the distributor being ${applied.being}…</p>`
        : ""
    }
${ro.failed.map((f) => html`<p data-testid="failed">Could not ${applied.couldNot} a delivery: ${f}</p>`)}
${body}`,
    { viewer, ...(ro.pending > 0 ? { refreshSeconds: 2 } : {}) }
  )
}

/**
 * The sign-in form (email, password, the form's CSRF token and where to go after).
 *
 * @example
 * import { ServicePages } from "@shoplink/service-pages"
 * const body = ServicePages.signInPage({ csrfToken: "…", next: "/", error: "The email or password is incorrect." })
 *
 * @since 0.1.0
 */
export const signInPage = (
  options: { readonly csrfToken: string; readonly next: string; readonly email?: string; readonly error?: string }
): string =>
  layout(
    "Sign in",
    html`<h1>Sign in</h1>
${
      options.error === undefined
        ? ""
        : html`<p class="error" data-testid="sign-in-error" role="alert">${options.error}</p>`
    }
<form method="post" action="/sign-in">${
      csrfField(options.csrfToken)
    }<input type="hidden" name="next" value="${options.next}">
<label for="email">Email</label><input id="email" name="email" type="email" autocomplete="username" required value="${
      options.email ?? ""
    }">
<label for="password">Password</label><input id="password" name="password" type="password" autocomplete="current-password" required>
<p><button data-testid="sign-in">Sign in</button></p></form>`
  )

/**
 * An error page with one message (`data-testid="error"`) and a link back to the list.
 *
 * @example
 * import { ServicePages } from "@shoplink/service-pages"
 * const body = ServicePages.errorPage(404, "No such repair order in your shop.")
 *
 * @since 0.1.0
 */
export const errorPage = (status: number, message: string, viewer?: Viewer): string =>
  layout(
    `Error ${status}`,
    html`<h1>Something went wrong</h1><p data-testid="error">${message}</p><p><a href="/">← Repair orders</a></p>`,
    viewer === undefined ? {} : { viewer }
  )

/**
 * The page of a path nothing serves (404): a link home.
 *
 * @example
 * import { ServicePages } from "@shoplink/service-pages"
 * const body = ServicePages.notFoundPage()
 *
 * @since 0.1.0
 */
export const notFoundPage = (): string =>
  layout(
    "Not found",
    html`<h1>Page not found</h1><p data-testid="error">There is no page at this address.</p><p><a data-testid="home" href="/">← Repair orders</a></p>`
  )

/**
 * The page of a refused request (403): it says nothing about why.
 *
 * @example
 * import { ServicePages } from "@shoplink/service-pages"
 * const body = ServicePages.forbiddenPage()
 *
 * @since 0.1.0
 */
export const forbiddenPage = (): string =>
  layout(
    "Forbidden",
    html`<h1>Forbidden</h1><p data-testid="error">This request was refused. Sign in, then try again from the service's own page.</p><p><a href="/sign-in">Sign in</a></p>`
  )

/**
 * What `make` needs.
 *
 * @example
 * import { Effect } from "effect"
 * import type { ServicePages } from "@shoplink/service-pages"
 * const options: ServicePages.Options = {
 *   users: [],
 *   shopName: (shopId) => Effect.succeed(shopId === "main-street" ? "Main Street Auto" : undefined),
 *   appBaseUrl: "https://parts.example",
 *   formActions: ["https://distributor.example"],
 *   smsName: "Acme SMS"
 * }
 *
 * @since 0.1.0
 */
export interface Options {
  /** Who may sign in (`SignIn.usersFileConfig`); emails are compared lower-cased. */
  readonly users: ReadonlyArray<SignIn.User>
  /** The name of an onboarded shop, `undefined` when it is not: its users cannot sign in. */
  readonly shopName: (shopId: string) => Effect.Effect<string | undefined>
  /** Where users' browsers reach the pages: the Origin check, and `Secure` `__Host-` cookies on https. */
  readonly appBaseUrl: string
  /** Other origins the pages are reached at (a listener's own address). */
  readonly otherOrigins?: ReadonlyArray<string>
  /** Origins the pages' forms may post to besides their own (the distributor's catalog). */
  readonly formActions?: ReadonlyArray<string>
  /** The local paths sign-in may return to (default: `/` and `/ro/:id`); anything else goes to `/`. */
  readonly returnPaths?: RegExp
  /** Session lifetimes of the in-memory store (`SignIn.makeSessions`), when `sessionStore` is not given. */
  readonly sessions?: SignIn.SessionOptions
  /**
   * Where sessions are kept (default: this process's memory). Give the runtime's
   * (`SessionStore.forDatabase(runtime.database)`: its database when it has one) so any instance serves any
   * signed-in user and a restart signs nobody out.
   */
  readonly sessionStore?: SessionStore.SessionStore
  /** The cost of upgraded password hashes (default `SignIn.OWASP_SCRYPT`); tests may pass a lower one. */
  readonly passwordCost?: SignIn.ScryptCost
  /** A user whose older hash a sign-in replaced (`SignIn.makeUsers`): write it back where users are kept. */
  readonly onPasswordUpgrade?: (user: SignIn.User) => void
  /** The SMS's name in error pages ("The distributor or Tekmetric could not be reached"). */
  readonly smsName: string
  /**
   * Whether a `ShopSystemError` that retrying will not cure is shown with its message (422), as a
   * thing the user can fix in the SMS; otherwise it reads as unreachable (502). Default false.
   */
  readonly showPermanentSmsErrors?: boolean
}

/**
 * The pages' responses and guards, and the sign-in routes, `make` builds.
 *
 * @example
 * import type { ServicePages } from "@shoplink/service-pages"
 * const cookieOf = (pages: ServicePages.ServicePages) => pages.sessionCookie
 *
 * @since 0.1.0
 */
export interface ServicePages {
  /** The session cookie's name (`__Host-` prefixed on https). */
  readonly sessionCookie: string
  readonly sessions: SessionStore.SessionStore
  /** Whether the session's user is (still) an operator in the users list: the delivery console's guard. */
  readonly isOperator: (session: SignIn.Session) => boolean
  /** An HTML page with the security headers (CSP with the stylesheet's hash, no framing, no-store). */
  readonly page: (body: string, status?: number) => HttpServerResponse.HttpServerResponse
  /** A 303 to `location`, never cached. */
  readonly seeOther: (location: string, headers?: Record<string, string>) => HttpServerResponse.HttpServerResponse
  /** The forbidden page (403), the reason logged and not shown. */
  readonly refuse: (reason: string) => Effect.Effect<HttpServerResponse.HttpServerResponse>
  /** A page for signed-in users; anyone else is sent to sign in (and back after). */
  readonly signedInPage: <E, R>(
    handler: (session: SignIn.Session) => Effect.Effect<HttpServerResponse.HttpServerResponse, E, R>
  ) => Effect.Effect<HttpServerResponse.HttpServerResponse, E, R | HttpServerRequest.HttpServerRequest>
  /** An action (POST): same origin, signed in and the session's CSRF token, else 403 with nothing in it. */
  readonly signedInAction: <E, R>(
    handler: (session: SignIn.Session, sessionId: string) => Effect.Effect<HttpServerResponse.HttpServerResponse, E, R>
  ) => Effect.Effect<HttpServerResponse.HttpServerResponse, E, R | HttpServerRequest.HttpServerRequest>
  /**
   * The error page for a failed page or action, logged: 404 for a repair order, shop or
   * credentials not found (another shop's RO reads as not found), 422 / 409 with the message for a
   * missing vehicle, 409 for distributor credentials revoked and 502 for the SMS refusing the
   * shop's key (both: "the shop must be connected again"), else 502 ("could not be reached; try
   * again in a minute").
   */
  readonly failed: (viewer: Viewer) => (error: Failure) => Effect.Effect<HttpServerResponse.HttpServerResponse>
  /** GET and POST `/sign-in`, POST `/sign-out`. */
  readonly router: HttpRouter.HttpRouter
  /**
   * `router` and the repair order routes, each for the signed-in user's own shop: GET `/` (the
   * list: `handlers.list`), GET `/ro/:id` (`handlers.repairOrder`), and POST `/ro/:id/order-parts`,
   * which launches (`handlers.launch`, the runtime's `launch`) and redirects to the distributor's
   * catalog with no Referer. A handler's failure is the `failed` page. Any other path is a
   * 404 page with a link home (`notFoundPage`).
   */
  readonly routes: <E1 extends Failure, E2 extends Failure, E3 extends Failure, R>(handlers: {
    readonly list: (session: SignIn.Session) => Effect.Effect<string, E1, R>
    readonly repairOrder: (session: SignIn.Session, repairOrderId: string) => Effect.Effect<string, E2, R>
    readonly launch: (
      input: { readonly shopId: string; readonly repairOrderId: string }
    ) => Effect.Effect<PunchoutLauncher.Launched, E3>
  }) => HttpRouter.HttpRouter<never, HttpRouter.HttpRouter.ExcludeProvided<R>>
}

/**
 * What a page handler may fail with: a tagged error with a message (and, for a `ShopSystemError`,
 * whether retrying may cure it).
 *
 * @example
 * import type { ServicePages } from "@shoplink/service-pages"
 * const failure: ServicePages.Failure = { _tag: "RepairOrderNotFound", message: "no such repair order" }
 *
 * @since 0.1.0
 */
export interface Failure {
  readonly _tag: string
  readonly message: string
  readonly retryable?: boolean
  /**
   * The HTTP status the failing system answered, when it answered (an SMS client's error): 401/403
   * read as refused credentials.
   */
  readonly status?: number | undefined
}

const SIGN_IN_FAILED = "The email or password is incorrect."

// The shop-management system refused the shop's key (401/403): its client's error carries the
// status, an adapter's ShopSystemError says it in its message.
const refusedCredentials = (error: Failure): boolean =>
  (error.status === 401 || error.status === 403) ||
  ((error._tag === "ShopSystemError" || error.retryable === false) &&
    FailureWords.describeFailure(error.message).kind === "authentication")
const MAX_FORM_BYTES = 16 * 1024
const RETURN_PATHS = /^\/(ro\/[A-Za-z0-9._~%-]{1,200}|console(\/[A-Za-z0-9._~%/-]{1,200})?)?$/

/**
 * The pages' responses, guards and sign-in routes over `options.sessionStore` (in memory by
 * default; the runtime's database with `SessionStore.forDatabase(runtime.database)`). One scrypt per sign-in
 * attempt whether or not the email is known (a decoy hash), failures throttled per email, a new
 * session id at every sign-in, and the same message for every failure.
 *
 * @example
 * import { HttpRouter } from "@effect/platform"
 * import { Effect, Option } from "effect"
 * import { ConnectorRuntime } from "@shoplink/connector-runtime"
 * import { ServicePages } from "@shoplink/service-pages"
 * declare const runtime: ConnectorRuntime.Runtime
 * const routes = Effect.gen(function*() {
 *   const pages = yield* ServicePages.make({
 *     users: [],
 *     shopName: (id) =>
 *       runtime.shops.get(id).pipe(Effect.option, Effect.map((shop) => Option.getOrUndefined(shop)?.name)),
 *     appBaseUrl: "https://parts.example",
 *     smsName: "Acme SMS"
 *   })
 *   const home = pages.signedInPage((session) =>
 *     Effect.succeed(pages.page(ServicePages.repairOrdersPage(ServicePages.viewerOf(session), [])))
 *   )
 *   return HttpRouter.get(pages.router, "/", home)
 * })
 *
 * @since 0.1.0
 */
export const make = (options: Options): Effect.Effect<ServicePages> =>
  Effect.gen(function*() {
    const returnPaths = options.returnPaths ?? RETURN_PATHS
    const safeNext = (next: string | undefined) => next !== undefined && returnPaths.test(next) ? next : "/"
    // One scrypt per attempt, known email or not; an older hash is upgraded at a good sign-in.
    const users = yield* Effect.promise(() =>
      SignIn.makeUsers(options.users, {
        ...(options.passwordCost === undefined ? {} : { cost: options.passwordCost }),
        ...(options.onPasswordUpgrade === undefined ? {} : { onUpgrade: options.onPasswordUpgrade })
      })
    )
    const sessions = options.sessionStore ?? SessionStore.memory(options.sessions)
    const isOperator = (session: SignIn.Session) => users.get(session.email)?.role === "operator"
    const signInTokens = SignIn.makeSignInTokens()
    const throttle = SignIn.makeThrottle()
    const secure = options.appBaseUrl.startsWith("https:")
    const sessionCookie = secure ? "__Host-shoplink_session" : "shoplink_session"
    const signInCookie = secure ? "__Host-shoplink_signin" : "shoplink_signin"
    const cookieOptions = { httpOnly: true, sameSite: "lax", path: "/", secure } as const
    // Browsers send Origin on every POST; a same-origin POST comes from the pages' own address.
    const ownOrigins = new Set([options.appBaseUrl, ...(options.otherOrigins ?? [])].map((url) => new URL(url).origin))

    // Every page: the layout's one stylesheet, forms to this service and the distributor's catalog
    // (`formActions`), no script, no framing, nosniff, no Referer (see `Html.page`).
    const pageOptions = {
      styleSrc: [STYLE_HASH],
      formAction: ["'self'", ...(options.formActions ?? []).map((url) => new URL(url).origin)]
    }
    const page = (body: string, status = 200) => HtmlTag.page(body, { ...pageOptions, status })
    const seeOther = (location: string, headers: Record<string, string> = {}) =>
      HttpServerResponse.empty({ status: 303, headers: { location, "cache-control": "no-store", ...headers } })
    const refuse = (reason: string) =>
      Effect.as(Effect.logWarning("request refused").pipe(Effect.annotateLogs({ reason })), page(forbiddenPage(), 403))

    const failed: ServicePages["failed"] = (viewer) => (error) => {
      const [status, message] =
        error._tag === "RepairOrderNotFound" || error._tag === "CredentialsNotFound" || error._tag === "ShopNotFound"
          ? [404, "No such repair order in your shop."]
          : error._tag === "VehicleRequired"
          ? [422, error.message]
          : error._tag === "RepairOrderClosed"
          ? [409, `This repair order is closed in ${options.smsName}: parts are no longer ordered for it.`]
          : error._tag === "CredentialsRevoked"
          ? [
            409,
            "The distributor refused this shop's credentials, so parts cannot be ordered. Trying again will not help: the shop must be connected to the distributor again. Ask your administrator."
          ]
          : refusedCredentials(error)
          // A refused key is not an outage: trying again cannot help, reconnecting the shop can.
          ? [
            502,
            `${options.smsName} refused this shop's credentials, so this page cannot be shown. Trying again will not help: the shop must be connected to ${options.smsName} again. Ask your administrator.`
          ]
          : options.showPermanentSmsErrors === true && error._tag === "ShopSystemError" && error.retryable === false
          ? [422, error.message]
          : [
            502,
            `The distributor or ${options.smsName} could not be reached. This is usually brief: try again in a minute.`
          ]
      // One constant message to search logs by; the error as a field (and the shop, from the guard).
      return Effect.logWarning("request failed").pipe(
        Effect.annotateLogs({ status, error: error.message }),
        Effect.as(page(errorPage(status, message, viewer), status))
      )
    }

    const request = HttpServerRequest.HttpServerRequest
    // A session store that cannot answer (its database down) reads as no session: sign in again.
    const sessionOf = (req: HttpServerRequest.HttpServerRequest) =>
      sessions.get(req.cookies[sessionCookie]).pipe(
        Effect.catchAll((error) => Effect.as(Effect.logError("session store failed", error.message), undefined))
      )
    const fromOwnOrigin = (req: HttpServerRequest.HttpServerRequest) => {
      const site = req.headers["sec-fetch-site"]
      if (site === "cross-site") return false
      const origin = req.headers["origin"]
      // The pages send `Referrer-Policy: no-referrer`, under which a browser's form POST says
      // `Origin: null`; its Fetch Metadata (`Sec-Fetch-Site`, which a page cannot set) still tells
      // where the form was.
      if (origin === "null") return site === "same-origin"
      if (origin !== undefined) return ownOrigins.has(origin)
      const referer = req.headers["referer"]
      if (referer === undefined) return false
      try {
        return ownOrigins.has(new URL(referer).origin)
      } catch {
        return false
      }
    }
    const readForm = Effect.flatMap(request, (req) => req.urlParamsBody).pipe(
      HttpIncomingMessage.withMaxBodySize(Option.some(MAX_FORM_BYTES)),
      Effect.map((params) => (name: string) => Option.getOrUndefined(UrlParams.getFirst(params, name))),
      Effect.either
    )

    const signedInPage: ServicePages["signedInPage"] = (handler) =>
      Effect.gen(function*() {
        const req = yield* request
        const session = yield* sessionOf(req)
        if (session === undefined) {
          return seeOther(`/sign-in?next=${encodeURIComponent(safeNext(req.url.split("?")[0]))}`)
        }
        // Every line logged for a signed-in request names the shop.
        return yield* Effect.annotateLogs(handler(session), { shopId: session.shopId })
      })

    const signedInAction: ServicePages["signedInAction"] = (handler) =>
      Effect.gen(function*() {
        const req = yield* request
        if (!fromOwnOrigin(req)) return yield* refuse("cross-site or no Origin")
        const sessionId = req.cookies[sessionCookie]
        const session = yield* sessionOf(req)
        if (session === undefined || sessionId === undefined) return yield* refuse("not signed in")
        const form = yield* readForm
        if (
          Either.isLeft(form) || !SignIn.safeEqual(form.right("csrf") ?? "", session.csrfToken)
        ) return yield* refuse("missing or wrong CSRF token")
        return yield* Effect.annotateLogs(handler(session, sessionId), { shopId: session.shopId })
      })

    const signInForm = (
      form: { readonly next: string; readonly email?: string; readonly error?: string },
      status = 200
    ) =>
      Effect.gen(function*() {
        const req = yield* request
        const existing = req.cookies[signInCookie]
        const nonce = signInTokens.isNonce(existing) ? existing : signInTokens.newNonce()
        const response = page(signInPage({ ...form, csrfToken: signInTokens.token(nonce) }), status)
        return nonce === existing
          ? response
          : HttpServerResponse.unsafeSetCookie(response, signInCookie, nonce, { ...cookieOptions, maxAge: "1 hour" })
      })

    const showSignIn = Effect.gen(function*() {
      const req = yield* request
      const next = safeNext(new URL(req.url, "http://x").searchParams.get("next") ?? undefined)
      if ((yield* sessionOf(req)) !== undefined) return seeOther(next)
      return yield* signInForm({ next })
    })

    const signIn = Effect.gen(function*() {
      const req = yield* request
      if (!fromOwnOrigin(req)) return yield* refuse("sign-in from another origin")
      const form = yield* readForm
      if (Either.isLeft(form) || !signInTokens.verify(req.cookies[signInCookie], form.right("csrf"))) {
        return yield* refuse("sign-in without its form token")
      }
      const field = form.right
      const email = (field("email") ?? "").trim().toLowerCase().slice(0, 320)
      const password = (field("password") ?? "").slice(0, 1024)
      const next = safeNext(field("next"))
      // Throttled per account and per client address (behind a proxy, the proxy's address).
      const address = Option.getOrUndefined(req.remoteAddress)
      const user = yield* Effect.promise(() => users.authenticate(email, password))
      const shopName = user === undefined ? undefined : yield* options.shopName(user.shopId)
      if (throttle.blocked(email, address) || user === undefined || shopName === undefined) {
        throttle.failed(email, address)
        yield* Effect.logWarning("sign-in failed").pipe(
          Effect.annotateLogs({
            reason: user !== undefined && shopName === undefined
              ? "the user's shop is not onboarded"
              : "wrong email or password"
          })
        )
        return yield* signInForm({ next, email, error: SIGN_IN_FAILED }, 401)
      }
      throttle.succeeded(email)
      // A fresh session id at every sign-in; the one the browser had (if any) is dropped.
      const created = yield* Effect.either(Effect.zipRight(
        sessions.remove(req.cookies[sessionCookie]),
        sessions.create({
          email: user.email,
          name: user.name,
          shopId: user.shopId,
          shopName,
          ...(user.role === undefined ? {} : { role: user.role })
        })
      ))
      if (Either.isLeft(created)) {
        yield* Effect.logError("sign-in: the session store failed", created.left.message)
        return page(errorPage(503, "Signing in is not possible right now; try again in a minute."), 503)
      }
      yield* Effect.logInfo("signed in").pipe(Effect.annotateLogs({ user: user.email, shopId: user.shopId }))
      return seeOther(next).pipe(
        HttpServerResponse.unsafeSetCookie(sessionCookie, created.right.id, {
          ...cookieOptions,
          maxAge: `${sessions.lifetimeSeconds} seconds`
        }),
        HttpServerResponse.unsafeSetCookie(signInCookie, "", { ...cookieOptions, maxAge: 0 })
      )
    })

    const signOut = signedInAction((session, sessionId) =>
      Effect.gen(function*() {
        // Revoked in the store: the cookie is worthless from here on, on every instance.
        yield* sessions.remove(sessionId).pipe(
          Effect.catchAll((error) => Effect.logError("sign-out: the session store failed", error.message))
        )
        yield* Effect.logInfo("signed out").pipe(Effect.annotateLogs({ user: session.email }))
        return seeOther("/sign-in").pipe(
          HttpServerResponse.unsafeSetCookie(sessionCookie, "", { ...cookieOptions, maxAge: 0 })
        )
      })
    )

    const router = HttpRouter.empty.pipe(
      HttpRouter.get("/sign-in", showSignIn),
      HttpRouter.post("/sign-in", signIn),
      HttpRouter.post("/sign-out", signOut)
    )
    const routes: ServicePages["routes"] = (handlers) => {
      const idParam = Effect.map(HttpRouter.params, (p) => p["id"] ?? "")
      const list = signedInPage((session) =>
        handlers.list(session).pipe(Effect.map((body) => page(body)), Effect.catchAll(failed(viewerOf(session))))
      )
      const view = (repairOrderId: string) =>
        signedInPage((session) =>
          handlers.repairOrder(session, repairOrderId).pipe(
            Effect.map((body) => page(body)),
            Effect.catchAll(failed(viewerOf(session)))
          )
        )
      const launch = (repairOrderId: string) =>
        signedInAction((session) =>
          Effect.gen(function*() {
            // Always the signed-in user's shop: another shop's RO id fails as not found.
            const launched = yield* handlers.launch({ shopId: session.shopId, repairOrderId })
            yield* Effect.logInfo("punchout launched").pipe(
              Effect.annotateLogs({
                shopId: session.shopId,
                repairOrder: launched.repairOrder.number,
                vehicle: launched.vehicle
              })
            )
            // The catalog URL carries a session token: not cached, and no Referer from here on.
            return seeOther(Redacted.value(launched.url), { "referrer-policy": "no-referrer" })
          }).pipe(Effect.catchAll(failed(viewerOf(session))))
        )
      return router.pipe(
        HttpRouter.get("/", list),
        HttpRouter.get("/ro/:id", Effect.flatMap(idParam, view)),
        HttpRouter.post("/ro/:id/order-parts", Effect.flatMap(idParam, launch)),
        // A path no route serves: a small page with a link home, not an empty 404.
        HttpRouter.all("/*", Effect.succeed(page(notFoundPage(), 404)))
      )
    }
    return {
      sessionCookie,
      sessions,
      isOperator,
      page,
      seeOther,
      refuse,
      signedInPage,
      signedInAction,
      failed,
      router,
      routes
    }
  })
