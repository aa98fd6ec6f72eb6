/**
 * A browser without a browser, for demos and tests of an integration service's signed-in pages
 * (`ServicePages` of @shoplink/connector): `fetch` with a cookie jar, the `Origin` header a
 * browser sends on a form POST, the CSRF token read from the last page's forms, sign-in, redirects
 * followed on request, and the rows of a page's tables.
 *
 * Outside a vitest run (a demo script), import it as `@shoplink/connector-testkit/WebClient`: the
 * package's root also loads the conformance suite, which needs vitest.
 *
 * @since 0.1.0
 */

/**
 * An answer: status, `location`, headers and body text.
 *
 * @example
 * import type { WebClient } from "@shoplink/connector-testkit"
 * const ok = (response: WebClient.WebResponse) => response.status === 200
 *
 * @since 0.1.0
 */
export interface WebResponse {
  readonly status: number
  readonly location: string | null
  readonly headers: Headers
  readonly text: string
}

/**
 * The value of the first hidden `csrf` field of a page.
 *
 * @example
 * import { WebClient } from "@shoplink/connector-testkit"
 * WebClient.csrfOf('<input type="hidden" name="csrf" value="t0k3n">') // "t0k3n"
 *
 * @since 0.1.0
 */
export const csrfOf = (html: string): string | undefined =>
  /<input type="hidden" name="csrf" value="([^"]*)">/.exec(html)?.[1]

/**
 * The cells of the table rows marked `data-testid="<testId>"`, as text (tags stripped, trimmed).
 *
 * @example
 * import { WebClient } from "@shoplink/connector-testkit"
 * WebClient.tableRows('<tr data-testid="line"><td>OF-1</td><td><b>2</b></td></tr>', "line") // [["OF-1", "2"]]
 *
 * @since 0.1.0
 */
export const tableRows = (html: string, testId: string): ReadonlyArray<ReadonlyArray<string>> =>
  [...html.matchAll(new RegExp(`<tr data-testid="${testId}"[^>]*>([\\s\\S]*?)</tr>`, "g"))].map((m) =>
    [...m[1]!.matchAll(/<td[^>]*>([\s\S]*?)<\/td>/g)].map((c) => c[1]!.replace(/<[^>]+>/g, "").trim())
  )

/**
 * A URL with the value of its `token` parameter (a distributor session token) replaced by
 * `<redacted>`, for transcripts and logs.
 *
 * @example
 * import { WebClient } from "@shoplink/connector-testkit"
 * WebClient.withoutToken("https://parts.example/catalog?token=s3cr3t&vin=1M8") // "https://parts.example/catalog?token=<redacted>&vin=1M8"
 *
 * @since 0.1.0
 */
export const withoutToken = (url: string | URL): string => {
  const parsed = new URL(url)
  const query = [...parsed.searchParams.keys()].map((k) =>
    k === "token" ? "token=<redacted>" : `${k}=${parsed.searchParams.get(k)}`
  ).join("&")
  return `${parsed.origin}${parsed.pathname}${query === "" ? "" : `?${query}`}`
}

/**
 * A scripted browser on one service.
 *
 * @example
 * import { WebClient } from "@shoplink/connector-testkit"
 * const visit = async (browser: WebClient.WebClient) => (await browser.get("/")).status
 *
 * @since 0.1.0
 */
export interface WebClient {
  readonly baseUrl: string
  readonly cookies: Map<string, string>
  /** The CSRF token of the last page that had one. */
  readonly csrf: () => string | undefined
  readonly get: (path: string, headers?: Record<string, string>) => Promise<WebResponse>
  /**
   * A form POST from `origin` (default: the base URL's), with the last page's CSRF token unless
   * `options.csrf` is given (`null`: none).
   */
  readonly post: (
    path: string,
    fields?: Record<string, string>,
    options?: { readonly origin?: string | null; readonly csrf?: string | null }
  ) => Promise<WebResponse>
  /** GET /sign-in, then POST it; resolves with the POST's answer (303 on success). */
  readonly signIn: (email: string, password: string) => Promise<WebResponse>
  /** `response` if it is no redirect, else GETs its `location` on this service, up to `max` times. */
  readonly follow: (response: WebResponse, max?: number) => Promise<WebResponse>
  /** The repair orders the list page (`/`) shows, as their first cells read ("RO 1042"). */
  readonly repairOrders: () => Promise<ReadonlyArray<string>>
  /**
   * Order parts on a repair order as a signed-in user does: the list page (for its CSRF token),
   * then the POST to `/ro/:id/order-parts`; resolves with the catalog URL it redirects to, and
   * rejects with the answer's status and text otherwise.
   */
  readonly orderParts: (repairOrderId: string | number) => Promise<URL>
  /**
   * GETs `path` every `intervalMillis` until `done(text)` holds (deliveries land in the background);
   * rejects after `attempts`.
   */
  readonly waitFor: (
    path: string,
    done: (text: string) => boolean,
    options?: { readonly intervalMillis?: number; readonly attempts?: number }
  ) => Promise<string>
}

