// A catalogue message the sandbox answers with. The state code is synchronous and validates
// before it mutates, so a failure is thrown there and turned into an envelope at the HTTP edge.
import { MessageCatalog } from "@shoplink/protocol"

export class MessageFailure {
  readonly _tag = "MessageFailure"
  constructor(readonly id: MessageCatalog.MessageId, readonly text?: string, readonly extra?: Record<string, unknown>) {}
}

export const fail = (id: MessageCatalog.MessageId, text?: string, extra?: Record<string, unknown>): never => {
  throw new MessageFailure(id, text, extra)
}

export const textOf = (failure: MessageFailure): string => failure.text ?? MessageCatalog.messages[failure.id].text

/**
 * The HTTP status the sandbox uses for a message (clients must not depend on it; they decode the
 * envelope whatever the status).
 */
export const httpStatusOf = (id: string): number => {
  switch (id) {
    case "UNAUTHORIZED":
    case "API0206":
    case "API0207":
      return 401
    case "API0204":
    case "API0227":
      return 403
    case "API0202":
    case "API0244":
    case "API0256":
    case "API0289":
    case "API0270":
      return 404
    case "API0208":
      return 429
    case "API0327":
    case "API0500":
    case "API0276":
    case "API0297":
      return 500
  }
  if (!MessageCatalog.isMessageId(id)) return 400
  const entry = MessageCatalog.messages[id]
  if (entry.kind !== "error") return 200
  return entry.retry === "state" || entry.retry === "retryable" ? 409 : entry.retry === "server" ? 500 : 400
}
