// Help text with an EXAMPLES section, for Command.withDescription.
import * as HelpDoc from "@effect/cli/HelpDoc"

export const help = (summary: string, examples: ReadonlyArray<string>, notes: ReadonlyArray<string> = []) =>
  HelpDoc.blocks([
    HelpDoc.p(summary),
    ...notes.map((note) => HelpDoc.p(note)),
    ...(examples.length > 0 ? [HelpDoc.h2("EXAMPLES"), ...examples.map((e) => HelpDoc.p(`  $ ${e}`))] : [])
  ])
