/**
 * Test support: a fake Tekmetric API server built from Tekmetric's public documentation (see
 * `FakeTekmetric`). It is the embedded default of the sample app and of the adapter's tests.
 *
 * @since 0.1.0
 */
export * from "./FakeTekmetric.js"
