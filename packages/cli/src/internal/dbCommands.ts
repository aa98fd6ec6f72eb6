// `shoplink db migrate`: the connector's database migrations as a deploy step (the service also
// applies them when it starts).
import { Migrations } from "@shoplink/connector-runtime"
import * as Effect from "effect/Effect"
import { json, out } from "./output.js"
import { migrate as applyMigrations, service } from "./service.js"
import type * as Spec from "./spec.js"

export const migrate = (args: Spec.ArgsOf<typeof Spec.dbMigrate>): Effect.Effect<void, unknown> =>
  Effect.gen(function*() {
    const db = yield* service(args, "create")
    const applied = yield* applyMigrations(db)
    if (args.json) {
      return yield* json({
        database: db.file,
        version: Migrations.latest,
        applied: applied.map(([version, name]) => ({ version, name }))
      })
    }
    yield* out(
      applied.length === 0
        ? `${db.file} is up to date (version ${Migrations.latest})`
        : `${db.file}: applied ${
          applied.map(([version, name]) => `${version} ${name}`).join(", ")
        }; now at version ${Migrations.latest}`
    )
  })
