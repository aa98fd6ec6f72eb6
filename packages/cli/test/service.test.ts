// `shoplink shops | secrets | keys` against real SQLite files: the built bin for `shops add` (it reads
// stdin), the same program in-process for the rest (see support/cli.ts),
// with the stores of @shoplink/connector read back in-process to check what the CLI wrote.
import { describe, expect, it } from "@effect/vitest"
import { ApiKeys, SecretBox, ShopStore, Storage } from "@shoplink/connector-runtime"
import { Effect, Either, Layer, Redacted } from "effect"
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { invalidKeyring } from "../src/internal/settingsTable.js"
import * as ShoplinkConfig from "../src/ShoplinkConfig.js"
import { parseJson, runCli, runCliInProcess, scratchDir } from "./support/cli.js"

const TOKEN = "distributor-token-must-not-be-stored-8841"
const SMS_KEY = "shopmonkey-key-must-not-be-stored-2290"
const secretsJson = JSON.stringify({ apiToken: TOKEN, sms: { apiKey: SMS_KEY } })

const keyOf = (id: string) => SecretBox.generateKey(id)

/** A fresh folder, a database path in it (not yet created) and a keyring of one key. */
const setup = () => {
  const dir = scratchDir()
  const file = join(dir, "shoplink.db")
  const k1 = keyOf("k1")
  return { dir, file, k1, env: { SHOPLINK_DATABASE_URL: file, SHOPLINK_SECRET_KEYS: k1 } }
}

const addArgs = (
  id: string
) => [
  "shops",
  "add",
  id,
  "--name",
  "Main Street Auto",
  "--account",
  "100200",
  "--username",
  "parts@mainstreet.example",
  "--country",
  "US"
]

/** Every byte of the database and its companions (-wal, -shm), as latin1 text for searching. */
const databaseBytes = (dir: string) =>
  readdirSync(dir)
    .filter((f) => f.startsWith("shoplink.db"))
    .map((f) => readFileSync(join(dir, f)).toString("latin1"))
    .join("")

const noSecrets = (text: string) => {
  expect(text).not.toContain(TOKEN)
  expect(text).not.toContain(SMS_KEY)
}

/** The shop store on `file` with `keyring`, in this process. */
const withStore = <A, E>(file: string, keyring: string, f: (store: ShopStore.Operations) => Effect.Effect<A, E>) =>
  Effect.flatMap(ShopStore.ShopStore, f).pipe(
    Effect.provide(
      ShopStore.layerSql.pipe(
        Layer.provide(Storage.sqlite(file)),
        Layer.provide(SecretBox.layer(Either.getOrThrow(SecretBox.parseKeyring(keyring))))
      )
    )
  )