/**
 * A scripted browser on the service at `baseUrl`. Redirects are not followed unless asked
 * (`follow`), so a test sees every 303; cookies are kept by name (a `Max-Age=0` or empty value
 * deletes one).
 *
 * @example
 * import { WebClient } from "@shoplink/connector-testkit"
 * const run = async () => {
 *   const ava = WebClient.make("http://127.0.0.1:3000")
 *   await ava.signIn("ava@mainstreet.example", "correct horse battery")
 *   const launched = await ava.post("/ro/ro_1/order-parts")
 *   return launched.location
 * }
 *
 * @since 0.1.0
 */
export const make = (baseUrl: string): WebClient => {
  const cookies = new Map<string, string>()
  let lastCsrf: string | undefined
  const cookieHeader = () => [...cookies].map(([k, v]) => `${k}=${v}`).join("; ")
  const send = async (path: string, init: RequestInit): Promise<WebResponse> => {
    const headers = new Headers(init.headers)
    if (cookies.size > 0) headers.set("cookie", cookieHeader())
    const response = await fetch(new URL(path, baseUrl), { ...init, headers, redirect: "manual" })
    for (const line of response.headers.getSetCookie()) {
      const [pair, ...attributes] = line.split(";")
      const eq = pair!.indexOf("=")
      const name = pair!.slice(0, eq).trim()
      const value = pair!.slice(eq + 1).trim()
      const expired = attributes.some((a) => /^\s*max-age=0\s*$/i.test(a)) || value === ""
      if (expired) cookies.delete(name)
      else cookies.set(name, value)
    }
    const text = await response.text()
    const token = csrfOf(text)
    if (token !== undefined) lastCsrf = token
    return { status: response.status, location: response.headers.get("location"), headers: response.headers, text }
  }
  const client: WebClient = {
    baseUrl,
    cookies,
    csrf: () => lastCsrf,
    get: (path, headers = {}) => send(path, { method: "GET", headers }),
    post: (path, fields = {}, options = {}) => {
      const origin = options.origin === undefined ? new URL(baseUrl).origin : options.origin
      const csrf = options.csrf === undefined ? lastCsrf : options.csrf
      const body = new URLSearchParams({ ...(csrf === null || csrf === undefined ? {} : { csrf }), ...fields })
      return send(path, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded", ...(origin === null ? {} : { origin }) },
        body
      })
    },
    signIn: async (email, password) => {
      await client.get("/sign-in")
      return client.post("/sign-in", { email, password, next: "/" })
    },
    repairOrders: async () => tableRows((await client.get("/")).text, "repair-order").map((cells) => cells[0] ?? ""),
    orderParts: async (repairOrderId) => {
      await client.get("/")
      const launched = await client.post(`/ro/${encodeURIComponent(String(repairOrderId))}/order-parts`)
      if (launched.status !== 303 || launched.location === null) {
        throw new Error(`launch answered ${launched.status}: ${launched.text}`)
      }
      return new URL(launched.location)
    },
    follow: async (response, max = 5) => {
      let current = response
      for (let i = 0; i < max && current.status >= 300 && current.status < 400 && current.location !== null; i++) {
        const target = new URL(current.location, baseUrl)
        if (target.origin !== new URL(baseUrl).origin) break
        current = await client.get(`${target.pathname}${target.search}`)
      }
      return current
    },
    waitFor: async (path, done, options = {}) => {
      const attempts = options.attempts ?? 100
      for (let i = 0;; i++) {
        const page = await client.get(path)
        if (done(page.text)) return page.text
        if (i + 1 >= attempts) {
          throw new Error(`${path}: not as expected after ${attempts} attempts (last status ${page.status})`)
        }
        await new Promise((resolve) => setTimeout(resolve, options.intervalMillis ?? 100))
      }
    }
  }
  return client
}

/**
 * A scripted browser signed in as `email`: rejects with the answer's status unless sign-in
 * redirected (303).
 *
 * @example
 * import { WebClient } from "@shoplink/connector-testkit"
 * const list = async () => {
 *   const ava = await WebClient.signedIn("http://127.0.0.1:3000", "ava@mainstreet.example", "correct horse battery")
 *   return ava.repairOrders()
 * }
 *
 * @since 0.1.0
 */
export const signedIn = async (baseUrl: string, email: string, password: string): Promise<WebClient> => {
  const client = make(baseUrl)
  const answer = await client.signIn(email, password)
  if (answer.status !== 303) throw new Error(`sign-in of ${email} answered ${answer.status}`)
  return client
}
