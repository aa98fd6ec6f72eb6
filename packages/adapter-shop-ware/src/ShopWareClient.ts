/**
 * A client of Shop-Ware's partner API (v1) for one partner's credentials and one tenant, on
 * @effect/platform's `HttpClient`.
 *
 * **Authentication.** Every request carries the headers `X-Api-Partner-Id` and `X-Api-Secret`
 * (the OpenAPI's two `apiKey` security schemes); the secret is `Redacted` and never logged.
 * Business resources live under `/api/v1/tenants/{tenant_id}/`; webhook subscriptions
 * (`/api/v1/webhooks`) are the partner's, for every tenant that authorized it.
 *
 * **Paging.** Lists take `page` (1-based) and `per_page` and answer `results` with
 * `current_page` and `total_pages`; the client follows pages until `total_pages` (or an empty or
 * short page).
 *
 * **Retries** (the shared policy of `@shoplink/http`'s `Retry`: exponential backoff with jitter,
 * 4 attempts, 30 s overall). Reads and `PUT`s (which set the whole tag or note) are idempotent and
 * retried on no answer, a timeout, 408, 429 and 5xx. A `POST` (a new tag or note) is retried only
 * when Shop-Ware cannot have acted on it: a 429 (refused before any work) or a connection never
 * made; after a 5xx or a timeout the error is returned and the runtime's worker retries the whole
 * delivery, whose read-before-write finds what was written (a webhook subscription likewise: the
 * next `subscribe` lists the subscriptions first). A 429's `Retry-After` is waited exactly
 * when it is at most `retry.retryAfterCap` (default 30 s); a longer one ends the retries and the
 * error carries it (`retryAfterMillis`). Other 4xx are never retried.
 *
 * @since 0.1.0
 */
import * as HttpClient from "@effect/platform/HttpClient"
import * as HttpClientRequest from "@effect/platform/HttpClientRequest"
import { Exchange, Retry, TransportError } from "@shoplink/http"
import * as Clock from "effect/Clock"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Redacted from "effect/Redacted"
import * as Schema from "effect/Schema"
import * as Resources from "./Resources.js"
import { ShopWareAuthError, ShopWareError } from "./ShopWareError.js"

/**
 * Settings of one client.
 *
 * @example
 * import { Redacted } from "effect"
 * import type { ShopWareClient } from "@shoplink/adapter-shop-ware"
 * const options: ShopWareClient.Options = {
 *   baseUrl: "https://api.shop-ware.com", partnerId: "12", apiSecret: Redacted.make("secret"), tenantId: "3"
 * }
 *
 * @since 0.1.0
 */
export interface Options {
  /** `https://api.shop-ware.com`. */
  readonly baseUrl: string
  /** The value of `X-Api-Partner-Id` (also the `partner_id` of the authorizations path). */
  readonly partnerId: string
  /** The value of `X-Api-Secret`. */
  readonly apiSecret: Redacted.Redacted<string>
  /** The Shop-Ware tenant (`tenant_id`) the shop's data lives in. */
  readonly tenantId: string
  /** Longest one request may take (default 15 seconds). */
  readonly timeout?: Duration.DurationInput
  /** Overrides of the shared retry policy. */
  readonly retry?: Retry.RetryPolicyInput
  /** Items asked for per page of a list (default 100). */
  readonly pageSize?: number
}

/**
 * The repair order states that are open: `estimate` and `in_progress` (an `invoice` is closed).
 *
 * @example
 * import { ShopWareClient } from "@shoplink/adapter-shop-ware"
 * ShopWareClient.OPEN_STATES // ["estimate", "in_progress"]
 *
 * @since 0.1.0
 */
export const OPEN_STATES: ReadonlyArray<string> = ["estimate", "in_progress"]

/**
 * What a call may fail with.
 *
 * @example
 * import type { ShopWareClient } from "@shoplink/adapter-shop-ware"
 * const explain = (error: ShopWareClient.CallError) => error.message
 *
 * @since 0.1.0
 */
