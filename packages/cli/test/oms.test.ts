import { expect, layer } from "@effect/vitest"
import { SANDBOX_FIXTURES, SandboxServer } from "@shoplink/sandbox"
import { Effect } from "effect"
import { writeFileSync } from "node:fs"
import { join } from "node:path"
import { parseJson, runCliInProcess, sandboxEnv, sandboxSecrets, scratchDir } from "./support/cli.js"

// Live clock: the CLI runs on the real date (its own runtime, in this process), so the sandbox must agree with it.
layer(SandboxServer.layer(), { excludeTestServices: true })("shoplink oms", (it) => {
  it.effect("account and price: tables by default, wire JSON with --json", () =>
    Effect.gen(function*() {
      const sandbox = yield* SandboxServer
      const env = sandboxEnv(sandbox)
      const account = yield* runCliInProcess(["oms", "account"], env)
      expect(account.code).toBe(0)
      expect(account.stdout).toMatch(/^account\s+100200$/m)
      expect(account.stdout).toMatch(/^name\s+Main Street Auto$/m)

      const price = yield* runCliInProcess(["oms", "price", "51515", "--brand", "WIX", "--qty", "2", "--json"], env)
      expect(price.code).toBe(0)
      const body = parseJson<
        {
          status: { message: { ID: string } }
          items: ReadonlyArray<{ productID: string; warehouses: ReadonlyArray<{ warehouseCode: string }> }>
        }
      >(price.stdout)
      expect(body.status.message.ID).toBe("API0200")
      expect(body.items[0]?.productID).toBe("51515")
      expect(body.items[0]?.warehouses.length).toBeGreaterThan(0)
      for (const secret of sandboxSecrets(sandbox)) expect(account.stdout + price.stdout).not.toContain(secret)

      const assets = yield* runCliInProcess(["oms", "assets", "51515", "--brand", "WIX"], env)
      expect(assets.code).toBe(0)
      expect(assets.stdout).toMatch(/^ASSET\s+TYPE\s+LANGUAGE$/m)
      expect(assets.stdout).toMatch(/^wix_51515\S*\s+\S+\s+EN$/m)
    }))

  it.effect("order create, then order get; an unknown order is a distributor error (exit 4, API0256)", () =>
    Effect.gen(function*() {
      const sandbox = yield* SandboxServer
      const env = sandboxEnv(sandbox)
      const created = yield* runCliInProcess([
        "oms",
        "order",
        "create",
        "--product",
        "51515",
        "--brand",
        "WIX",
        "--qty",
        "1",
        "--po",
        "PO-42",
        "--json"
      ], env)
      expect(created.code).toBe(0)
      const orderNo = parseJson<{ orderHeader: { orderNo: string } }>(created.stdout).orderHeader.orderNo
      expect(orderNo).toMatch(/^\d+$/)

      const got = yield* runCliInProcess(["oms", "order", "get", orderNo], env)
      expect(got.code).toBe(0)
      expect(got.stdout).toMatch(new RegExp(`^order\\s+${orderNo}$`, "m"))
      expect(got.stdout).toMatch(/^P\.O\.\s+PO-42$/m)
      expect(got.stdout).toMatch(/^\s*1\s+51515\s+WIX\s+/m)

      const missing = yield* runCliInProcess(["oms", "order", "get", "99999999"], env)
      expect(missing.code).toBe(4)
      expect(missing.stderr).toMatch(/^error API0256 \(OrderNotFound\): /)
    }))

  it.effect("--env picks the environment: a test key with US_PRD is a usage error before any request (exit 2)", () =>
    Effect.gen(function*() {
      const sandbox = yield* SandboxServer
      const env = { ...sandboxEnv(sandbox), SHOPLINK_OMS_PROD_BASE_URL: sandbox.url }
      const prod = yield* runCliInProcess(["oms", "account", "--env", "US_PRD"], env)
      expect(prod.code).toBe(2)
      expect(prod.stderr).toContain("error (ConfigurationError)")
      expect(prod.stderr).toContain("US_PRD")
      const badEnv = yield* runCliInProcess(["oms", "account", "--env", "EU_QUA"], env)
      expect(badEnv.code).toBe(2)
      const noDates = yield* runCliInProcess(["oms", "invoice", "list"], env)
      expect(noDates.code).toBe(2)
      expect(noDates.stderr).toContain("give --invoice, or both --from and --to")
    }))

  it.effect("drop-ship: API0327 prints the recommended address (exit 4); --accept-recommendation orders with it", () =>
    Effect.gen(function*() {
      const sandbox = yield* SandboxServer
      const env = sandboxEnv(sandbox)
      const cwd = scratchDir()
      writeFileSync(
        join(cwd, "address.json"),
        JSON.stringify({
          name: "Jane Doe",
          phoneNumber: "5125550100",
          ...SANDBOX_FIXTURES.dropShip.recommendable
        })
      )
      const args = ["oms", "order", "create", "--product", "51515", "--brand", "WIX", "--ship-to", "address.json"]
      const refused = yield* runCliInProcess(args, env, { cwd })
      expect(refused.code).toBe(4)
      expect(refused.stderr).toMatch(/^recommended address: Jane Doe, .*TX \d{5}-\d{4}, US$/m)
      expect(refused.stderr).toMatch(/^error API0327 \(DropShipAddressRejected\): /m)
      expect(refused.stderr).toContain("fix: rerun with --accept-recommendation")

      const accepted = yield* runCliInProcess([...args, "--accept-recommendation", "--json"], env, { cwd })
      expect(accepted.code).toBe(0)
      const header =
        parseJson<{ orderHeader: { orderNo: string; shippingAddress?: { zipCode: string } } }>(accepted.stdout)
          .orderHeader
      expect(header.orderNo).toMatch(/^\d+$/)
      expect(accepted.stderr).toMatch(/^API0327: using the recommended address /m)
    }))
})
