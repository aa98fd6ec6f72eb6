// Shared test helpers: a client layer on the fake, a TestClock driver for retried calls, and a
// log capture that keeps every line (debug included) as text.
import { FetchHttpClient } from "@effect/platform"
import { Effect, Fiber, HashMap, Layer, Logger, LogLevel, Option, Redacted, TestClock } from "effect"
import { ShopmonkeyClient } from "../src/index.js"
import type { FakeShopmonkey } from "../src/testing.js"

/**
 * The per-attempt timeout also sleeps on the TestClock; tests set it far beyond any retry delay
 * and the clock driver below never jumps that far, so only retry pauses are skipped.
 */
export const TEST_TIMEOUT_MILLIS = 24 * 3600_000

export const clientLayer = (fake: FakeShopmonkey, options: Partial<ShopmonkeyClient.Options> = {}) =>
  ShopmonkeyClient.layer({
    apiKey: Redacted.make(fake.apiKey),
    baseUrl: fake.url,
    timeout: TEST_TIMEOUT_MILLIS,
    ...options
  }).pipe(
    Layer.provide(FetchHttpClient.layer)
  )

export const yieldToEventLoop = Effect.promise(() => new Promise<void>((resolve) => setImmediate(resolve)))

/** Resolves once some fiber sleeps on the TestClock, returning the wake-up times. */
const pauses = Effect.gen(function*() {
  const now = yield* TestClock.currentTimeMillis
  return [...(yield* TestClock.sleeps())].filter((wake) => wake - now < TEST_TIMEOUT_MILLIS / 2)
})

/** Resolves once a retry pause is pending on the TestClock, returning the wake-up times. */
export const awaitSleep: Effect.Effect<ReadonlyArray<number>> = Effect.gen(function*() {
  for (;;) {
    const sleeps = yield* pauses
    if (sleeps.length > 0) return sleeps
    yield* yieldToEventLoop
  }
})

/**
 * Runs an effect that does real I/O and sleeps on the TestClock: whenever it sleeps, the clock
 * jumps to the wake-up time. Returns its exit and the delays it slept.
 */
export const driveClock = <A, E>(effect: Effect.Effect<A, E>) =>
  Effect.gen(function*() {
    const fiber = yield* Effect.fork(effect)
    const slept: Array<number> = []
    for (;;) {
      const done = yield* Fiber.poll(fiber)
      if (Option.isSome(done)) return { exit: done.value, slept }
      const sleeps = yield* pauses
      if (sleeps.length > 0) {
        const now = yield* TestClock.currentTimeMillis
        const wake = Math.min(...sleeps)
        slept.push(wake - now)
        yield* TestClock.adjust(wake - now)
      } else {
        yield* yieldToEventLoop
      }
    }
  })

export const captureLogs = () => {
  const lines: Array<string> = []
  const logger = Logger.make(({ annotations, cause, message }) => {
    lines.push(
      JSON.stringify({ message, annotations: Object.fromEntries(HashMap.toEntries(annotations)), cause: String(cause) })
    )
  })
  const layer = Layer.merge(Logger.replace(Logger.defaultLogger, logger), Logger.minimumLogLevel(LogLevel.All))
  return { lines, layer }
}
