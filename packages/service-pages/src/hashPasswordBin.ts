// `shoplink-hash-password < password.txt`: prints the scrypt hash of a password, for the
// `passwordHash` of a user in SHOPLINK_USERS_FILE of any service on ServiceMain. The password is
// read from stdin (never from the command line, where it would land in shell history); on a
// terminal it is typed without echo.
import * as SignIn from "./SignIn.js"

const readPassword = (): Promise<string> =>
  new Promise((resolve, reject) => {
    const stdin = process.stdin
    let text = ""
    if (stdin.isTTY) {
      process.stderr.write("Password (not shown): ")
      stdin.setRawMode(true)
    }
    stdin.setEncoding("utf8")
    stdin.on("data", (chunk: string) => {
      if (!stdin.isTTY) return void (text += chunk)
      for (const c of chunk) {
        if (c === "\r" || c === "\n" || c === "\u0004") {
          stdin.setRawMode(false)
          stdin.pause()
          process.stderr.write("\n")
          return resolve(text)
        }
        if (c === "\u0003") return reject(new Error("cancelled"))
        text = c === "\u007f" ? text.slice(0, -1) : text + c
      }
    })
    stdin.on("end", () => resolve(text.replace(/\r?\n$/, "")))
    stdin.on("error", reject)
  })

readPassword().then(async (password) => {
  if (password.length < 12) {
    process.stderr.write("The password must have at least 12 characters.\n")
    process.exit(2)
  }
  process.stdout.write(`${await SignIn.hashPassword(password)}\n`)
  process.exit(0)
}, (error: Error) => {
  process.stderr.write(`${error.message}\n`)
  process.exit(1)
})
