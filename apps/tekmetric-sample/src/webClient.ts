// A browser without a browser, for the demo and the tests: fetch with a cookie jar, the Origin
// header a browser sends on a form POST, and the CSRF token read from the last page's forms.

export interface WebResponse {
  readonly status: number
  readonly location: string | null
  readonly headers: Headers
  readonly text: string
}

/** The value of the first hidden `csrf` field of a page. */
export const csrfOf = (html: string): string | undefined => /<input type="hidden" name="csrf" value="([^"]*)">/.exec(html)?.[1]

export interface WebClient {
  readonly baseUrl: string
  readonly cookies: Map<string, string>
  /** The CSRF token of the last page that had one. */
  readonly csrf: () => string | undefined
  readonly get: (path: string, headers?: Record<string, string>) => Promise<WebResponse>
  /** A form POST from `origin` (default: the base URL's), with the last page's CSRF token unless `fields.csrf` is given. */
  readonly post: (path: string, fields?: Record<string, string>, options?: { readonly origin?: string | null; readonly csrf?: string | null }) => Promise<WebResponse>
  /** GET /sign-in, then POST it; resolves with the POST's answer (303 on success). */
  readonly signIn: (email: string, password: string) => Promise<WebResponse>
}

export const webClient = (baseUrl: string): WebClient => {
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
    }
  }
  return client
}
