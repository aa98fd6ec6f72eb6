import { describe, expect, it } from "@effect/vitest"
import { SmsCredentials } from "@shoplink/connector"
import { Effect, Layer, Redacted } from "effect"

// Secrets a test can change between calls, as re-onboarding a shop does.
const mutableSecrets = (initial: Record<string, Record<string, string>>) => {
  const secrets = new Map(Object.entries(initial).map(([shop, s]) => [shop, new Map(Object.entries(s))]))
  const layer = Layer.succeed(SmsCredentials.SmsCredentials, {
    secret: (shopId, name) => {
      const value = secrets.get(shopId)?.get(name)
      return value === undefined
        ? Effect.fail(new SmsCredentials.SmsCredentialsUnavailable({ shopId, reason: `no ${name} stored` }))
        : Effect.succeed(Redacted.make(value))
    }
  })
  return { secrets, layer }
}

describe("SmsCredentials.perShop", () => {
  it.effect("builds one client per shop, again when a secret changes, and never for missing secrets", () =>
    Effect.gen(function*() {
      const { layer, secrets } = mutableSecrets({ a: { apiKey: "key-a", shop: "1" }, b: { apiKey: "key-b" }, c: {} })
      const built: Array<string> = []
      const clientOf = yield* SmsCredentials.perShop({
        required: ["apiKey"],
        optional: ["shop"],
        build: (shopId, s) =>
          Effect.sync(() => {
            built.push(shopId)
            return {
              shopId,
              apiKey: Redacted.value(s.apiKey!),
              shop: s.shop === undefined ? undefined : Redacted.value(s.shop)
            }
          })
      }).pipe(Effect.provide(layer))
      const run = (shopId: string) => clientOf(shopId).pipe(Effect.provide(layer))

      // Concurrent first calls build one client; later calls reuse it.
      const [first, second] = yield* Effect.all([run("a"), run("a")], { concurrency: 2 })
      expect(first).toBe(second)
      expect(first).toEqual({ shopId: "a", apiKey: "key-a", shop: "1" })
      expect(yield* run("a")).toBe(first)
      expect(yield* run("b")).toEqual({ shopId: "b", apiKey: "key-b", shop: undefined })
      expect(built).toEqual(["a", "b"])

      // A rotated key, or a changed optional secret, builds a new client.
      secrets.get("a")!.set("apiKey", "key-a2")
      expect((yield* run("a")).apiKey).toBe("key-a2")
      secrets.get("a")!.delete("shop")
      expect((yield* run("a")).shop).toBeUndefined()
      expect(built).toEqual(["a", "b", "a", "a"])

      // A missing required secret fails before any build.
      const missing = yield* Effect.flip(run("c"))
      expect(missing).toMatchObject({ _tag: "SmsCredentialsUnavailable", shopId: "c", reason: "no apiKey stored" })
      expect(built).toHaveLength(4)
    }))

  it.effect("does not keep a failed build", () =>
    Effect.gen(function*() {
      let attempts = 0
      const clientOf = yield* SmsCredentials.perShop({
        required: ["apiKey"],
        build: () => (++attempts === 1 ? Effect.fail("unreachable" as const) : Effect.succeed(attempts))
      })
      expect(yield* Effect.flip(clientOf("shop_1"))).toBe("unreachable")
      expect(yield* clientOf("shop_1")).toBe(2)
      expect(yield* clientOf("shop_1")).toBe(2)
    }).pipe(Effect.provide(SmsCredentials.layerStatic({ shop_1: { apiKey: Redacted.make("k") } }))))
})