export type CallError = ShopWareError | ShopWareAuthError

/**
 * The client.
 *
 * @example
 * import type { ShopWareClient } from "@shoplink/adapter-shop-ware"
 * const first = (client: ShopWareClient.Client) => client.repairOrders({ state: "estimate", page: 1 })
 *
 * @since 0.1.0
 */
export interface Client {
  readonly tenantId: string
  /** The partner's authorizations, every page (a 401/403 is a `ShopWareAuthError`). */
  readonly authorizations: Effect.Effect<ReadonlyArray<Resources.Authorization>, CallError>
  readonly tenant: Effect.Effect<Resources.Tenant, CallError>
  /** One page of the tenant's repair orders (`state`, `shop_id` filters). */
  readonly repairOrders: (options: {
    readonly state?: string | undefined
    readonly shopId?: string | undefined
    readonly page?: number | undefined
    readonly perPage?: number | undefined
  }) => Effect.Effect<Resources.PageOf<Resources.RepairOrder>, CallError>
  /** Every open repair order (states {@link OPEN_STATES}) of the tenant, or of one of its shops, newest first. */
  readonly openRepairOrders: (
    shopId: string | undefined,
    limit: number
  ) => Effect.Effect<ReadonlyArray<Resources.RepairOrder>, CallError>
  /** A repair order with its integrator tags. */
  readonly repairOrder: (id: string) => Effect.Effect<Resources.RepairOrder, CallError>
  readonly vehicle: (id: string) => Effect.Effect<Resources.Vehicle, CallError>
  readonly customer: (id: string) => Effect.Effect<Resources.Customer, CallError>
  /** Every note of a repair order. */
  readonly notes: (repairOrderId: string) => Effect.Effect<ReadonlyArray<Resources.Note>, CallError>
  readonly createNote: (repairOrderId: number, description: string) => Effect.Effect<Resources.Note, CallError>
  readonly updateNote: (id: number, description: string) => Effect.Effect<Resources.Note, CallError>
  readonly createTag: (
    tag: { readonly taggable_type: string; readonly taggable_id: number; readonly name: string; readonly value: string }
  ) => Effect.Effect<Resources.IntegratorTag, CallError>
  readonly updateTag: (id: number, value: string) => Effect.Effect<Resources.IntegratorTag, CallError>
  /**
   * The partner's webhook subscriptions (`GET /api/v1/webhooks`; partner-level, not per tenant):
   * the plain array the OpenAPI shows, or every page should Shop-Ware page it.
   */
  readonly webhooks: Effect.Effect<ReadonlyArray<Resources.Webhook>, CallError>
  /** Subscribes `url` to `events` (`POST /api/v1/webhooks`; `format` `null` is Shop-Ware's default). */
  readonly createWebhook: (webhook: WebhookInput) => Effect.Effect<Resources.Webhook, CallError>
  /** Changes a subscription (`PUT /api/v1/webhooks/{id}`): only the fields given. */
  readonly updateWebhook: (id: number, changes: Partial<WebhookInput>) => Effect.Effect<Resources.Webhook, CallError>
}

/**
 * What a webhook subscription is made of: the `url` Shop-Ware posts to (HTTPS, no redirects), the
 * `events` (`object_type.event_action`) and the `format` (`null` for Shop-Ware's default body, or
 * `"zapier"`; left out, Shop-Ware's default).
 *
 * @example
 * import type { ShopWareClient } from "@shoplink/adapter-shop-ware"
 * const input: ShopWareClient.WebhookInput = {
 *   url: "https://shoplink.example/sms-webhooks/k1", events: ["repair_order.updated"], format: null
 * }
 *
 * @since 0.1.0
 */
export interface WebhookInput {
  readonly url: string
  readonly events: ReadonlyArray<string>
  readonly format?: string | null | undefined
}

