// `shoplink doctor`: configuration, reachability and credentials, one line per check with the fix.
import { OrderManagementClient } from "@shoplink/order-management"
import { PunchoutClient } from "@shoplink/punchout"
import * as DateTime from "effect/DateTime"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Option from "effect/Option"
import { ExitCode, exitCodeOf, isConfigurationError } from "../ExitCode.js"
import * as ShoplinkConfig from "../ShoplinkConfig.js"
import {
  omsCustomer,
  omsEnvironment,
  omsLayer,
  punchoutCustomer,
  punchoutLayer,
  sessionOptions,
  today
} from "./common.js"
import { describeError, err, json, out } from "./output.js"
import type * as Spec from "./spec.js"

type Status = "pass" | "fail" | "skip"

interface Check {
  readonly name: string
  readonly status: Status
  readonly detail: string
  readonly fix?: string
  readonly exitCode?: number
}

const pass = (name: string, detail: string): Check => ({ name, status: "pass", detail })
const skip = (name: string, detail: string): Check => ({ name, status: "skip", detail })
const fail = (name: string, detail: string, fix: string, exitCode: number): Check => ({
  name,
  status: "fail",
  detail,
  fix,
  exitCode
})

const settingCheck = (settings: ShoplinkConfig.Settings, key: ShoplinkConfig.SettingKey): Check => {
  const found = settings.values[key]
  const definition = ShoplinkConfig.SETTINGS[key]
  const problem = ShoplinkConfig.problem(settings, key)
  if (Option.isSome(problem)) {
    // The check is named after the variable already: show what follows "VAR (what it is for)".
    const detail = problem.value.slice(`${definition.env} (${definition.description}) `.length)
    return fail(definition.env, detail, ShoplinkConfig.howToSet(key), ExitCode.Usage)
  }
  return pass(definition.env, `${ShoplinkConfig.display(key, found!.value)} (${found!.source})`)
}

const isTransport = (error: unknown) => exitCodeOf(error) === ExitCode.Transport

const errorDetail = (error: unknown) => {
  const d = describeError(error)
  return d.id !== undefined ? `${d.id} ${d.message}` : d.message
}

const punchoutChecks = (settings: ShoplinkConfig.Settings): Effect.Effect<ReadonlyArray<Check>> =>
  Effect.gen(function*() {
    const reach = "Punchout API reachable"
    const auth = "Punchout vendor key + customer credentials"
    const prepared = yield* Effect.either(Effect.all([punchoutLayer(settings), punchoutCustomer(settings)]))
    if (Either.isLeft(prepared)) {
      return [skip(reach, `needs configuration: ${prepared.left.message}`), skip(auth, "needs configuration")]
    }
    const [layer, customer] = prepared.right
    const baseUrl = settings.values.punchoutBaseUrl?.value ?? ""
    const result = yield* Effect.either(
      Effect.flatMap(
        PunchoutClient.PunchoutClient,
        (client) => client.createSession(customer, sessionOptions(settings))
      ).pipe(
        Effect.provide(layer)
      )
    )
    if (Either.isRight(result)) {
      return [
        pass(reach, baseUrl),
        pass(
          auth,
          `session created for account ${customer.accountNo} (expires ${DateTime.formatIso(result.right.expiresAt)})`
        )
      ]
    }
    const error = result.left
    if (isConfigurationError(error)) {
      return [
        fail(
          reach,
          errorDetail(error),
          `check ${ShoplinkConfig.SETTINGS.punchoutBaseUrl.env} and ${ShoplinkConfig.SETTINGS.vendorApiKey.env}`,
          ExitCode.Usage
        ),
        skip(auth, "configuration error")
      ]
    }
    if (isTransport(error)) {
      return [
        fail(
          reach,
          `${baseUrl}: ${errorDetail(error)}`,
          `check ${ShoplinkConfig.SETTINGS.punchoutBaseUrl.env} and your network`,
          ExitCode.Transport
        ),
        skip(auth, "API not reachable")
      ]
    }
    const code = exitCodeOf(error)
    return [
      pass(reach, baseUrl),
      fail(
        auth,
        errorDetail(error),
        code === ExitCode.Auth
          ? `the vendor key or the customer's account number, username, country or token was refused (the API does not say which): check ${ShoplinkConfig.SETTINGS.vendorApiKey.env} and ${
            ShoplinkConfig.SETTINGS.customerAccountNo.env.replace(/_ACCOUNT_NO$/, "_*")
          }`
          : "see the message ID in the Punchout spec's message table",
        code
      )
    ]
  })

