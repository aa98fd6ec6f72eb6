// How an order webhook's lines are compared with the distributor's orderDetails lines.
import { describe, expect, it } from "@effect/vitest"
import { OrderVerifier } from "@shoplink/connector-runtime"
import type { OrderManagement } from "@shoplink/protocol"

const detail = (
  productID: string,
  brandCode: string,
  quantity: number,
  price: number,
  brand?: { readonly ACABrandID: string; readonly SERVICEBrandCode: string }
): OrderManagement.OrderLineDetail => {
  const line = {
    lineNo: 1,
    productID,
    brandCode,
    productDesc: "",
    quantity,
    quantityShipped: 0,
    price,
    corePrice: 0,
    warehouseCode: "01"
  }
  if (brand === undefined) return line
  const info = { ...brand, SERVICEBrandLogo: "", brandDescription: "", brandLogoLevel1URL: "" }
  return { ...line, brand: info as NonNullable<OrderManagement.OrderLineDetail["brand"]> }
}
const applied = (productID: string, brandID: string, quantity: number, costCents: number) => ({
  productID,
  brandID,
  quantity,
  costCents
})

describe("OrderVerifier.linesMismatch", () => {
  it("the same lines match; a product split over warehouses counts with its total quantity", () => {
    expect(
      OrderVerifier.linesMismatch([applied("51515", "WIX", 3, 649)], [
        detail("51515", "WIX", 2, 6.49),
        detail("51515", "WIX", 1, 6.49)
      ], 0)
    )
      .toBeUndefined()
    // Two webhook lines of one product against one distributor line.
    expect(
      OrderVerifier.linesMismatch([applied("51515", "WIX", 1, 649), applied("51515", "WIX", 2, 649)], [
        detail("51515", "WIX", 3, 6.49)
      ], 0)
    )
      .toBeUndefined()
  })

  it("a brand matches the line's brand code, its distributor brand code or its ACA brand ID, in any case", () => {
    const line = detail("51515", "WX", 1, 6.49, { ACABrandID: "BBHJ", SERVICEBrandCode: "WIX" })
    for (const brandID of ["WX", "wix", "BBHJ"]) {
      expect(OrderVerifier.linesMismatch([applied("51515", brandID, 1, 649)], [line], 0)).toBeUndefined()
    }
    expect(OrderVerifier.linesMismatch([applied("51515", "FRAM", 1, 649)], [line], 0)).toBe(
      "FRAM 51515 is not on the distributor's order"
    )
  })

  it("a quantity or a price that differs is named; a tolerance lets prices within it through; extra distributor lines are not a mismatch", () => {
    const order = [detail("51515", "WIX", 2, 6.49), detail("57060", "WIX", 1, 12.99)]
    expect(OrderVerifier.linesMismatch([applied("51515", "WIX", 3, 649)], order, 0)).toBe(
      "WIX 51515: quantity 3 in the webhook, 2 at the distributor"
    )
    expect(OrderVerifier.linesMismatch([applied("51515", "WIX", 2, 1)], order, 0)).toBe(
      "WIX 51515: price 0.01 in the webhook, 6.49 at the distributor"
    )
    expect(OrderVerifier.linesMismatch([applied("51515", "WIX", 2, 650)], order, 0)).toContain("price 6.50")
    expect(OrderVerifier.linesMismatch([applied("51515", "WIX", 2, 650)], order, 1)).toBeUndefined()
    expect(OrderVerifier.linesMismatch([applied("51515", "WIX", 2, 1)], order, Number.POSITIVE_INFINITY))
      .toBeUndefined()
    expect(OrderVerifier.linesMismatch([applied("51515", "WIX", 2, 649)], order, 0)).toBeUndefined()
    expect(OrderVerifier.linesMismatch([applied("51515", "WIX", 2, 649)], [], 0)).toBe(
      "WIX 51515 is not on the distributor's order"
    )
  })

  it("picks the environment of the configured tier in the shop's country", () => {
    expect(OrderVerifier.environmentFor("US_QUA", "CA")).toBe("CA_QUA")
    expect(OrderVerifier.environmentFor("CA_PRD", "US")).toBe("US_PRD")
    expect(OrderVerifier.environmentFor("US_PRD", "CA QA")).toBe("CA_PRD")
  })
})
