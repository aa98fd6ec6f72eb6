// Types of generate-openapi.mjs, for test/openapi.test.ts.

/** The operations the fake serves, `METHOD path` as in the document. */
export declare const SERVED: ReadonlyArray<string>
/** The subset of the original document (its text) that holds the served paths, verbatim. */
export declare const vendor: (original: string, commit: string) => string
/** The generated module's text from the subset's text. */
export declare const generate: (subset: string) => string
