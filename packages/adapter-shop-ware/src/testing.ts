/**
 * Test support: a fake Shop-Ware partner API built from Shop-Ware's public OpenAPI (see
 * `FakeShopWare`) and the conformance harness. It is the embedded default of the sample app and
 * of the adapter's tests.
 *
 * @since 0.1.0
 */
export * from "./FakeShopWare.js"
