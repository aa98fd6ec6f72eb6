/**
 * @shoplink/adapter-shopmonkey/testing — a fake Shopmonkey API server for tests and demos.
 *
 * @since 0.1.0
 */
export {
  FAKE_SHOPMONKEY_API_KEY,
  FAKE_SHOPMONKEY_FIXTURES,
  FAKE_SHOPMONKEY_SECOND_COMPANY,
  type FakeCompany,
  type FakeRequest,
  type FakeShopmonkey,
  type FakeShopmonkeyOptions,
  type FakeShopmonkeyStore,
  startFakeShopmonkey,
  startFakeShopmonkeyServer
} from "./FakeShopmonkey.js"