describe("shoplink shops", () => {
  it.effect(
    "add → list (text and --json) → remove, on a 0600 SQLite file that holds no secret in the clear",
    () =>
      Effect.gen(function*() {
        const { dir, env, file } = setup()
        const added = yield* runCli([...addArgs("shop_1"), "--sms-secret", "apiKey"], env, { stdin: secretsJson })
        expect(added.stderr).toBe("")
        expect(added.code).toBe(0)
        expect(added.stdout).toContain("added shop shop_1")
        expect(added.stdout).toMatch(/sealed with +key k1/)
        noSecrets(added.stdout)

        expect(statSync(file).mode & 0o777).toBe(0o600)
        noSecrets(databaseBytes(dir))

        const text = yield* runCliInProcess(["shops", "list"], env)
        expect(text.code).toBe(0)
        expect(text.stdout).toMatch(/^ID +NAME +ACCOUNT +USERNAME +COUNTRY +STATUS +SMS SECRETS +REVOKED$/m)
        expect(text.stdout).toMatch(
          /^shop_1 +Main Street Auto +100200 +parts@mainstreet\.example +US +active +apiKey$/m
        )
        noSecrets(text.stdout)

        const listed = yield* runCliInProcess(["shops", "list", "--json"], env)
        expect(listed.code).toBe(0)
        noSecrets(listed.stdout)
        expect(parseJson(listed.stdout)).toEqual([
          expect.objectContaining({
            id: "shop_1",
            name: "Main Street Auto",
            distributor: { accountNo: "100200", username: "parts@mainstreet.example", country: "US" },
            smsSecrets: ["apiKey"],
            status: "active",
            revoked: null
          })
        ])

        // A revoked shop shows why and when.
        yield* withStore(file, env.SHOPLINK_SECRET_KEYS, (store) =>
          store.markRevoked("shop_1", "API token refused (401)"))
        const revoked = parseJson<Array<{ status: string; revoked: { reason: string; at: string } }>>(
          (yield* runCliInProcess(["shops", "list", "--json"], env)).stdout
        )
        expect(revoked[0]).toMatchObject({ status: "revoked", revoked: { reason: "API token refused (401)" } })
        expect(Date.parse(revoked[0]!.revoked.at)).not.toBeNaN()
        expect((yield* runCliInProcess(["shops", "list"], env)).stdout).toMatch(/revoked .*API token refused \(401\)/)

        const removed = yield* runCliInProcess(["shops", "remove", "shop_1"], env)
        expect(removed.code).toBe(0)
        expect(removed.stdout).toContain("removed shop shop_1")
        expect(parseJson((yield* runCliInProcess(["shops", "list", "--json"], env)).stdout)).toEqual([])

        const again = yield* runCliInProcess(["shops", "remove", "shop_1", "--json"], env)
        expect(again.code).toBe(1)
        expect(parseJson<{ error: unknown }>(again.stderr).error).toMatchObject({
          exitCode: 1,
          tag: "ShopNotFound",
          message: "no shop shop_1"
        })
      }),
    { timeout: 180_000 }
  )

  it.effect("secrets come from stdin or --secrets-file, never from argv", () =>
    Effect.gen(function*() {
      const { dir, env, file } = setup()
      // There is no option that takes a secret.
      for (const flag of ["--api-token", "--token", "--secret"]) {
        const refused = yield* runCli([...addArgs("shop_0"), flag, TOKEN], env)
        expect(refused.code, flag).toBe(2)
        expect(refused.stderr).toContain(`unknown option ${flag}`)
      }
      // A value where a name belongs is refused without being echoed.
      const value = yield* runCli([...addArgs("shop_0"), "--sms-secret", `apiKey=${SMS_KEY}`], env, {
        stdin: secretsJson
      })
      expect(value.code).toBe(2)
      expect(value.stderr).toContain("--sms-secret takes a secret's name")
      noSecrets(value.stderr)
      expect(existsSync(file)).toBe(false)

      const secretsFile = join(dir, "shop_2.json")
      writeFileSync(secretsFile, secretsJson, { mode: 0o600 })
      const fromFile = yield* runCli([...addArgs("shop_2"), "--secrets-file", secretsFile], env)
      expect(fromFile.stderr).toBe("")
      expect(fromFile.code).toBe(0)
      const dash = yield* runCli([...addArgs("shop_3"), "--secrets-file", "-"], env, { stdin: secretsJson })
      expect(dash.code).toBe(0)
      // Without --sms-secret every secret under "sms" is stored; with it, exactly those named.
      const tokenOnly = yield* runCli([...addArgs("shop_4")], env, { stdin: JSON.stringify({ apiToken: TOKEN }) })
      expect(tokenOnly.code).toBe(0)
      const missing = yield* runCli([...addArgs("shop_5"), "--sms-secret", "apiKey"], env, {
        stdin: JSON.stringify({ apiToken: TOKEN })
      })
      expect(missing.code).toBe(2)
      expect(missing.stderr.trim()).toBe("error (InvalidShop): sms.apiKey is named by --sms-secret but not given")

      for (const id of ["shop_2", "shop_3"]) {
        const credentials = yield* withStore(file, env.SHOPLINK_SECRET_KEYS, (store) =>
          Effect.all([store.customerCredentials(id), store.smsCredentials(id)]))
        expect(Redacted.value(credentials[0].apiToken)).toBe(TOKEN)
        expect(Redacted.value(credentials[1]["apiKey"]!)).toBe(SMS_KEY)
      }
      const listed = parseJson<Array<{ id: string; smsSecrets: Array<string> }>>(
        (yield* runCliInProcess(["shops", "list", "--json"], env)).stdout
      )
      expect(listed.map((s) => [s.id, s.smsSecrets])).toEqual([["shop_2", ["apiKey"]], ["shop_3", ["apiKey"]], [
        "shop_4",
        []
      ]])

      // A readable secrets file is used, with a warning; a missing one, nothing given, and bad JSON are refused.
      const loose = join(dir, "loose.json")
      writeFileSync(loose, secretsJson, { mode: 0o644 })
      const warned = yield* runCli([...addArgs("shop_6"), "--secrets-file", loose], env)
      expect(warned.code).toBe(0)
      expect(warned.stderr).toContain(`warning: secrets file ${loose} can be read by others (mode 0644)`)
      const notFound = yield* runCli([...addArgs("shop_7"), "--secrets-file", join(dir, "nope.json")], env)
      expect(notFound.code).toBe(2)
      expect(notFound.stderr).toContain("secrets file not found")
      const nothing = yield* runCli(addArgs("shop_7"), env)
      expect(nothing.code).toBe(2)
      expect(nothing.stderr).toContain("no secrets given: stdin is empty")
      const broken = yield* runCli(addArgs("shop_7"), env, { stdin: `{"apiToken": "${TOKEN}"` })
      expect(broken.code).toBe(2)
      expect(broken.stderr).toContain("stdin is not valid JSON")
      noSecrets(broken.stderr)
    }), { timeout: 240_000 })

  it.effect(
    "an empty token, a bad id or a bad country is exit 2 with one line, and the database is unchanged",
    () =>
      Effect.gen(function*() {
        const { env, file } = setup()
        // Refused before the database is opened: not even created.
        const first = yield* runCli(addArgs("shop_1"), env, { stdin: JSON.stringify({ apiToken: "" }) })
        expect(first.code).toBe(2)
        expect(first.stdout).toBe("")
        expect(first.stderr).toBe("error (InvalidShop): distributor.apiToken must not be empty\n")
        expect(existsSync(file)).toBe(false)

        expect((yield* runCli(addArgs("shop_1"), env, { stdin: secretsJson })).code).toBe(0)
        const before = readFileSync(file)
        const empty = yield* runCli([...addArgs("shop_1"), "--replace"], env, {
          stdin: JSON.stringify({ apiToken: "  ", sms: {} })
        })
        expect(empty.code).toBe(2)
        expect(empty.stderr).toBe("error (InvalidShop): distributor.apiToken must not be empty\n")
        const badId = yield* runCli(addArgs("shop 2!"), env, { stdin: secretsJson })
        expect(badId.code).toBe(2)
        expect(badId.stderr).toBe("error (InvalidShop): id must be 1 to 64 letters, digits, '.', '_' or '-'\n")
        const json = yield* runCli([...addArgs("shop_2"), "--json"], env, { stdin: JSON.stringify({ apiToken: "" }) })
        expect(json.code).toBe(2)
        expect(parseJson<{ error: unknown }>(json.stderr).error).toEqual({
          exitCode: 2,
          tag: "InvalidShop",
          message: "distributor.apiToken must not be empty"
        })
        // Every wrong field in one answer, not one per try.
        const several = yield* runCli([...addArgs("shop 3!"), "--sms-secret", "apiKey"], env, {
          stdin: JSON.stringify({ apiToken: "", sms: { apiKey: " " } })
        })
        expect(several.code).toBe(2)
        expect(several.stderr.split("\n")[0]).toBe(
          "error (UsageError): 3 fields to fix: id must be 1 to 64 letters, digits, '.', '_' or '-'; distributor.apiToken must not be empty; sms.apiKey must not be empty"
        )
        const country = yield* runCli([...addArgs("shop_2").slice(0, -1), "MX"], env, { stdin: secretsJson })
        expect(country.code).toBe(2)
        expect(country.stderr).toContain("--country: 'MX' is not one of US, US QA, CA, CA QA")
        expect(readFileSync(file).equals(before)).toBe(true)

        // The shop still has its first token.
        const credentials = yield* withStore(
          file,
          env.SHOPLINK_SECRET_KEYS,
          (store) => store.customerCredentials("shop_1")
        )
        expect(Redacted.value(credentials.apiToken)).toBe(TOKEN)
        const exists = yield* runCli(addArgs("shop_1"), env, { stdin: secretsJson })
        expect(exists.code).toBe(1)
        expect(exists.stderr).toContain("error (ShopExists)")
        expect(exists.stderr).toContain("fix: pass --replace")
      }),
    { timeout: 180_000 }
  )

  it.effect(
    "a missing or malformed SHOPLINK_SECRET_KEYS is exit 2 naming it, never its value",
    () =>
      Effect.gen(function*() {
        const { env, file } = setup()
        const missing = yield* runCli(addArgs("shop_1"), { SHOPLINK_DATABASE_URL: file }, { stdin: secretsJson })
        expect(missing.code).toBe(2)
        expect(missing.stderr).toContain(
          "error (ConfigProblem): SHOPLINK_SECRET_KEYS (the keyring sealing the service's stored secrets: id:base64key[,…], the first seals) is missing"
        )
        expect(missing.stderr).toContain("`shoplink secrets generate-key` makes a key")
        expect(existsSync(file)).toBe(false)

        const short = `k1:${Buffer.alloc(16, 7).toString("base64")}`
        for (
          const [keys, problem] of [
            [short, "is invalid: key k1 is 16 bytes; AES-256 needs 32"],
            ["no-colon-here", "is invalid: entry 1 must read id:base64key"],
            [`${env.SHOPLINK_SECRET_KEYS},${env.SHOPLINK_SECRET_KEYS}`, "is invalid: key id k1 appears twice"]
          ] as const
        ) {
          // Every command that seals or opens secrets checks it; each malformation is named.
          const commands = keys === short
            ? [["shops", "list"], ["secrets", "rotate"], addArgs("shop_1")]
            : [["shops", "list"]]
          for (const args of commands) {
            const result = yield* runCli(args, { SHOPLINK_DATABASE_URL: file, SHOPLINK_SECRET_KEYS: keys }, {
              stdin: secretsJson
            })
            expect(result.code, args.join(" ")).toBe(2)
            expect(result.stderr).toContain("SHOPLINK_SECRET_KEYS (the keyring sealing the service's stored secrets")
            expect(result.stderr).toContain(problem)
            expect(result.stderr).not.toContain(keys.includes(":") ? keys.split(":")[1]!.slice(0, 12) : keys)
          }
        }
        // Keys commands do not seal anything, so they do not need it.
        expect((yield* runCliInProcess(["keys", "create", "backend"], { SHOPLINK_DATABASE_URL: file })).code).toBe(0)
      }),
    { timeout: 240_000 }
  )

  it.effect(
    "list, remove and rotate refuse a database file that does not exist, and do not create it",
    () =>
      Effect.gen(function*() {
        const { dir, env, file } = setup()
        for (
          const args of [["shops", "list"], ["shops", "remove", "shop_1"], ["secrets", "rotate"], ["keys", "list"], [
            "keys",
            "revoke",
            "abc"
          ]]
        ) {
          const result = yield* runCliInProcess(args, env)
          expect(result.code, args.join(" ")).toBe(2)
          expect(result.stderr).toContain(
            `SHOPLINK_DATABASE_URL (the connector service's database, a SQLite file or a postgres:// URL: its shops, sealed secrets, API keys and inbox) names a file that does not exist: ${file}`
          )
        }
        const option = yield* runCliInProcess(["shops", "list", "--database", join(dir, "typo.db")], env)
        expect(option.code).toBe(2)
        expect(option.stderr).toContain(
          `--database (the connector service's database, a SQLite file or a postgres:// URL`
        )
        expect(option.stderr).toContain(`names a file that does not exist: ${join(dir, "typo.db")}`)
        const none = yield* runCliInProcess(["shops", "list"], { SHOPLINK_SECRET_KEYS: env.SHOPLINK_SECRET_KEYS })
        expect(none.code).toBe(2)
        expect(none.stderr).toContain(
          "SHOPLINK_DATABASE_URL (the connector service's database, a SQLite file or a postgres:// URL: its shops, sealed secrets, API keys and inbox) is missing"
        )
        expect(none.stderr).toContain("fix: pass --database <file> or set SHOPLINK_DATABASE_URL")
        expect(readdirSync(dir)).toEqual([])

        // --database wins over SHOPLINK_DATABASE_URL.
        const other = join(dir, "other.db")
        expect((yield* runCli([...addArgs("shop_1"), "--database", other], env, { stdin: secretsJson })).code).toBe(0)
        expect(existsSync(file)).toBe(false)
        expect((yield* runCliInProcess(["shops", "list", "--database", other], env)).stdout).toContain("shop_1")
      }),
    { timeout: 180_000 }
  )
})

