// Order status in words: one table for every page and message.
import { describe, expect, it } from "@effect/vitest"
import { MessageCatalog, Punchout } from "@shoplink/protocol"

describe("Punchout.orderStatusText", () => {
  it("words the punchout codes, expired, and the Order Management status reports from the catalogue", () => {
    expect(Punchout.orderStatusText("0")).toBe("In shopping cart")
    expect(Punchout.orderStatusText(3)).toBe("Order submitted")
    expect(Punchout.orderStatusText("expired")).toBe("Expired")
    for (const id of ["API0282", "API0283", "API0284", "API0285", "API0286"] as const) {
      expect(Punchout.orderStatusText(id)).toBe(MessageCatalog.messages[id].text)
    }
  })

  it("an unknown code reads as the distributor's description, else as the code", () => {
    expect(Punchout.orderStatusText("7", "Back-ordered")).toBe("Back-ordered")
    expect(Punchout.orderStatusText("7")).toBe("Status 7")
    expect(Punchout.orderStatusText("", "")).toBe("Status unknown")
  })
})
