#!/usr/bin/env node
// `pnpm start`: the sample service (ServiceMain of @shoplink/service-pages). With the distributor's
// or Shopmonkey's base URL set (and the other variables in the README) it serves the shops
// onboarded in its database; without them, the embedded default (sandbox + fake Shopmonkey, two
// demo shops and their users) in-process.
import { ServiceMain } from "@shoplink/service-pages"
import * as Effect from "effect/Effect"
import { connector, sms } from "./app.js"
import { startEmbedded } from "./embedded.js"

ServiceMain.run({
  title: "Shopmonkey sample",
  smsVendorName: "Shopmonkey (Shoplink sample)",
  sqliteFile: "shoplink-sample.sqlite",
  sms,
  connector,
  embedded: Effect.map(startEmbedded(), (embedded) => ({
    settings: embedded.settings,
    sms: { baseUrl: embedded.shopmonkey.url },
    banner: [
      `  distributor sandbox  ${embedded.sandbox.url}  (docs: ${embedded.sandbox.openApi.docs})`,
      `  fake Shopmonkey      ${embedded.shopmonkey.url}  (two companies)`,
      ...embedded.shops.map((shop, i) =>
        `  shop ${shop.id.padEnd(13)}${shop.name}: Shopmonkey company ${
          i + 1
        }, distributor account ${shop.distributor.accountNo} (${shop.distributor.country})`
      ),
      "Sign in as (passwords are new each run):",
      ...embedded.users.map((user) => `  ${user.email.padEnd(26)}password ${user.password}   (${user.shopName})`),
      `  ${
        embedded.operator.email.padEnd(26)
      }password ${embedded.operator.password}   (operator: the delivery console at /console)`
    ]
  }))
})
