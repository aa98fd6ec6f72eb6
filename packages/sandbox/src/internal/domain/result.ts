// What a domain operation answers: its value, or the catalogue message the distributor answers
// with (a typed failure, never a thrown exception).
import * as Either from "effect/Either"
import type { MessageCatalog } from "@shoplink/protocol"
import { MessageFailure } from "../failure.js"

export type Result<A> = Either.Either<A, MessageFailure>

export const reject = (id: MessageCatalog.MessageId, text?: string, extra?: Record<string, unknown>): Result<never> =>
  Either.left(new MessageFailure(id, text, extra))

export const ok: <A>(a: A) => Result<A> = Either.right
