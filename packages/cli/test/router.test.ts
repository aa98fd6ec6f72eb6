import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { route } from "../src/internal/router.js"
import { runCliInProcess } from "./support/cli.js"

describe("global options anywhere", () => {
  it("before the command they are moved after it, values and all; after it they stay", () => {
    expect(route(["--json", "doctor"])).toMatchObject({ _tag: "Run", path: ["doctor"], args: ["doctor", "--json"] })
    expect(route(["--config", "a.json", "shops", "list"])).toMatchObject({
      _tag: "Run",
      path: ["shops", "list"],
      args: ["shops", "list", "--config", "a.json"]
    })
    expect(route(["shops", "--json", "list"])).toMatchObject({ _tag: "Run", args: ["shops", "list", "--json"] })
    expect(route(["--config=a.json", "doctor", "--json"])).toMatchObject({
      _tag: "Run",
      args: ["doctor", "--json", "--config=a.json"]
    })
    expect(route(["doctor", "--json"])).toMatchObject({ _tag: "Run", args: ["doctor", "--json"] })
    // `--log-level` stays where @effect/cli reads it.
    expect(route(["--log-level", "debug", "--json", "doctor"])).toMatchObject({
      _tag: "Run",
      args: ["--log-level", "debug", "doctor", "--json"]
    })
  })

  it("a moved option is checked as if given after the command", () => {
    expect(route(["--json", "doctor", "--no-such"])).toMatchObject({
      _tag: "Usage",
      message: "unknown option --no-such for `shoplink doctor`"
    })
    expect(route(["--nope", "doctor"])).toMatchObject({
      _tag: "Usage",
      message: "unknown option --nope for `shoplink`"
    })
  })

  it.effect("`shoplink --json doctor` runs doctor and answers JSON, as `doctor --json` does", () =>
    Effect.gen(function*() {
      const before = yield* runCliInProcess(["--json", "doctor"], {})
      const after = yield* runCliInProcess(["doctor", "--json"], {})
      expect(before.code).toBe(after.code)
      expect(before.stderr).not.toContain("UsageError")
      expect(JSON.parse(before.stdout)).toMatchObject({ ok: false })
      expect(JSON.parse(before.stdout)).toEqual(JSON.parse(after.stdout))
    }))
})
