// Fills the session's URL template for a command, keeping the token inside a Redacted.
import { Redacted } from "effect"
import { Punchout } from "@shoplink/protocol"
import type { PunchoutSession } from "../PunchoutSession.js"

export const commandUrlObject = (session: PunchoutSession, command: Punchout.Command): URL => {
  const url = new URL(Redacted.value(session.urlTemplate).replace(Punchout.COMMAND_PLACEHOLDER, command))
  // The template carries the token; add it when a server variant leaves it out.
  if (!url.searchParams.has("token")) url.searchParams.set("token", Redacted.value(session.token))
  return url
}

export const commandUrl = (session: PunchoutSession, command: Punchout.Command): Redacted.Redacted<string> =>
  Redacted.make(commandUrlObject(session, command).toString())
