/**
 * @shoplink/http-node — a lean @effect/platform `HttpClient` for Node on undici.
 *
 * @since 0.1.0
 */
export * as UndiciHttpClient from "./UndiciHttpClient.js"