describe("shoplink secrets", () => {
  it.effect("generate-key prints a keyring entry on stdout, the warning on stderr", () =>
    Effect.gen(function*() {
      const result = yield* runCliInProcess(["secrets", "generate-key", "--id", "k2027"], {})
      expect(result.code).toBe(0)
      expect(result.stdout).toMatch(/^k2027:[A-Za-z0-9+/]{43}=\n$/)
      expect(Either.isRight(SecretBox.parseKeyring(result.stdout.trim()))).toBe(true)
      expect(result.stderr).toContain("This is a secret")
      expect(result.stderr).toContain("SHOPLINK_SECRET_KEYS")
      const dated = yield* runCliInProcess(["secrets", "generate-key"], {})
      expect(dated.stdout).toMatch(/^k\d{8}:/)
      const bad = yield* runCliInProcess(["secrets", "generate-key", "--id", "k 1"], {})
      expect(bad.code).toBe(2)
      expect(bad.stdout).toBe("")
    }))

  it.effect(
    "rotate with a new key first re-seals every secret; then the old key can be dropped",
    () =>
      Effect.gen(function*() {
        const { dir, env, file, k1 } = setup()
        expect((yield* runCli([...addArgs("shop_1"), "--sms-secret", "apiKey"], env, { stdin: secretsJson })).code)
          .toBe(0)
        expect((yield* runCli(addArgs("shop_2"), env, { stdin: JSON.stringify({ apiToken: TOKEN }) })).code).toBe(0)
        const k2 = keyOf("k2")

        const rotated = yield* runCliInProcess(["secrets", "rotate"], { ...env, SHOPLINK_SECRET_KEYS: `${k2},${k1}` })
        expect(rotated.stderr).toBe("")
        expect(rotated.code).toBe(0)
        expect(rotated.stdout).toContain("re-sealed 3 secret(s) under key k2")
        expect(rotated.stdout).toMatch(/^k2 \(first\) +3$/m)
        expect(rotated.stdout).toContain("k1 can now be removed from SHOPLINK_SECRET_KEYS")
        noSecrets(databaseBytes(dir))

        const again = yield* runCliInProcess(["secrets", "rotate", "--json"], {
          ...env,
          SHOPLINK_SECRET_KEYS: `${k2},${k1}`
        })
        expect(parseJson(again.stdout)).toEqual({
          currentKey: "k2",
          resealed: 0,
          keyUsage: { k2: 3 },
          done: true,
          removableKeys: ["k1"]
        })

        // Only the new key now: listing and the credentials still work.
        const onlyNew = { ...env, SHOPLINK_SECRET_KEYS: k2 }
        const listed = yield* runCliInProcess(["shops", "list"], onlyNew)
        expect(listed.code).toBe(0)
        expect(listed.stdout).toMatch(/^shop_1 /m)
        const opened = yield* withStore(
          file,
          k2,
          (store) => Effect.all([store.customerCredentials("shop_1"), store.smsCredentials("shop_1")])
        )
        expect(Redacted.value(opened[0].apiToken)).toBe(TOKEN)
        expect(Redacted.value(opened[1]["apiKey"]!)).toBe(SMS_KEY)
        const last = yield* runCliInProcess(["secrets", "rotate"], onlyNew)
        expect(last.stdout).toContain("Every stored secret is sealed with k2; SHOPLINK_SECRET_KEYS holds no other key.")

        // The old key alone no longer opens them: a configuration error naming the key to put back.
        const stale = yield* runCliInProcess(["secrets", "rotate"], { ...env, SHOPLINK_SECRET_KEYS: k1 })
        expect(stale.code).toBe(2)
        expect(stale.stderr).toContain("sealed with key k2 cannot be opened")
        expect(stale.stderr).toContain("put key k2 back in SHOPLINK_SECRET_KEYS")
      }),
    { timeout: 180_000 }
  )
})

