#!/usr/bin/env node
// `pnpm start`: the sample service (ServiceMain of @shoplink/service-pages). With the distributor's
// or Tekmetric's base URL set (and the other variables in the README) it serves the shops onboarded
// in its database (`shoplink shops add … --sms-secret clientId --sms-secret clientSecret`); without
// them, the embedded default (sandbox + fake Tekmetric, two demo shops and their users) in-process.
import { ServiceMain } from "@shoplink/service-pages"
import * as Effect from "effect/Effect"
import { connector, options, sms } from "./app.js"
import { startEmbedded } from "./embedded.js"

ServiceMain.run({
  title: "Tekmetric sample",
  smsVendorName: "Tekmetric (Shoplink sample)",
  sqliteFile: "shoplink-tekmetric-sample.sqlite",
  sms,
  connector,
  options,
  embedded: Effect.map(startEmbedded(), (embedded) => ({
    settings: embedded.settings,
    sms: { baseUrl: embedded.tekmetric.url },
    banner: [
      `  distributor sandbox  ${embedded.sandbox.url}`,
      `  fake Tekmetric       ${embedded.tekmetric.url}`,
      ...embedded.shops.map((shop) =>
        `  shop ${
          shop.id.padEnd(13)
        }${shop.name}: distributor account ${shop.distributor.accountNo} (${shop.distributor.country})`
      ),
      "Sign in as (passwords are new each run):",
      ...embedded.users.map((user) => `  ${user.email.padEnd(26)}password ${user.password}   (${user.shopName})`),
      `  ${
        embedded.operator.email.padEnd(26)
      }password ${embedded.operator.password}   (operator: the delivery console at /console)`
    ]
  }))
})
