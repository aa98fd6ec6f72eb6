// Waiting on the real clock for something another fiber or process does.
import { Effect } from "effect"

/** Waits (real time) until `check` holds, dying after `seconds`. */
export const eventually = <E, R>(check: Effect.Effect<boolean, E, R>, seconds = 20) =>
  Effect.gen(function*() {
    const deadline = Date.now() + seconds * 1000
    while (!(yield* check)) {
      if (Date.now() > deadline) return yield* Effect.dieMessage(`condition not met within ${seconds} s`)
      yield* Effect.sleep("20 millis")
    }
  })
