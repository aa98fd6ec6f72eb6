// The domain answers typed failures (catalogue messages) instead of throwing.
import { describe, expect, it } from "@effect/vitest"
import { Effect, Either } from "effect"
import { SANDBOX_CREDENTIALS } from "../src/index.js"
import type { Ctx } from "../src/internal/context.js"
import { addToCart, catalogView, openOrder, press, removeFromCart } from "../src/internal/ordering.js"
import { type Session, SandboxState } from "../src/internal/state.js"

const idOf = (
  result: Either.Either<unknown, { readonly id: string }>
) => (Either.isLeft(result) ? result.left.id : "ok")

describe("domain", () => {
  const now = Date.UTC(2026, 5, 1, 14)
  const accountNo = SANDBOX_CREDENTIALS.customers.us.accountNo

  it("allocation and order operations answer Left with the message instead of throwing", () => {
    const state = new SandboxState(1, now)
    expect(idOf(state.inventory.allocate([{ productID: "NOPE", brandID: "WIX", quantity: 1 }], "US"))).toBe("API0232")
    expect(idOf(state.inventory.allocate([{ productID: "51515", brandID: "WIX", quantity: 1000 }], "US"))).toBe(
      "API0235"
    )
    expect(idOf(state.orders.submitOrder("123", accountNo))).toBe("API0256")
    const allocations = Either.getOrThrow(
      state.inventory.allocate([{ productID: "51515", brandID: "WIX", quantity: 1 }], "US")
    )
    const order = state.orders.createCartOrder(now, accountNo, allocations, "")
    state.faults.inject({ kind: "orderLocked", orderID: order.orderID })
    expect(idOf(state.orders.submitOrder(order.orderID, accountNo))).toBe("API0258")
    expect(idOf(state.orders.submitOrder(order.orderID, accountNo))).toBe("ok")
    expect(idOf(state.orders.submitOrder(order.orderID, accountNo))).toBe("API0247")
    expect(idOf(state.orders.removeFromCart(order, "NOPE", "WIX"))).toBe("API0270")
  })

  it("a refused cart change leaves the order and the stock as they were", () => {
    const state = new SandboxState(1, now)
    const product = state.inventory.findProduct("51515", "WIX")!
    const before = state.inventory.available(product, "US")
    const order = state.orders.createCartOrder(
      now,
      accountNo,
      Either.getOrThrow(state.inventory.allocate([{ productID: "51515", brandID: "WIX", quantity: 2 }], "US")),
      ""
    )
    expect(idOf(state.orders.addToCart(now, order, { productID: "51515", brandID: "WIX", quantity: 998 }, "US"))).toBe(
      "API0235"
    )
    expect(order.lines.map((l) => l.quantity)).toEqual([2])
    expect(state.inventory.available(product, "US")).toBe(before - 2)
  })

  it("the ordering pages' operations answer Left with a PageFailure instead of throwing", () => {
    const state = new SandboxState(1, now)
    const ctx: Ctx = {
      state,
      now: Effect.succeed(now),
      baseUrl: () => "http://sandbox.invalid",
      adminToken: undefined,
      deliver: () => Effect.void
    }
    const session: Session = {
      token: "t",
      accountNo,
      apiToken: SANDBOX_CREDENTIALS.customers.us.apiToken,
      createdAt: now,
      expiresAt: now + 60_000,
      smsVendorName: "Test",
      referenceID: undefined,
      webhooks: { order: "http://o.invalid", quote: "http://q.invalid", callback: undefined },
      exportButtons: { export: true, exportAndSave: false },
      pageReferenceID: undefined,
      vehicleMakeId: 0,
      lastVehicle: undefined,
      cartOrderId: undefined,
      cartExported: false,
      lastSearch: []
    }
    const failure = (result: Either.Either<unknown, { readonly message: string; readonly status: number }>) =>
      Either.isLeft(result) ? `${result.left.status} ${result.left.message}` : "ok"
    expect(failure(catalogView(ctx, session, { token: "t", vin: "1FTEW1E50KFA99999" }))).toBe(
      "400 Could not decode VIN 1FTEW1E50KFA99999"
    )
    expect(failure(openOrder(ctx, session, "42", undefined))).toBe("404 Order 42 not found")
    expect(failure(removeFromCart(ctx, session, { productID: "51515", brandID: "WIX" }))).toBe("400 The cart is empty")
    expect(failure(addToCart(ctx, session, now, { productID: "51515", brandID: "WIX", quantity: 0 }))).toMatch(
      /^400 API0231: /
    )
    expect(failure(press(ctx, session, now, "exportAndSave"))).toMatch(/not shown for this session/)
    expect(failure(press(ctx, session, now, "exportAndSubmit"))).toBe("400 The cart is empty")
    expect(failure(addToCart(ctx, session, now, { productID: "51515", brandID: "WIX", quantity: 1 }))).toBe("ok")
    expect(failure(press(ctx, session, now, "exportAndSubmit"))).toBe("ok")
  })
})
