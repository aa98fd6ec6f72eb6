/** The server tests use when SHOPLINK_TEST_DATABASE_URL is unset. */
export declare const DEFAULT_TEST_DATABASE_URL: string
/** Debian's PostgreSQL binaries (newest major first), or undefined when none is installed. */
export declare const postgresBinaries: () => string | undefined
/** Starts a throwaway cluster on a free loopback port; `stop` stops it and removes its folder. */
export declare const startThrowawayCluster: () => Promise<{ readonly url: string; readonly stop: () => void }>
/** vitest globalSetup: a server that answers at SHOPLINK_TEST_DATABASE_URL, throwaway if need be. */
export declare const postgresGlobalSetup: () => Promise<() => void>
/** A new database with a random name; `drop()` removes it. */
export declare const testDatabase: () => Promise<
  { readonly name: string; readonly url: string; readonly drop: () => Promise<void> }
>
