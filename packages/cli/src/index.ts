/**
 * @shoplink/cli — the `shoplink` command-line tool, and its building blocks for embedding.
 *
 * @since 0.1.0
 */
export * as Cli from "./Cli.js"
export * as ExitCode from "./ExitCode.js"
export * as ShoplinkConfig from "./ShoplinkConfig.js"