describe("shoplink keys", () => {
  it.effect(
    "create prints the key once; list never shows it; it verifies through ApiKeys.verify until revoked",
    () =>
      Effect.gen(function*() {
        const { dir, file } = setup()
        const env = { SHOPLINK_DATABASE_URL: file }
        const created = yield* runCliInProcess(["keys", "create", "sms backend"], env)
        expect(created.code).toBe(0)
        const key = created.stdout.trim()
        expect(created.stdout).toMatch(/^slk_[a-z0-9]{10}_[A-Za-z0-9_-]{43}\n$/)
        expect(created.stderr).toContain("shown only once")
        expect(statSync(file).mode & 0o777).toBe(0o600)
        expect(databaseBytes(dir)).not.toContain(key)
        const id = key.split("_")[1]!

        const verify = (presented: string) =>
          Effect.flatMap(ApiKeys.ApiKeys, (keys) => Effect.either(keys.verify(presented))).pipe(
            Effect.provide(ApiKeys.layerSql.pipe(Layer.provide(Storage.sqlite(file))))
          )
        const ok = yield* verify(key)
        expect(Either.isRight(ok) && ok.right).toMatchObject({ id, name: "sms backend" })

        const text = yield* runCliInProcess(["keys", "list"], env)
        expect(text.stdout).toMatch(new RegExp(`^${id} +sms backend +\\d{4}-\\d\\d-\\d\\dT`, "m"))
        expect(text.stdout).not.toContain(key)
        const listed = parseJson<Array<unknown>>((yield* runCliInProcess(["keys", "list", "--json"], env)).stdout)
        expect(listed).toEqual([{ id, name: "sms backend", createdAt: expect.any(String), revokedAt: null }])

        const revoked = yield* runCliInProcess(["keys", "revoke", id], env)
        expect(revoked.code).toBe(0)
        expect(revoked.stdout).toContain(`revoked API key ${id} (sms backend)`)
        const refused = yield* verify(key)
        expect(Either.isLeft(refused) && refused.left).toMatchObject({ _tag: "ApiKeyRefused", reason: "revoked" })
        expect(
          parseJson<Array<{ revokedAt: string | null }>>(
            (yield* runCliInProcess(["keys", "list", "--json"], env)).stdout
          )[0]!.revokedAt
        )
          .toEqual(expect.any(String))
        expect((yield* runCliInProcess(["keys", "revoke", id], env)).stdout).toContain("was already revoked")

        const unknown = yield* runCliInProcess(["keys", "revoke", "0000000000"], env)
        expect(unknown.code).toBe(1)
        expect(unknown.stderr).toContain("error (ApiKeyNotFound): no API key 0000000000")

        const json = yield* runCliInProcess(["keys", "create", "second", "--json"], env)
        const body = parseJson<{ id: string; key: string }>(json.stdout)
        expect(Either.isRight(yield* verify(body.key))).toBe(true)
      }),
    { timeout: 180_000 }
  )
})

