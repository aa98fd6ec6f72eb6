// Builds a client against a test server with fast retries.
import { FetchHttpClient, HttpClient } from "@effect/platform"
import { Effect, Redacted } from "effect"
import { Customer, OrderManagementClient } from "../../src/index.js"

export const API_KEY = "oms-test-key-SECRET-7f3a"
export const API_TOKEN = "customer-token-SECRET-91c2"
export const customer = Customer.make("100200", API_TOKEN)

export const order = {
  customerPO: "PO-77",
  orderLines: [{ productID: "51515", brandCode: "WIX", quantity: 1 }]
} as const satisfies OrderManagementClient.CreateOrderInput

/** A client for `host` (US_QUA); `attempts` counts every request the client tried to send. */
export const makeClient = (host: string, options: Partial<OrderManagementClient.Options> = {}) =>
  Effect.gen(function*() {
    const attempts = { count: 0 }
    const service = yield* OrderManagementClient.make({
      environment: "US_QUA",
      apiKey: Redacted.make(API_KEY),
      testBaseUrl: host,
      retry: { maxAttempts: 4, baseDelay: "1 millis", maxDelay: "2 millis" },
      transformClient: HttpClient.tapRequest(() => Effect.sync(() => attempts.count++)),
      ...options
    })
    return { service, oms: service.forCustomer(customer), attempts }
  }).pipe(Effect.provide(FetchHttpClient.layer))
