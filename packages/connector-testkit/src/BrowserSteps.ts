/**
 * Steps of a browser test of an integration service's pages (`ServicePages`) and the sandbox's
 * catalog, on a Playwright `Page` (playwright-core is the test's own dependency: these functions
 * only call the page's methods, through the small structural types below). Sign in, collect what
 * the Content-Security-Policy refused, open the catalog from a repair order's Order parts button,
 * and add a part to the catalog's cart.
 *
 * @since 0.1.0
 */

/**
 * The part of a Playwright `Locator` the steps use.
 *
 * @example
 * import type { BrowserSteps } from "@shoplink/connector-testkit"
 * const count = (rows: BrowserSteps.LocatorLike) => rows.first()
 *
 * @since 0.1.0
 */
export interface LocatorLike {
  readonly locator: (selector: string) => LocatorLike
  readonly getByTestId: (testId: string) => LocatorLike
  readonly first: () => LocatorLike
  readonly fill: (value: string) => Promise<void>
  readonly click: () => Promise<void>
  readonly waitFor: () => Promise<void>
  readonly textContent: () => Promise<string | null>
}

/**
 * The part of a Playwright `Page` the steps use.
 *
 * @example
 * import type { BrowserSteps } from "@shoplink/connector-testkit"
 * const where = (page: BrowserSteps.PageLike) => page.url()
 *
 * @since 0.1.0
 */
export interface PageLike {
  readonly url: () => string
  readonly goto: (url: string) => Promise<unknown>
  readonly fill: (selector: string, value: string) => Promise<void>
  readonly click: (selector: string) => Promise<void>
  readonly waitForURL: (url: string | RegExp) => Promise<void>
  readonly waitForLoadState: (state: "load") => Promise<void>
  readonly locator: (selector: string) => LocatorLike
  readonly getByTestId: (testId: string) => LocatorLike
  readonly on: (event: "console", listener: (message: { type(): string; text(): string }) => void) => unknown
}

/**
 * The part of a Playwright `BrowserContext` the steps use.
 *
 * @example
 * import type { BrowserSteps } from "@shoplink/connector-testkit"
 * const tab = (context: BrowserSteps.ContextLike) => context.waitForEvent("page")
 *
 * @since 0.1.0
 */
export interface ContextLike<P extends PageLike = PageLike> {
  readonly waitForEvent: (event: "page") => Promise<P>
}

/**
 * The console errors of `page` that say the Content-Security-Policy refused something, as they
 * come (a test expects none).
 *
 * @example
 * import { BrowserSteps } from "@shoplink/connector-testkit"
 * declare const page: BrowserSteps.PageLike
 * const refused = BrowserSteps.cspViolations(page)
 *
 * @since 0.1.0
 */
export const cspViolations = (page: PageLike): ReadonlyArray<string> => {
  const refused: Array<string> = []
  page.on("console", (message) => {
    if (message.type() === "error" && /Content Security Policy/i.test(message.text())) refused.push(message.text())
  })
  return refused
}

const fail = (message: string) => {
  throw new Error(message)
}

/**
 * Open the service at `appUrl` (which must send the browser to sign in first), sign in, and land
 * on the repair order list; rejects unless each of those happens.
 *
 * @example
 * import { BrowserSteps } from "@shoplink/connector-testkit"
 * declare const page: BrowserSteps.PageLike
 * const run = () => BrowserSteps.signIn(page, "http://127.0.0.1:3000", { email: "ava@mainstreet.example", password: "…" })
 *
 * @since 0.1.0
 */
export const signIn = async (
  page: PageLike,
  appUrl: string,
  user: { readonly email: string; readonly password: string }
): Promise<void> => {
  await page.goto(appUrl)
  if (page.url() !== `${appUrl}/sign-in?next=%2F`) fail(`not sent to sign in first: ${page.url()}`)
  await page.fill("#email", user.email)
  await page.fill("#password", user.password)
  await Promise.all([page.waitForURL(`${appUrl}/`), page.getByTestId("sign-in").click()])
}

/**
 * Press Order parts on the list's row of repair order `number`: resolves with the catalog's tab
 * once it shows the distributor's ShowCatalog page.
 *
 * @example
 * import { BrowserSteps } from "@shoplink/connector-testkit"
 * declare const context: BrowserSteps.ContextLike
 * declare const page: BrowserSteps.PageLike
 * const catalog = () => BrowserSteps.openCatalog(context, page, "1042")
 *
 * @since 0.1.0
 */
export const openCatalog = async <P extends PageLike>(
  context: ContextLike<P>,
  page: PageLike,
  number: string
): Promise<P> => {
  const [catalog] = await Promise.all([
    context.waitForEvent("page"),
    page.locator(`[data-testid="repair-order"][data-ro="${number}"]`).getByTestId("order-parts").click()
  ])
  await catalog.waitForURL(/\/punchout\/v1\/ShowCatalog/)
  return catalog
}

/**
 * In the sandbox's catalog: search, set the quantity of one result and add it to the cart.
 *
 * @example
 * import { BrowserSteps } from "@shoplink/connector-testkit"
 * declare const catalog: BrowserSteps.PageLike
 * const add = () =>
 *   BrowserSteps.addToCart(catalog, { search: "oil filter", productID: "51515", brandID: "WIX", quantity: 2 })
 *
 * @since 0.1.0
 */
export const addToCart = async (
  catalog: PageLike,
  part: { readonly search: string; readonly productID: string; readonly brandID: string; readonly quantity: number }
): Promise<void> => {
  await catalog.fill("input[name=searchTerm]", part.search)
  await Promise.all([catalog.waitForURL(/searchTerm=/), catalog.click("button[type=submit] >> text=Search")])
  const row = catalog.locator(
    `[data-testid=result][data-product-id="${part.productID}"][data-brand-id="${part.brandID}"]`
  )
  await row.locator("input[name=quantity]").fill(String(part.quantity))
  await Promise.all([catalog.waitForLoadState("load"), row.getByTestId("add-to-cart").click()])
  await catalog.getByTestId("cart-line").first().waitFor()
}
