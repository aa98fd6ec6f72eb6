// A catalogue message the sandbox answers with. The domain operations answer it as a typed failure
// (`Result`, see domain/result.ts), never by throwing; the HTTP edge turns it into an envelope.
import { MessageCatalog } from "@shoplink/protocol"

export class MessageFailure {
  readonly _tag = "MessageFailure"
  constructor(
    readonly id: MessageCatalog.MessageId,
    readonly text?: string,
    readonly extra?: Record<string, unknown>
  ) {}
}

export const textOf = (failure: MessageFailure): string => failure.text ?? MessageCatalog.messages[failure.id].text

/**
 * The HTTP status the sandbox answers a message with: the catalogue row's `httpStatus` (400 for an
 * ID outside the catalogue). Clients must not depend on it; they decode the envelope whatever the
 * status.
 */
export const httpStatusOf = (id: string): number =>
  MessageCatalog.isMessageId(id) ? MessageCatalog.messages[id].httpStatus : 400
