/**
 * A client of the Tekmetric API for one set of OAuth client credentials, on @effect/platform's
 * `HttpClient`.
 *
 * **Token.** `POST /api/v1/oauth/token` with the client ID and secret as HTTP Basic credentials
 * and `grant_type=client_credentials`. The token is cached in memory (never logged or stored) and
 * shared by every call; it is fetched again `refreshBefore` (default 60 s) before its `expires_in`
 * runs out, or, when Tekmetric sends no `expires_in`, when an API call answers 401 (once per call).
 * Fetching is single-flight: however many calls need a token at once, one request is made and
 * they all wait for it. The token's `scope` lists the shop IDs the credentials reach (`shops`).
 *
 * **Retries** (the shared policy of `@shoplink/http`'s `Retry`: exponential backoff with jitter,
 * 4 attempts, 30 s overall): every call here is idempotent (reads; a job PATCH that sets the whole
 * note), so a call is retried on no answer, a timeout, 408, 429 and 5xx. A 429's `Retry-After` is
 * waited exactly when it is at most `retry.retryAfterCap` (default 30 s); a longer one ends the
 * retries and the error carries it (`retryAfterMillis`), so the runtime's worker retries later.
 * 400, 403 and 404 are never retried; a 401 fetches a new token and tries once more.
 *
 * @since 0.1.0
 */
import * as HttpClient from "@effect/platform/HttpClient"
import * as HttpClientRequest from "@effect/platform/HttpClientRequest"
import * as Clock from "effect/Clock"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Redacted from "effect/Redacted"
import * as Schema from "effect/Schema"
import { Exchange, Retry, TransportError } from "@shoplink/http"
import * as Resources from "./Resources.js"
import { TekmetricAuthError, TekmetricError } from "./TekmetricError.js"

/**
 * Settings of one client.
 *
 * @example
 * import { Redacted } from "effect"
 * import type { TekmetricClient } from "@shoplink/adapter-tekmetric"
 * const options: TekmetricClient.Options = {
 *   baseUrl: "https://sandbox.tekmetric.com", clientId: "client-id", clientSecret: Redacted.make("client-secret")
 * }
 *
 * @since 0.1.0
 */
export interface Options {
  /** `https://api.tekmetric.com` (production) or `https://sandbox.tekmetric.com`. */
  readonly baseUrl: string
  readonly clientId: string
  readonly clientSecret: Redacted.Redacted<string>
  /** Longest one request may take (default 15 seconds). */
  readonly timeout?: Duration.DurationInput
  /** Overrides of the shared retry policy. */
  readonly retry?: Retry.RetryPolicyInput
  /** How long before a token's expiry it is fetched again (default 60 seconds). */
  readonly refreshBefore?: Duration.DurationInput
  /** Items asked for per page of a list (default 100). */
  readonly pageSize?: number
}

/**
 * The repair order statuses that are open: Estimate (1), Work-in-Progress (2) and Complete (3), not
 * yet posted. Saved for Later (4), Posted (5), Accounts Receivable (6) and Deleted (7) are not.
 *
 * @example
 * import { TekmetricClient } from "@shoplink/adapter-tekmetric"
 * TekmetricClient.OPEN_STATUS_IDS // [1, 2, 3]
 *
 * @since 0.1.0
 */
export const OPEN_STATUS_IDS: ReadonlyArray<number> = [1, 2, 3]

/**
 * What a call may fail with.
 *
 * @example
 * import type { TekmetricClient } from "@shoplink/adapter-tekmetric"
 * const explain = (error: TekmetricClient.CallError) => error.message
 *
 * @since 0.1.0
 */
export type CallError = TekmetricError | TekmetricAuthError

/**
 * The client.
 *
 * @example
 * import { Effect } from "effect"
 * import type { TekmetricClient } from "@shoplink/adapter-tekmetric"
 * const firstPage = (client: TekmetricClient.Client) => client.repairOrders("1", { page: 0 })
 *
 * @since 0.1.0
 */
