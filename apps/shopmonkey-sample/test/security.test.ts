// Sign-in, sessions, CSRF and shop isolation over real loopback HTTP (real SQLite underneath).
import { describe, expect, it } from "@effect/vitest"
import { Effect, Redacted, Schedule } from "effect"
import { createHash } from "node:crypto"
import { FAKE_SHOPMONKEY_FIXTURES, FAKE_SHOPMONKEY_SECOND_COMPANY } from "@shoplink/adapter-shopmonkey/testing"
import { ServicePages, SignIn } from "@shoplink/service-pages"
import { Html } from "@shoplink/http"

const { html, toHtmlString } = Html

import { WebClient } from "@shoplink/connector-testkit"
import { call, PASSWORDS, signedIn, startSample } from "./support.js"

const A = FAKE_SHOPMONKEY_FIXTURES.orders
const B = FAKE_SHOPMONKEY_SECOND_COMPANY.orders

/** What a refused or redirected request must never carry: repair order data, a catalog URL, a session. */
const expectNothingIn = (answer: WebClient.WebResponse, sandboxUrl: string) => {
  for (
    const secret of [
      "1FTEW1E56KFA12345",
      "Dana Reyes",
      "RO 1042",
      "RO 5201",
      "Riley Chen",
      "ShowCatalog",
      sandboxUrl,
      "token="
    ]
  ) {
    expect(answer.text).not.toContain(secret)
    expect(answer.location ?? "").not.toContain(secret)
  }
  expect(answer.headers.getSetCookie().filter((c) => c.startsWith("shoplink_session=") && !/max-age=0/i.test(c)))
    .toEqual([])
}

