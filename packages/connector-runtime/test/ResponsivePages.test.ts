// Pages fit a phone (issue #26): every page the runtime serves (callback, parts, status) declares
// a viewport. The service pages' own check is in @shoplink/service-pages.
import { describe, expect, it } from "@effect/vitest"
import { renderCallbackPage, renderPartsPage, renderStatusPage } from "../src/internal/callbackPage.js"

const VIEWPORT = `<meta name="viewport" content="width=device-width, initial-scale=1">`

describe("responsive pages", () => {
  it("every runtime page declares a viewport", () => {
    const launch = { repairOrderNumber: "1042", repairOrderUrl: undefined } as unknown as Parameters<
      typeof renderCallbackPage
    >[0]
    const pages = {
      callback: renderCallbackPage(launch, { text: "Waiting", refresh: false, state: "waiting", shown: undefined }),
      parts: renderPartsPage({ shopId: "s", repairOrderId: "ro_1" }, [], "/parts.csv"),
      status: renderStatusPage(404, "This link is not known.")
    }
    for (const [what, page] of Object.entries(pages)) expect(page, what).toContain(VIEWPORT)
  })
})