// The failures a retry may act on are @shoplink/http's transport errors; a ShopWareError or
// ShopWareAuthError is final.
type AttemptError = TransportError.TransportError | ShopWareError | ShopWareAuthError

const excerpt = (text: string) => (text.length > 200 ? `${text.slice(0, 200)}…` : text)

/** Shop-Ware's message in an error body (`error`, `message` or `errors`), else the body's start. */
const messageOf = (text: string): string => {
  try {
    const json = JSON.parse(text) as Record<string, unknown>
    for (const key of ["error", "message", "errors"]) {
      const value = json[key]
      if (typeof value === "string" && value !== "") return value
      if (Array.isArray(value) && value.length > 0) return value.map(String).join("; ")
    }
  } catch {
    // not JSON
  }
  return excerpt(text.replace(/\s+/g, " ").trim()) || "no body"
}

interface Where {
  readonly operation: string
  readonly method: "GET" | "POST" | "PUT"
  readonly path: string
  /** 401/403 are the credentials' (the authorizations call). */
  readonly authCall?: boolean
}

interface Call<A> extends Where {
  readonly query?: ReadonlyArray<readonly [string, string]>
  readonly body?: unknown
  readonly schema: Schema.Schema<A, any>
}

/**
 * Makes a client over the `HttpClient` in context.
 *
 * @example
 * import { Effect, Redacted } from "effect"
 * import { ShopWareClient } from "@shoplink/adapter-shop-ware"
 * const program = Effect.gen(function*() {
 *   const client = yield* ShopWareClient.make({
 *     baseUrl: "https://api.shop-ware.com", partnerId: "12", apiSecret: Redacted.make("secret"), tenantId: "3"
 *   })
 *   return yield* client.authorizations
 * })
 *
 * @since 0.1.0
 */
