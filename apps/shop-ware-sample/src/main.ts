#!/usr/bin/env node
// `pnpm --filter shop-ware-sample start`: the Shop-Ware integration service (ServiceMain of
// @shoplink/service-pages). With the distributor's or Shop-Ware's base URL set, it runs on the
// environment, for the shops onboarded in its database (`shoplink shops add … --sms-secret partnerId …`)
// and the users of SHOPLINK_USERS_FILE (see the README); with neither, the embedded default
// (embedded.ts): the distributor sandbox and a fake Shop-Ware in-process, with a demo shop and user.
import { ServiceMain } from "@shoplink/service-pages"
import { Effect } from "effect"
import { connector, sms } from "./app.js"
import { startEmbedded } from "./embedded.js"

ServiceMain.run({
  title: "Shop-Ware sample",
  smsVendorName: "Shop-Ware (Shoplink sample)",
  sqliteFile: "shoplink.db",
  sms,
  connector,
  embedded: Effect.map(startEmbedded(), ({ fake, repairOrders, sandbox, settings, shop, user }) => ({
    settings,
    sms: { baseUrl: fake.url },
    banner: [
      `  ${"distributor sandbox".padEnd(24)}${sandbox.url}`,
      `  ${"fake Shop-Ware".padEnd(24)}${fake.url}`,
      `  shop ${shop.id}: ${shop.name}, repair orders ${repairOrders.map((ro) => ro.number).join(", ")}`,
      `Sign in as ${user.email}, password ${user.password} (new each run).`,
      "The whole flow, scripted: pnpm --filter shop-ware-sample demo."
    ]
  }))
})