const omsChecks = (
  settings: ShoplinkConfig.Settings,
  env: Option.Option<"US_QUA" | "CA_QUA" | "US_PRD" | "CA_PRD">
): Effect.Effect<ReadonlyArray<Check>> =>
  Effect.gen(function*() {
    const reach = "Order Management API reachable"
    const key = "Order Management API key"
    const token = "customer token (accountDetails)"
    const prepared = yield* Effect.either(
      Effect.gen(function*() {
        const environment = yield* omsEnvironment(settings, env)
        return { environment, layer: yield* omsLayer(settings, environment), customer: yield* omsCustomer(settings) }
      })
    )
    if (Either.isLeft(prepared)) {
      const why = `needs configuration: ${prepared.left.message}`
      return [skip(reach, why), skip(key, "needs configuration"), skip(token, "needs configuration")]
    }
    const { customer, environment, layer } = prepared.right
    const submitDate = yield* today
    const result = yield* Effect.either(
      Effect.flatMap(OrderManagementClient.OrderManagementClient, (client) =>
        client.forCustomer(customer).accountDetails({ submitDate })).pipe(Effect.provide(layer))
    )
    const where = `${environment}`
    if (Either.isRight(result)) {
      const name = result.right.accountName
      return [
        pass(reach, where),
        pass(key, `accepted for ${environment}`),
        pass(token, `account ${result.right.customerAccountNo}${name ? ` (${name})` : ""}`)
      ]
    }
    const error = result.left
    const tag = error._tag
    if (isConfigurationError(error)) {
      return [
        fail(
          reach,
          errorDetail(error),
          "make the key's tier match the environment (test keys for *_QUA, production keys for *_PRD)",
          ExitCode.Usage
        ),
        skip(key, "configuration error"),
        skip(token, "configuration error")
      ]
    }
    if (isTransport(error)) {
      const host = environment.endsWith("_PRD") ? "omsProdBaseUrl" : "omsTestBaseUrl"
      return [
        fail(
          reach,
          `${where}: ${errorDetail(error)}`,
          `check ${ShoplinkConfig.SETTINGS[host].env} and your network`,
          ExitCode.Transport
        ),
        skip(key, "API not reachable"),
        skip(token, "API not reachable")
      ]
    }
    if (tag === "InvalidApiKey" || tag === "ApiKeyExpired") {
      return [
        pass(reach, where),
        fail(
          key,
          errorDetail(error),
          `check ${ShoplinkConfig.SETTINGS.omsApiKey.env} (a ${
            environment.endsWith("_PRD") ? "production" : "test"
          } key, not expired)`,
          ExitCode.Auth
        ),
        skip(token, "API key refused")
      ]
    }
    const code = exitCodeOf(error)
    return [
      pass(reach, where),
      pass(key, `accepted for ${environment}`),
      fail(
        token,
        errorDetail(error),
        code === ExitCode.Auth
          ? `check ${ShoplinkConfig.SETTINGS.customerApiToken.env} and ${ShoplinkConfig.SETTINGS.customerAccountNo.env}, and that the token is enabled for ${environment}`
          : "see the message ID in the Order Management spec's message table",
        code
      )
    ]
  })

const mark: Record<Status, string> = { pass: "PASS", fail: "FAIL", skip: "SKIP" }

const configFileCheck = (settings: ShoplinkConfig.Settings): Check =>
  settings.configFile !== undefined
    ? pass("config file", settings.configFile)
    : skip("config file", `none (./${ShoplinkConfig.DEFAULT_CONFIG_FILE} not found; using environment variables)`)

export const doctor = (args: Spec.ArgsOf<typeof Spec.doctor>): Effect.Effect<void, unknown> =>
  Effect.gen(function*() {
    const loaded = yield* Effect.either(ShoplinkConfig.load(Option.getOrUndefined(args.config), process.env))
    const checks: Array<Check> = []
    if (Either.isLeft(loaded)) {
      checks.push(fail("config file", loaded.left.message, loaded.left.fix, ExitCode.Usage))
    } else {
      const settings = loaded.right
      checks.push(configFileCheck(settings))
      const tierHost = Option.getOrElse(
          Option.orElse(args.env, () => Option.fromNullable(settings.values.omsEnvironment?.value)),
          () => "US_QUA"
        ).endsWith("_PRD")
        ? "omsProdBaseUrl"
        : "omsTestBaseUrl"
      const keys: ReadonlyArray<ShoplinkConfig.SettingKey> = [
        "punchoutBaseUrl",
        "vendorApiKey",
        "customerAccountNo",
        "customerUsername",
        "customerCountry",
        "customerApiToken",
        ...(Option.isSome(args.env) ? [] : ["omsEnvironment" as const]),
        "omsApiKey",
        tierHost
      ]
      for (const k of keys) checks.push(settingCheck(settings, k))
      // Settings this run does not need are shown only when wrong on their face (a bad webhook URL),
      // except the service database's, which are shown whenever they are set.
      const service: ReadonlyArray<ShoplinkConfig.SettingKey> = ["database", "secretKeys"]
      for (const k of Object.keys(ShoplinkConfig.SETTINGS) as Array<ShoplinkConfig.SettingKey>) {
        if (
          !keys.includes(k) && settings.values[k] !== undefined &&
          (service.includes(k) || Option.isSome(ShoplinkConfig.problem(settings, k)))
        ) {
          checks.push(settingCheck(settings, k))
        }
      }
      checks.push(...yield* punchoutChecks(settings))
      checks.push(...yield* omsChecks(settings, args.env))
    }
    const failed = checks.filter((c) => c.status === "fail")
    if (args.json) {
      yield* json({ ok: failed.length === 0, checks })
    } else {
      for (const c of checks) {
        yield* out(`${mark[c.status]}  ${c.name}: ${c.detail}`)
        if (c.fix !== undefined) yield* out(`      fix: ${c.fix}`)
      }
      yield* out("")
      yield* out(failed.length === 0 ? "All checks passed." : `${failed.length} check(s) failed.`)
    }
    const first = failed[0]
    if (first !== undefined) {
      if (!args.json) yield* err(`doctor: ${failed.length} check(s) failed; first: ${first.name}`)
      return yield* Effect.fail(new DoctorFailed({ exitCode: first.exitCode ?? ExitCode.Failure }))
    }
  })

/** Doctor's failures are already printed; this only carries the exit code. */
export class DoctorFailed {
  readonly _tag = "DoctorFailed"
  readonly exitCode: number
  constructor(props: { readonly exitCode: number }) {
    this.exitCode = props.exitCode
  }
}