describe("SHOPLINK_SECRET_KEYS up-front check", () => {
  it("agrees with SecretBox.parseKeyring, the connector's parser", () => {
    const good = keyOf("k1")
    const samples = [
      good,
      `${keyOf("k2")},${good}`,
      ` ${good} , `,
      "",
      ",",
      "k1",
      ":abc",
      "bad id:" + good.split(":")[1],
      `k1:${Buffer.alloc(31).toString("base64")}`,
      `k1:${Buffer.alloc(33).toString("base64")}`,
      `k1:${"*".repeat(44)}`,
      `${good},${good}`
    ]
    for (const sample of samples) {
      const parsed = SecretBox.parseKeyring(sample)
      const problem = invalidKeyring(sample)
      expect(problem === undefined, JSON.stringify(sample)).toBe(Either.isRight(parsed))
      if (Either.isLeft(parsed)) expect(problem).toBe(`is invalid: ${parsed.left.problem}`)
    }
  })

  it("doctor and messages show a keyring by its key ids, never its key material", () => {
    const k2 = keyOf("k2")
    const k1 = keyOf("k1")
    const shown = ShoplinkConfig.display("secretKeys", `${k2},${k1}`)
    expect(shown).toBe("<redacted>, key ids: k2 (seals), k1")
    expect(ShoplinkConfig.display("secretKeys", "oops-no-colon-key-material")).toBe("<redacted>")
    const settings = ShoplinkConfig.fromSources({
      SHOPLINK_SECRET_KEYS: `k1:${Buffer.alloc(16, 9).toString("base64")}`
    }, undefined)
    const problem = ShoplinkConfig.problem(settings, "secretKeys")
    expect(problem._tag === "Some" && problem.value).toBe(
      "SHOPLINK_SECRET_KEYS (the keyring sealing the service's stored secrets: id:base64key[,…], the first seals) is invalid: " +
        "key k1 is 16 bytes; AES-256 needs 32 (base64 of 32 random bytes)"
    )
  })
})