export interface Client {
  /** The shop IDs the token's scope lists (fetches a token when none is cached). */
  readonly shops: Effect.Effect<ReadonlyArray<string>, CallError>
  /** One page of a shop's repair orders (`GET /api/v1/repair-orders?shop&page&size`). */
  readonly repairOrders: (
    shop: string,
    options?: { readonly page?: number; readonly size?: number }
  ) => Effect.Effect<Resources.PageOf<Resources.RepairOrder>, CallError>
  /** Every repair order of a shop, page after page. */
  readonly allRepairOrders: (shop: string) => Effect.Effect<ReadonlyArray<Resources.RepairOrder>, CallError>
  /**
   * The shop's newest `limit` open repair orders (statuses {@link OPEN_STATUS_IDS}), newest first
   * (`sort=createdDate&sortDirection=DESC`), page after page until `limit`.
   */
  readonly openRepairOrders: (
    shop: string,
    limit: number
  ) => Effect.Effect<ReadonlyArray<Resources.RepairOrder>, CallError>
  readonly repairOrder: (id: string) => Effect.Effect<Resources.RepairOrder, CallError>
  readonly vehicle: (id: string) => Effect.Effect<Resources.Vehicle, CallError>
  readonly customer: (id: string) => Effect.Effect<Resources.Customer, CallError>
  /** Every job of a repair order, page after page (`GET /api/v1/jobs?shop&repairOrderId`). */
  readonly jobs: (shop: string, repairOrderId: string) => Effect.Effect<ReadonlyArray<Resources.Job>, CallError>
  /** `PATCH /api/v1/jobs/{id}` with the fields given (here: the whole `note`). */
  readonly updateJob: (id: string, fields: { readonly note: string }) => Effect.Effect<void, CallError>
}

interface Token {
  readonly value: Redacted.Redacted<string>
  readonly scope: ReadonlyArray<string>
  readonly expiresAt: number | undefined
}

// The failures a retry may act on are @shoplink/http's transport errors; a TekmetricError or
// TekmetricAuthError is final.
type AttemptError = TransportError.TransportError | TekmetricError | TekmetricAuthError

const excerpt = (text: string) => (text.length > 200 ? `${text.slice(0, 200)}…` : text)

/** Tekmetric's message in an error body (`message`, or OAuth's `error_description` / `error`). */
const messageOf = (text: string): string => {
  try {
    const json = JSON.parse(text) as Record<string, unknown>
    for (const key of ["message", "error_description", "error"]) {
      if (typeof json[key] === "string" && json[key] !== "") return json[key] as string
    }
  } catch {
    // not JSON
  }
  return excerpt(text) || "no body"
}

interface Call<A> {
  readonly operation: string
  readonly method: "GET" | "POST" | "PATCH"
  readonly path: string
  readonly query?: Readonly<Record<string, string>>
  readonly body?: unknown
  readonly schema: Schema.Schema<A, any>
}

