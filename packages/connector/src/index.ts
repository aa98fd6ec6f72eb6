/**
 * @shoplink/connector — the contract an SMS adapter implements and the runtime around it.
 *
 * @since 0.1.0
 */
export * as Connector from "./Connector.js"
export * as InboxWorker from "./InboxWorker.js"
export * as Retention from "./Retention.js"
export * as CredentialStore from "./CredentialStore.js"
export * as LaunchRegistry from "./LaunchRegistry.js"
export * as PunchoutLauncher from "./PunchoutLauncher.js"
export * as Money from "./Money.js"
export * as OrderVerifier from "./OrderVerifier.js"
export * as ShopSystem from "./ShopSystem.js"
export * as WebhookInbox from "./WebhookInbox.js"
export * as WebhookReceiver from "./WebhookReceiver.js"
export * as SecretBox from "./SecretBox.js"
export * as ShopStore from "./ShopStore.js"
export * as Storage from "./Storage.js"
export * as ApiKeys from "./ApiKeys.js"
export * as LaunchLinks from "./LaunchLinks.js"
export * as SmsCredentials from "./SmsCredentials.js"
export * as ConnectorRuntime from "./ConnectorRuntime.js"
export * as Observability from "./Observability.js"
export * as Health from "./Health.js"
export * as Migrations from "./Migrations.js"
export * as PartsLedger from "./PartsLedger.js"
export * as SignIn from "./SignIn.js"
