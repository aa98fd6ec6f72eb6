// Records every log line and span (with attributes) a program produces, to check redaction.
import { Effect, Layer, Logger, LogLevel, type Tracer } from "effect"

export interface Captured {
  readonly logs: Array<string>
  readonly spans: Array<Tracer.Span>
}

/** Runs `self` with all log levels recorded and spans recorded through the current tracer. */
export const capture = <A, E, R>(self: Effect.Effect<A, E, R>): Effect.Effect<[A | E, Captured], never, R> =>
  Effect.gen(function*() {
    const captured: Captured = { logs: [], spans: [] }
    const inner = yield* Effect.tracer
    const tracer: Tracer.Tracer = {
      ...inner,
      span(...args) {
        const span = inner.span(...args)
        captured.spans.push(span)
        return span
      },
      context: (f, fiber) => inner.context(f, fiber)
    }
    const logger = Logger.make(({ annotations, cause, logLevel, message }) => {
      captured.logs.push(
        JSON.stringify({
          level: logLevel.label,
          message,
          annotations: Object.fromEntries(annotations),
          cause: String(cause)
        })
      )
    })
    const result = yield* self.pipe(
      Effect.merge,
      Effect.withTracer(tracer),
      Effect.provide(Layer.merge(Logger.replace(Logger.defaultLogger, logger), Logger.minimumLogLevel(LogLevel.All)))
    )
    return [result, captured] as [A | E, Captured]
  })

/** Everything a span exposes, as text. */
export const spanText = (span: Tracer.Span): string =>
  `${span.name} ${JSON.stringify(Object.fromEntries(span.attributes))}`