describe("shopmonkey-sample security", () => {
  it.scoped("every non-public route without a session: GET → 303 to /sign-in, POST → 403; never data, a distributor URL or a session", () =>
    Effect.gen(function*() {
      const { app, embedded } = yield* startSample()
      const anonymous = WebClient.make(app.url)
      // Also with a made-up session cookie.
      const forged = WebClient.make(app.url)
      forged.cookies.set("shoplink_session", "A".repeat(43))
      for (const client of [anonymous, forged]) {
        for (
          const path of [
            "/",
            `/ro/${A.vin.id}`,
            `/ro/${B.vin.id}`,
            "/ro/ord_404",
            "/console",
            "/console/shops",
            "/console/deliveries/any"
          ]
        ) {
          const answer = yield* call(() => client.get(path))
          expect([path, answer.status]).toEqual([path, 303])
          expect(answer.location).toBe(`/sign-in?next=${encodeURIComponent(path)}`)
          expectNothingIn(answer, embedded.sandbox.url)
        }
        for (
          const path of [
            `/ro/${A.vin.id}/order-parts`,
            `/ro/${B.vin.id}/order-parts`,
            "/sign-out",
            "/console/deliveries/any/replay",
            "/console/deliveries/any/discard"
          ]
        ) {
          // With the app's own Origin and a made-up token: still refused.
          const answer = yield* call(() => client.post(path, {}, { csrf: "A".repeat(43) }))
          expect([path, answer.status]).toEqual([path, 403])
          expectNothingIn(answer, embedded.sandbox.url)
        }
      }
      // The runtime's launch API and parts page need a vendor API key (or a signed link).
      expect(
        (yield* call(() => anonymous.post("/shoplink/launch", { shopId: "main-street", repairOrderId: A.vin.id })))
          .status
      ).toBe(401)
      expect((yield* call(() => anonymous.get(`/shoplink/parts?shop=main-street&ro=${A.vin.id}`))).status).toBe(403)
    }))

  it.scoped("a POST with a valid session cookie but a foreign, null or missing Origin, or a missing or wrong CSRF token → 403", () =>
    Effect.gen(function*() {
      const { app, embedded } = yield* startSample()
      const ava = yield* signedIn(app.url, "ava")
      const ben = yield* signedIn(app.url, "ben")
      const path = `/ro/${A.vin.id}/order-parts`
      const refused: Array<[string, () => Promise<WebClient.WebResponse>]> = [
        ["foreign Origin", () => ava.post(path, {}, { origin: "https://evil.example" })],
        ["Origin null", () => ava.post(path, {}, { origin: "null" })],
        ["same host, other port", () => ava.post(path, {}, { origin: "http://127.0.0.1:1" })],
        ["no Origin, no Referer", () => ava.post(path, {}, { origin: null })],
        ["no Origin, foreign Referer", () =>
          fetch(`${app.url}${path}`, {
            method: "POST",
            redirect: "manual",
            headers: {
              cookie: `shoplink_session=${ava.cookies.get("shoplink_session")}`,
              referer: "https://evil.example/x",
              "content-type": "application/x-www-form-urlencoded"
            },
            body: `csrf=${ava.csrf()}`
          }).then(async (r) => ({
            status: r.status,
            location: r.headers.get("location"),
            headers: r.headers,
            text: await r.text()
          }))],
        ["Sec-Fetch-Site cross-site", () =>
          fetch(`${app.url}${path}`, {
            method: "POST",
            redirect: "manual",
            headers: {
              cookie: `shoplink_session=${ava.cookies.get("shoplink_session")}`,
              origin: new URL(app.url).origin,
              "sec-fetch-site": "cross-site",
              "content-type": "application/x-www-form-urlencoded"
            },
            body: `csrf=${ava.csrf()}`
          }).then(async (r) => ({
            status: r.status,
            location: r.headers.get("location"),
            headers: r.headers,
            text: await r.text()
          }))],
        ["missing CSRF token", () => ava.post(path, {}, { csrf: null })],
        ["wrong CSRF token", () => ava.post(path, {}, { csrf: `${ava.csrf()!.slice(0, -1)}x` })],
        ["another session's CSRF token", () => ava.post(path, {}, { csrf: ben.csrf()! })],
        ["sign-out from another origin", () => ava.post("/sign-out", {}, { origin: "https://evil.example" })]
      ]
      for (const [what, send] of refused) {
        const answer = yield* call(send)
        expect([what, answer.status]).toEqual([what, 403])
        expectNothingIn(answer, embedded.sandbox.url)
      }
      // Still signed in (the refused sign-out did nothing), and the real form works.
      const launched = yield* call(() => ava.post(path))
      expect(launched.status).toBe(303)
      expect(launched.location).toContain(`${embedded.sandbox.url}/punchout/v1/ShowCatalog`)
      // A Referer of the app's own origin stands in for a missing Origin.
      const viaReferer = yield* call(() =>
        fetch(`${app.url}${path}`, {
          method: "POST",
          redirect: "manual",
          headers: {
            cookie: `shoplink_session=${ava.cookies.get("shoplink_session")}`,
            referer: `${app.url}/`,
            "content-type": "application/x-www-form-urlencoded"
          },
          body: `csrf=${ava.csrf()}`
        })
      )
      expect(viaReferer.status).toBe(303)
    }))

  it.scoped("sign-in: a wrong password or an unknown email gets the sign-in page with one generic error and no session; the form needs its token and the app's Origin", () =>
    Effect.gen(function*() {
      const { app } = yield* startSample()
      const client = WebClient.make(app.url)
      const form = yield* call(() => client.get("/sign-in"))
      expect(form.status).toBe(200)
      expect(form.text).toContain("action=\"/sign-in\"")
      const generic = "The email or password is incorrect."
      for (
        const [email, password] of [["ava@mainstreet.example", "wrong-password"], [
          "nobody@mainstreet.example",
          PASSWORDS[0]
        ], ["ava@mainstreet.example", PASSWORDS[1]]]
      ) {
        const answer = yield* call(() => client.post("/sign-in", { email: email!, password: password!, next: "/" }))
        expect(answer.status).toBe(401)
        expect(answer.text).toContain(`<p class="error" data-testid="sign-in-error" role="alert">${generic}</p>`)
        expect(answer.text).not.toContain("Main Street Auto")
        expect(client.cookies.has("shoplink_session")).toBe(false)
      }
      // Without the form's token, or from another origin: 403, even with the right password.
      const noToken = yield* call(() =>
        client.post("/sign-in", { email: "ava@mainstreet.example", password: PASSWORDS[0] }, { csrf: "x" })
      )
      expect(noToken.status).toBe(403)
      const foreign = yield* call(() =>
        client.post("/sign-in", { email: "ava@mainstreet.example", password: PASSWORDS[0] }, {
          origin: "https://evil.example"
        })
      )
      expect(foreign.status).toBe(403)
      const fresh = WebClient.make(app.url)
      const noNonce = yield* call(() =>
        fresh.post("/sign-in", { email: "ava@mainstreet.example", password: PASSWORDS[0] }, { csrf: client.csrf()! })
      )
      expect(noNonce.status).toBe(403)
      expect(client.cookies.has("shoplink_session")).toBe(false)
      // The right one, case and spaces aside; back to where the user was going.
      yield* call(() => client.get("/sign-in?next=%2Fro%2Ford_1043"))
      const ok = yield* call(() =>
        client.post("/sign-in", { email: "  AVA@MainStreet.example ", password: PASSWORDS[0], next: "/ro/ord_1043" })
      )
      expect(ok.status).toBe(303)
      expect(ok.location).toBe("/ro/ord_1043")
      // No open redirect.
      const other = WebClient.make(app.url)
      yield* call(() => other.get("/sign-in"))
      const offsite = yield* call(() =>
        other.post("/sign-in", { email: "ben@maplegarage.example", password: PASSWORDS[1], next: "//evil.example/x" })
      )
      expect(offsite.location).toBe("/")
    }))

  it.scoped("shop isolation: each user lists only their shop's repair orders; another shop's RO page and Order parts answer 404", () =>
    Effect.gen(function*() {
      const { app, embedded } = yield* startSample()
      const ava = yield* signedIn(app.url, "ava")
      const ben = yield* signedIn(app.url, "ben")
      const listed = (text: string) =>
        [...text.matchAll(/data-testid="repair-order" data-ro="(\d+)"/g)].map((m) => m[1])
      const avaList = yield* call(() => ava.get("/"))
      const benList = yield* call(() => ben.get("/"))
      expect(listed(avaList.text)).toEqual(["1042", "1043", "1044", "1045", "1046"])
      expect(listed(benList.text)).toEqual(["5201", "5202", "5203"])
      expect(avaList.text).toContain("data-testid=\"shop-name\">Main Street Auto<")
      expect(benList.text).toContain("data-testid=\"shop-name\">Maple Garage<")
      expect(benList.text).not.toContain(A.vin.vehicle.vin)

      for (const [client, foreign] of [[ava, B.vin], [ava, B.plate], [ben, A.vin], [ben, A.plate]] as const) {
        const page = yield* call(() => client.get(`/ro/${foreign.id}`))
        expect(page.status).toBe(404)
        expect(page.text).not.toContain(foreign.customerName)
        yield* call(() => client.get("/"))
        const launch = yield* call(() => client.post(`/ro/${foreign.id}/order-parts`))
        expect(launch.status).toBe(404)
        expect(launch.location).toBeNull()
        expect(launch.text).not.toContain(embedded.sandbox.url)
      }
    }))

  it.scoped("the session cookie: HttpOnly, SameSite=Lax, Path=/, a new 256-bit id per sign-in; Secure and __Host- when the pages are on https", () =>
    Effect.gen(function*() {
      const { app } = yield* startSample()
      const signInOnce = () =>
        call(async () => {
          const client = WebClient.make(app.url)
          await client.get("/sign-in")
          const answer = await client.post("/sign-in", { email: "ava@mainstreet.example", password: PASSWORDS[0] })
          return answer.headers.getSetCookie().find((c) => c.startsWith("shoplink_session="))!
        })
      const first = yield* signInOnce()
      const second = yield* signInOnce()
      const attributes = (cookie: string) => cookie.split(";").slice(1).map((a) => a.trim().toLowerCase())
      expect(attributes(first)).toEqual(expect.arrayContaining(["httponly", "samesite=lax", "path=/", "max-age=28800"]))
      expect(attributes(first)).not.toContain("secure")
      expect(attributes(first).some((a) => a.startsWith("domain="))).toBe(false)
      const idOf = (cookie: string) => cookie.split(";")[0]!.slice("shoplink_session=".length)
      expect(idOf(first)).toMatch(/^[A-Za-z0-9_-]{43}$/)
      expect(idOf(first)).not.toBe(idOf(second))

      // Behind TLS (SHOPLINK_APP_BASE_URL https://…): Secure, and the __Host- prefix.
      const { app: tls } = yield* startSample({ appBaseUrl: "https://parts.shop.example" })
      const client = WebClient.make(tls.url)
      const form = yield* call(() => client.get("/sign-in"))
      expect(form.headers.getSetCookie()[0]).toMatch(/^__Host-shoplink_signin=[^;]+;.*Secure/)
      const answer = yield* call(() =>
        client.post("/sign-in", { email: "ava@mainstreet.example", password: PASSWORDS[0] }, {
          origin: "https://parts.shop.example"
        })
      )
      expect(answer.status).toBe(303)
      const cookie = answer.headers.getSetCookie().find((c) => c.startsWith("__Host-shoplink_session="))!
      expect(attributes(cookie)).toEqual(expect.arrayContaining(["httponly", "samesite=lax", "path=/", "secure"]))
      expect(tls.sessionCookie).toBe("__Host-shoplink_session")
    }))

  it.scoped("sign-out ends the session on the server: the old cookie then gets the sign-in page and 403s", () =>
    Effect.gen(function*() {
      const { app } = yield* startSample()
      const ava = yield* signedIn(app.url, "ava")
      const id = ava.cookies.get("shoplink_session")!
      const csrf = ava.csrf()!
      const out = yield* call(() => ava.post("/sign-out"))
      expect(out.status).toBe(303)
      expect(out.location).toBe("/sign-in")
      expect(out.headers.getSetCookie().find((c) => c.startsWith("shoplink_session="))).toMatch(
        /^shoplink_session=;.*Max-Age=0/
      )
      // Replaying the old cookie (as a copy kept by an attacker would).
      const replay = WebClient.make(app.url)
      replay.cookies.set("shoplink_session", id)
      const page = yield* call(() => replay.get("/"))
      expect(page.status).toBe(303)
      expect(page.location).toBe("/sign-in?next=%2F")
      const launch = yield* call(() => replay.post(`/ro/${A.vin.id}/order-parts`, {}, { csrf }))
      expect(launch.status).toBe(403)
    }))

  it.scoped("/healthz, /readyz and /sign-in are public and carry no data; /metrics needs a vendor key; pages carry a strict CSP, no framing and no-store", () =>
    Effect.gen(function*() {
      const { app } = yield* startSample()
      for (const probe of ["/healthz", "/readyz"]) {
        const health = yield* call(() =>
          fetch(`${app.url}${probe}`).then(async (r) => ({ status: r.status, body: await r.json() }))
        )
        expect(health).toEqual({ status: 200, body: { ok: true } })
      }
      const scrape = yield* call(() =>
        fetch(`${app.url}/metrics`).then(async (r) => ({ status: r.status, body: await r.text() }))
      )
      expect(scrape.status).toBe(401)
      expect(scrape.body).not.toContain("shoplink_")
      const key = yield* app.runtime.apiKeys.create("prometheus")
      const metrics = yield* call(() =>
        fetch(`${app.url}/metrics`, { headers: { authorization: `Bearer ${Redacted.value(key.key)}` } }).then(async (
          r
        ) => ({ status: r.status, body: await r.text() }))
      )
      expect(metrics.status).toBe(200)
      expect(metrics.body).toMatch(/^# (HELP|TYPE) /m)
      const ava = yield* signedIn(app.url, "ava")
      for (const path of ["/", `/ro/${A.vin.id}`, "/sign-in?next=%2F"]) {
        const client = path.startsWith("/sign-in") ? WebClient.make(app.url) : ava
        const page = yield* call(() => client.get(path))
        expect(page.status).toBe(200)
        const csp = page.headers.get("content-security-policy")!
        expect(csp).toContain("default-src 'none'")
        expect(csp).toContain("frame-ancestors 'none'")
        expect(csp).toMatch(/style-src 'sha256-[A-Za-z0-9+/=]+'/)
        expect(csp).not.toContain("unsafe-inline")
        expect(csp).not.toContain("script-src")
        expect(page.text).not.toContain("<script")
        // The one inline stylesheet is the one the policy's hash allows.
        const style = /<style>([\s\S]*?)<\/style>/.exec(page.text)![1]!
        expect(csp).toContain(`style-src 'sha256-${createHash("sha256").update(style).digest("base64")}'`)
        expect(page.headers.get("x-frame-options")).toBe("DENY")
        expect(page.headers.get("x-content-type-options")).toBe("nosniff")
        expect(page.headers.get("cache-control")).toBe("no-store")
        expect(page.headers.get("referrer-policy")).toBe("no-referrer")
      }
    }))

  it("sessions end after their lifetime, after sitting unused, and at removal; ids are 256 random bits and never reused", () => {
    let now = 0
    const sessions = SignIn.makeSessions({ lifetimeMillis: 10_000, idleMillis: 3_000, now: () => now })
    const user = { email: "ava@mainstreet.example", name: "Ava", shopId: "main-street", shopName: "Main Street Auto" }
    const a = sessions.create(user)
    expect(a.id).toMatch(/^[A-Za-z0-9_-]{43}$/)
    expect(a.session.csrfToken).toMatch(/^[A-Za-z0-9_-]{43}$/)
    expect(sessions.create(user).id).not.toBe(a.id)
    for (const t of [2_000, 4_000, 6_000, 8_000]) {
      now = t
      expect(sessions.get(a.id)?.shopId).toBe("main-street")
    }
    now = 10_000
    expect(sessions.get(a.id)).toBeUndefined()
    now = 0
    const b = sessions.create(user)
    now = 3_000
    expect(sessions.get(b.id)).toBeUndefined()
    const c = sessions.create(user)
    sessions.remove(c.id)
    expect(sessions.get(c.id)).toBeUndefined()
    expect(sessions.get("not-a-session-id")).toBeUndefined()
  })

  it("passwords: scrypt hashes with a random salt; a malformed or over-costly hash never matches", async () => {
    const hash = await SignIn.hashPassword("correct horse battery staple")
    // OWASP's cost: N=2^17, r=8, p=1.
    expect(hash).toMatch(/^scrypt:131072:8:1:[A-Za-z0-9_-]{22}:[A-Za-z0-9_-]{43}$/)
    expect(await SignIn.hashPassword("correct horse battery staple")).not.toBe(hash)
    expect(await SignIn.verifyPassword("correct horse battery staple", hash)).toBe(true)
    expect(await SignIn.verifyPassword("correct horse battery stapl", hash)).toBe(false)
    expect(await SignIn.verifyPassword("x", "plain-text")).toBe(false)
    expect(await SignIn.verifyPassword("x", hash.replace("scrypt:131072:", "scrypt:4194304:"))).toBe(false)
  })

  it("pages escape what they show", () => {
    const viewer = { name: "<b>Ava</b>", email: "ava@x", shopName: "Main & Co", csrfToken: "t\"><script>" }
    const page = ServicePages.repairOrdersPage(viewer, [{
      id: "ord_\"x",
      number: "1<2",
      vehicle: "<img src=x onerror=alert(1)>",
      customer: "O'Brien",
      vehicleHint: undefined
    }])
    expect(page).not.toContain("<img src=x")
    expect(page).not.toContain("<b>Ava</b>")
    expect(page).not.toContain("<script>")
    expect(page).toContain("&lt;img src=x onerror=alert(1)&gt;")
    expect(page).toContain("O&#39;Brien")
    expect(page).toContain("Main &amp; Co")
    expect(toHtmlString(html`<p>${"<x>"}</p>`)).toBe("<p>&lt;x&gt;</p>")
  })

  // Live: the runtime's worker must run on the real clock to apply the delivery.
  it.live("SHOPLINK_PUBLIC_PORT: webhooks and the callback on their own listener, the pages on the main one, parts still land on the RO", () =>
    Effect.scoped(Effect.gen(function*() {
      const { app, embedded } = yield* startSample({ publicPort: 0 })
      expect(app.publicUrl).not.toBe(app.url)
      expect(app.publicBaseUrl).toBe(app.publicUrl)
      expect(app.appBaseUrl).toBe(app.url)
      // The public listener serves no page, not even sign-in.
      for (const path of ["/", "/sign-in", `/ro/${A.vin.id}`]) {
        expect((yield* call(() => fetch(`${app.publicUrl}${path}`, { redirect: "manual" }))).status).toBe(404)
      }
      expect((yield* call(() => fetch(`${app.publicUrl}/healthz`))).status).toBe(200)
      expect((yield* call(() => fetch(`${app.publicUrl}/readyz`))).status).toBe(200)
      expect((yield* call(() => fetch(`${app.publicUrl}/metrics`))).status).toBe(404)
      const ava = yield* signedIn(app.url, "ava")
      const launched = yield* call(() => ava.post(`/ro/${A.vin.id}/order-parts`))
      const token = new URL(launched.location!).searchParams.get("token")!
      yield* embedded.sandbox.admin.driver.addToCart(token, { productID: "51515", brandID: "WIX", quantity: 1 })
      const pressed = yield* embedded.sandbox.admin.driver.press(token, "exportAndSubmit")
      const [delivery] = yield* embedded.sandbox.admin.awaitDeliveries(1)
      expect(delivery!.url.startsWith(`${app.publicUrl}/shoplink/webhooks/`)).toBe(true)
      expect(delivery!.status).toBe(200)
      expect(pressed.redirect!.startsWith(`${app.publicUrl}/shoplink/callback/`)).toBe(true)
      // The main listener has no webhook route.
      expect(
        (yield* call(() => fetch(delivery!.url.replace(app.publicUrl, app.url), { method: "POST", body: "{}" }))).status
      ).toBe(404)
      const roPage = yield* call(() => ava.get(`/ro/${A.vin.id}`)).pipe(
        Effect.filterOrFail((page) => page.text.includes("data-testid=\"ordered-line\"")),
        Effect.retry({ times: 100, schedule: Schedule.spaced("100 millis") }),
        Effect.orDie
      )
      expect(roPage.text).toContain("51515")
    })))
})