export const make = (options: Options): Effect.Effect<Client, never, HttpClient.HttpClient> =>
  Effect.gen(function*() {
    const http = yield* HttpClient.HttpClient
    const baseUrl = options.baseUrl.replace(/\/+$/, "")
    const timeout = Duration.decode(options.timeout ?? "15 seconds")
    const policy = Retry.make(options.retry ?? {})
    const pageSize = options.pageSize ?? 100
    const tenantPath = `/api/v1/tenants/${encodeURIComponent(options.tenantId)}`

    /** One exchange: the status, the body text and the Retry-After, or a transport error. */
    const send = (operation: string, request: HttpClientRequest.HttpClientRequest, attempt: number) =>
      Exchange.send(http, request, { operation, attempt, timeout, baseUrl })

    /** A failed status as the error a retry acts on (429, 408, 5xx) or a final one. */
    const statusError = (call: Where, answer: Exchange.Answer, attempt: number, now: number): AttemptError => {
      const detail = messageOf(answer.text)
      const where = { operation: call.operation, method: call.method, path: call.path }
      const retrying = Exchange.retryableStatusError(where, answer, { baseUrl, attempt, now, detail })
      if (retrying !== undefined) return retrying
      // Wrong credentials answer 401 anywhere; on the authorizations call a 403 is theirs too.
      if (answer.status === 401 || (call.authCall === true && answer.status === 403)) {
        return new ShopWareAuthError({ status: answer.status, detail })
      }
      return new ShopWareError({
        ...where,
        reason: "HttpStatus",
        status: answer.status,
        detail,
        requestSent: true,
        attempts: attempt
      })
    }

    /** A transport error left after the retries, as a ShopWareError. */
    const final = (call: Where) => (error: AttemptError): CallError =>
      error._tag === "ShopWareError" || error._tag === "ShopWareAuthError"
        ? error
        : new ShopWareError(
          Exchange.fromTransportError({ operation: call.operation, method: call.method, path: call.path }, error)
        )

    const call = <A>(spec: Call<A>): Effect.Effect<A, CallError> =>
      Retry.retry(
        (attempt: number) =>
          Effect.gen(function*() {
            const url = new URL(`${baseUrl}${spec.path}`)
            for (const [key, value] of spec.query ?? []) url.searchParams.append(key, value)
            let request = HttpClientRequest.make(spec.method)(url.toString(), { acceptJson: true }).pipe(
              HttpClientRequest.setHeader("x-api-partner-id", options.partnerId),
              HttpClientRequest.setHeader("x-api-secret", Redacted.value(options.apiSecret))
            )
            if (spec.body !== undefined) request = HttpClientRequest.bodyUnsafeJson(request, spec.body)
            const answer = yield* send(spec.operation, request, attempt)
            if (answer.status < 200 || answer.status >= 300) {
              return yield* statusError(spec, answer, attempt, yield* Clock.currentTimeMillis)
            }
            const decoded = Either.flatMap(
              Either.try(() => (answer.text === "" ? null : JSON.parse(answer.text)) as unknown),
              (json) => Schema.decodeUnknownEither(spec.schema)(json)
            )
            if (Either.isLeft(decoded)) {
              return yield* new ShopWareError({
                operation: spec.operation,
                method: spec.method,
                path: spec.path,
                reason: "Decode",
                status: answer.status,
                detail: `not the documented shape: ${
                  excerpt(
                    (decoded.left instanceof Error ? decoded.left.message : String(decoded.left)).replace(/\s+/g, " ")
                  )
                }`,
                requestSent: true,
                attempts: attempt
              })
            }
            return decoded.right
          }),
        {
          policy,
          idempotency: spec.method === "POST" ? "unsafe" : "idempotent",
          // A 429 is a refusal before any work: even a POST may go again.
          ...(spec.method === "POST"
            ? { while: (error: AttemptError) => error._tag === "RateLimited" || Retry.retryable(error, "unsafe") }
            : {}),
          onRetry: ({ attempt: n, delay }) =>
            Effect.logDebug("Shop-Ware call retried").pipe(
              Effect.annotateLogs({ operation: spec.operation, attempt: n, delayMillis: Duration.toMillis(delay) })
            )
        }
      ).pipe(Effect.mapError(final(spec)))

    /** Every page of a list: `page` from 1 until `total_pages`, an empty or a short page. */
    const allPages = <A>(page: (n: number) => Effect.Effect<Resources.PageOf<A>, CallError>) =>
      Exchange.allPages({
        first: 1,
        page,
        items: (current) => current.results,
        isLast: (current, n) =>
          current.total_pages === undefined
            ? current.results.length < pageSize
            : (current.current_page ?? n) >= current.total_pages
      })

    const RepairOrderPage = Resources.Page(Resources.RepairOrder)
    const repairOrders: Client["repairOrders"] = (query) =>
      call({
        operation: "listRepairOrders",
        method: "GET",
        path: `${tenantPath}/repair_orders`,
        query: [
          ...(query.state === undefined ? [] : [["status", query.state] as const]),
          ...(query.shopId === undefined ? [] : [["shop_id", query.shopId] as const]),
          ["page", String(query.page ?? 1)],
          ["per_page", String(query.perPage ?? pageSize)]
        ],
        schema: RepairOrderPage
      })

    const newestFirst = (a: Resources.RepairOrder, b: Resources.RepairOrder) =>
      (b.created_at ?? "").localeCompare(a.created_at ?? "") || b.id - a.id

    // The list is one array in the OpenAPI; a paged answer is followed with `page` (the first
    // request sends no paging parameters, which the document does not list for this path).
    const webhooks = Exchange.allPages({
      first: 1,
      page: (n: number) =>
        Effect.map(
          call({
            operation: "listWebhooks",
            method: "GET",
            path: "/api/v1/webhooks",
            ...(n === 1 ? {} : { query: [["page", String(n)]] as const }),
            schema: Resources.WebhookList
          }),
          // A plain array is the whole list: one page.
          (list): Resources.PageOf<Resources.Webhook> =>
            Array.isArray(list) ? { results: list } : list as Resources.PageOf<Resources.Webhook>
        ),
      items: (page) => page.results,
      isLast: (page, n) => (page.current_page ?? n) >= (page.total_pages ?? 1)
    })
    const webhookBody = (input: Partial<WebhookInput>) => ({
      ...(input.url === undefined ? {} : { url: input.url }),
      ...(input.events === undefined ? {} : { events: [...input.events] }),
      ...(input.format === undefined ? {} : { format: input.format })
    })

    const AuthorizationPage = Resources.Page(Resources.Authorization)
    const NotePage = Resources.Page(Resources.Note)
    return {
      tenantId: options.tenantId,
      authorizations: allPages((n) =>
        call({
          operation: "listAuthorizations",
          method: "GET",
          path: `/api/v1/partners/${encodeURIComponent(options.partnerId)}/authorizations`,
          query: [["page", String(n)], ["per_page", String(pageSize)]],
          schema: AuthorizationPage,
          authCall: true
        })
      ),
      tenant: call({ operation: "getTenant", method: "GET", path: tenantPath, schema: Resources.Tenant }),
      repairOrders,
      // The API has no sort parameter: every open repair order is read, then sorted here.
      openRepairOrders: (shopId, limit) =>
        Effect.map(
          Effect.forEach(
            OPEN_STATES,
            (state) => allPages((n) => repairOrders({ state, shopId, page: n })),
            { concurrency: 2 }
          ),
          (lists) => lists.flat().sort(newestFirst).slice(0, Math.max(0, limit))
        ),
      repairOrder: (id) =>
        call({
          operation: "getRepairOrder",
          method: "GET",
          path: `${tenantPath}/repair_orders/${encodeURIComponent(id)}`,
          query: [["associations[]", "integrator_tags"]],
          schema: Resources.RepairOrder
        }),
      vehicle: (id) =>
        call({
          operation: "getVehicle",
          method: "GET",
          path: `${tenantPath}/vehicles/${encodeURIComponent(id)}`,
          schema: Resources.Vehicle
        }),
      customer: (id) =>
        call({
          operation: "getCustomer",
          method: "GET",
          path: `${tenantPath}/customers/${encodeURIComponent(id)}`,
          schema: Resources.Customer
        }),
      notes: (repairOrderId) =>
        allPages((n) =>
          call({
            operation: "listNotes",
            method: "GET",
            path: `${tenantPath}/notes`,
            query: [["repair_order_id", repairOrderId], ["page", String(n)], ["per_page", String(pageSize)]],
            schema: NotePage
          })
        ),
      createNote: (repairOrderId, description) =>
        call({
          operation: "createNote",
          method: "POST",
          path: `${tenantPath}/notes`,
          body: { repair_order_id: repairOrderId, description },
          schema: Resources.Note
        }),
      updateNote: (id, description) =>
        call({
          operation: "updateNote",
          method: "PUT",
          path: `${tenantPath}/notes/${id}`,
          body: { description },
          schema: Resources.Note
        }),
      createTag: (tag) =>
        call({
          operation: "createIntegratorTag",
          method: "POST",
          path: `${tenantPath}/integrator_tags`,
          body: tag,
          schema: Resources.IntegratorTag
        }),
      updateTag: (id, value) =>
        call({
          operation: "updateIntegratorTag",
          method: "PUT",
          path: `${tenantPath}/integrator_tags/${id}`,
          body: { value },
          schema: Resources.IntegratorTag
        }),
      webhooks,
      createWebhook: (webhook) =>
        call({
          operation: "createWebhook",
          method: "POST",
          path: "/api/v1/webhooks",
          body: webhookBody(webhook),
          schema: Resources.Webhook
        }),
      updateWebhook: (id, changes) =>
        call({
          operation: "updateWebhook",
          method: "PUT",
          path: `/api/v1/webhooks/${id}`,
          body: webhookBody(changes),
          schema: Resources.Webhook
        })
    } satisfies Client
  })