/**
 * Makes a client over the `HttpClient` in context.
 *
 * @example
 * import { Effect, Redacted } from "effect"
 * import { TekmetricClient } from "@shoplink/adapter-tekmetric"
 * const program = Effect.gen(function*() {
 *   const client = yield* TekmetricClient.make({
 *     baseUrl: "https://sandbox.tekmetric.com", clientId: "id", clientSecret: Redacted.make("secret")
 *   })
 *   return yield* client.shops
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
    const refreshBefore = Duration.toMillis(Duration.decode(options.refreshBefore ?? "60 seconds"))
    const pageSize = options.pageSize ?? 100
    const basic = Buffer.from(`${options.clientId}:${Redacted.value(options.clientSecret)}`).toString("base64")

    /** One exchange: the status, the body text and the Retry-After, or a transport error. */
    const send = (operation: string, request: HttpClientRequest.HttpClientRequest, attempt: number) =>
      Exchange.send(http, request, { operation, attempt, timeout, baseUrl })

    /** A failed status as the error a retry acts on (429, 408, 5xx) or a final one. */
    const statusError = (
      where: Exchange.Where,
      answer: Exchange.Answer,
      attempt: number,
      now: number
    ): AttemptError => {
      const detail = messageOf(answer.text)
      return Exchange.retryableStatusError(where, answer, { baseUrl, attempt, now, detail }) ??
        new TekmetricError({
          ...where,
          reason: "HttpStatus",
          status: answer.status,
          detail,
          requestSent: true,
          attempts: attempt
        })
    }

    /** A transport error left after the retries, as a TekmetricError. */
    const final = (where: Exchange.Where) => (error: AttemptError): CallError =>
      error._tag === "TekmetricError" || error._tag === "TekmetricAuthError"
        ? error
        : new TekmetricError(Exchange.fromTransportError(where, error))

    const withRetries = <A>(attempt: (n: number) => Effect.Effect<A, AttemptError>) =>
      Retry.retry(attempt, {
        policy,
        idempotency: "idempotent",
        onRetry: ({ attempt: n, delay, error }) =>
          Effect.logDebug("Tekmetric call retried").pipe(
            Effect.annotateLogs({
              operation: error._tag === "TekmetricError"
                ? error.operation
                : "operation" in error
                ? error.operation
                : "",
              attempt: n,
              delayMillis: Duration.toMillis(delay)
            })
          )
      })

    // --- The token: cached, refreshed before expiry, fetched by one caller at a time. ---
    const tokenPath = "/api/v1/oauth/token"
    let cached: Token | undefined
    const lock = yield* Effect.makeSemaphore(1)
    const fetchToken = withRetries((attempt) =>
      Effect.gen(function*() {
        const request = HttpClientRequest.post(`${baseUrl}${tokenPath}`, { acceptJson: true }).pipe(
          HttpClientRequest.setHeader("authorization", `Basic ${basic}`),
          HttpClientRequest.bodyUrlParams({ grant_type: "client_credentials" })
        )
        const answer = yield* send("token", request, attempt)
        const now = yield* Clock.currentTimeMillis
        if (answer.status === 401 || answer.status === 400 || answer.status === 403) {
          return yield* new TekmetricAuthError({ status: answer.status, detail: messageOf(answer.text) })
        }
        if (answer.status < 200 || answer.status >= 300) {
          return yield* statusError({ operation: "token", method: "POST", path: tokenPath }, answer, attempt, now)
        }
        const decoded = Either.flatMap(
          Either.try(() => JSON.parse(answer.text) as unknown),
          (json) => Schema.decodeUnknownEither(Resources.TokenResponse)(json)
        )
        if (Either.isLeft(decoded)) {
          return yield* new TekmetricError({
            operation: "token",
            method: "POST",
            path: tokenPath,
            reason: "Decode",
            status: answer.status,
            detail: "the token answer has no access_token",
            requestSent: true,
            attempts: attempt
          })
        }
        const body = decoded.right
        return {
          value: Redacted.make(body.access_token),
          scope: body.scope.split(/\s+/).filter((s) => s !== ""),
          expiresAt: typeof body.expires_in === "number" ? now + body.expires_in * 1000 : undefined
        } satisfies Token
      })
    ).pipe(Effect.mapError(final({ operation: "token", method: "POST", path: tokenPath })))

    const token: Effect.Effect<Token, CallError> = lock.withPermits(1)(
      Effect.gen(function*() {
        const now = yield* Clock.currentTimeMillis
        if (
          cached !== undefined && (cached.expiresAt === undefined || now < cached.expiresAt - refreshBefore)
        ) return cached
        const fresh = yield* fetchToken
        cached = fresh
        yield* Effect.logDebug("Tekmetric token fetched").pipe(Effect.annotateLogs({ shops: fresh.scope.join(" ") }))
        return fresh
      })
    )
    const invalidate = (used: Token) =>
      Effect.sync(() => {
        if (cached === used) cached = undefined
      })

    // --- API calls ---
    const call = <A>(spec: Call<A>): Effect.Effect<A, CallError> => {
      const where = { operation: spec.operation, method: spec.method, path: spec.path }
      return withRetries((attempt) =>
        Effect.gen(function*() {
          let renewed = false
          while (true) {
            const current = yield* token
            let request = HttpClientRequest.make(spec.method)(`${baseUrl}${spec.path}`, {
              urlParams: spec.query ?? {},
              acceptJson: true
            }).pipe(
              HttpClientRequest.bearerToken(Redacted.value(current.value))
            )
            if (spec.body !== undefined) request = HttpClientRequest.bodyUnsafeJson(request, spec.body)
            const answer = yield* send(spec.operation, request, attempt)
            // A token Tekmetric no longer accepts (revoked, or expired without an expires_in): a new one, once.
            if (answer.status === 401 && !renewed) {
              renewed = true
              yield* invalidate(current)
              continue
            }
            if (answer.status < 200 || answer.status >= 300) {
              return yield* statusError(where, answer, attempt, yield* Clock.currentTimeMillis)
            }
            const decoded = Either.flatMap(
              Either.try(() => (answer.text === "" ? null : JSON.parse(answer.text)) as unknown),
              (json) => Schema.decodeUnknownEither(spec.schema)(json)
            )
            if (Either.isLeft(decoded)) {
              return yield* new TekmetricError({
                ...where,
                reason: "Decode",
                status: answer.status,
                detail: `not the documented shape: ${
                  excerpt(decoded.left instanceof Error ? decoded.left.message : String(decoded.left))
                }`,
                requestSent: true,
                attempts: attempt
              })
            }
            return decoded.right
          }
        })
      ).pipe(Effect.mapError(final(where)))
    }

    const RepairOrderPage = Resources.Page(Resources.RepairOrder)
    const JobPage = Resources.Page(Resources.Job)

    // Every page from 0: until `last`, else `totalPages`, else an empty page.
    const allPages = <A>(page: (n: number) => Effect.Effect<Resources.PageOf<A>, CallError>) =>
      Exchange.allPages({
        first: 0,
        page,
        items: (current) => current.content,
        isLast: (current, n) => current.last ?? (current.totalPages !== undefined && n + 1 >= current.totalPages)
      })

    const repairOrders: Client["repairOrders"] = (shop, page = {}) =>
      call({
        operation: "listRepairOrders",
        method: "GET",
        path: "/api/v1/repair-orders",
        query: { shop, page: String(page.page ?? 0), size: String(page.size ?? pageSize) },
        schema: RepairOrderPage
      })

    const openRepairOrders: Client["openRepairOrders"] = (shop, limit) =>
      Effect.gen(function*() {
        const size = Math.max(1, Math.min(pageSize, limit))
        const page = (n: number) =>
          call({
            operation: "listRepairOrders",
            method: "GET",
            path: "/api/v1/repair-orders",
            query: {
              shop,
              repairOrderStatusId: OPEN_STATUS_IDS.join(","),
              sort: "createdDate",
              sortDirection: "DESC",
              page: String(n),
              size: String(size)
            },
            schema: RepairOrderPage
          })
        const items = yield* Exchange.allPages({
          first: 0,
          page,
          items: (current) => current.content,
          isLast: (current) => current.last ?? current.content.length < size,
          limit
        })
        return items.slice(0, limit)
      })

    const jobsPage = (shop: string, repairOrderId: string, page: number) =>
      call({
        operation: "listJobs",
        method: "GET",
        path: "/api/v1/jobs",
        query: { shop, repairOrderId, page: String(page), size: String(pageSize) },
        schema: JobPage
      })

    return {
      shops: Effect.map(token, (t) => t.scope),
      repairOrders,
      allRepairOrders: (shop) => allPages((n) => repairOrders(shop, { page: n })),
      openRepairOrders,
      repairOrder: (id) =>
        call({
          operation: "getRepairOrder",
          method: "GET",
          path: `/api/v1/repair-orders/${encodeURIComponent(id)}`,
          schema: Resources.RepairOrder
        }),
      vehicle: (id) =>
        call({
          operation: "getVehicle",
          method: "GET",
          path: `/api/v1/vehicles/${encodeURIComponent(id)}`,
          schema: Resources.Vehicle
        }),
      customer: (id) =>
        call({
          operation: "getCustomer",
          method: "GET",
          path: `/api/v1/customers/${encodeURIComponent(id)}`,
          schema: Resources.Customer
        }),
      jobs: (shop, repairOrderId) => allPages((n) => jobsPage(shop, repairOrderId, n)),
      updateJob: (id, fields) =>
        Effect.asVoid(call({
          operation: "updateJob",
          method: "PATCH",
          path: `/api/v1/jobs/${encodeURIComponent(id)}`,
          body: fields,
          schema: Schema.Unknown
        }))
    } satisfies Client
  })
