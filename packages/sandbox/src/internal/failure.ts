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
 * The HTTP status the sandbox answers a message with: the catalogue row's `httpStatus` (400 for an
 * ID outside the catalogue). Clients must not depend on it; they decode the envelope whatever the
 * status.
 */
export const httpStatusOf = (id: string): number =>
  MessageCatalog.isMessageId(id) ? MessageCatalog.messages[id].httpStatus : 400
