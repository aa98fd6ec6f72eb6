// Fills the session's URL template for a command, keeping the token inside a Redacted.
import * as Redacted from "effect/Redacted"
import { Punchout } from "@shoplink/protocol"
import type { PunchoutSession } from "../PunchoutSession.js"

export const commandUrlObject = (session: PunchoutSession, command: Punchout.Command): URL => {
  const url = new URL(Redacted.value(session.urlTemplate).replace(Punchout.COMMAND_PLACEHOLDER, command))
  // The template carries the token; add it when a server variant leaves it out.
  if (!url.searchParams.has("token")) url.searchParams.set("token", Redacted.value(session.token))
  return url
}

// A pooled session serves many commands: build each of its command URLs once.
const commandUrls = new WeakMap<PunchoutSession, Map<Punchout.Command, Redacted.Redacted<string>>>()

export const commandUrl = (session: PunchoutSession, command: Punchout.Command): Redacted.Redacted<string> => {
  let urls = commandUrls.get(session)
  if (urls === undefined) {
    urls = new Map()
    commandUrls.set(session, urls)
  }
  let url = urls.get(command)
  if (url === undefined) {
    url = Redacted.make(commandUrlObject(session, command).toString())
    urls.set(command, url)
  }
  return url
}
