/**
 * @shoplink/service-pages: the pages a service writer's app serves around the runtime of
 * @shoplink/connector-runtime: sign-in, the repair-order list and page, Order parts and the
 * operators' delivery console.
 *
 * @since 0.1.0
 */
export * as DeliveryConsole from "./DeliveryConsole.js"
export * as ServiceApp from "./ServiceApp.js"
export * as ServiceMain from "./ServiceMain.js"
export * as ServicePages from "./ServicePages.js"
export * as SessionStore from "./SessionStore.js"
export * as SignIn from "./SignIn.js"
