/**
 * @shoplink/connector-runtime: the server around the adapter contract of @shoplink/connector.
 *
 * @since 0.1.0
 */
export * as InboxWorker from "./InboxWorker.js"
export * as Retention from "./Retention.js"
export * as CredentialStore from "./CredentialStore.js"
export * as LaunchRegistry from "./LaunchRegistry.js"
export * as PunchoutLauncher from "./PunchoutLauncher.js"
export * as OrderVerifier from "./OrderVerifier.js"
export * as WebhookInbox from "./WebhookInbox.js"
export * as WebhookReceiver from "./WebhookReceiver.js"
export * as SecretBox from "./SecretBox.js"
export * as ShopStore from "./ShopStore.js"
export * as Storage from "./Storage.js"
export * as ApiKeys from "./ApiKeys.js"
export * as LaunchLinks from "./LaunchLinks.js"
export * as ConnectorRuntime from "./ConnectorRuntime.js"
export * as Observability from "./Observability.js"
export * as Logging from "./Logging.js"
export * as Telemetry from "./Telemetry.js"
export * as Prometheus from "./Prometheus.js"
export * as Health from "./Health.js"
export * as Migrations from "./Migrations.js"
export * as PartsLedger from "./PartsLedger.js"
export * as Settings from "./Settings.js"
export * as SettingsTable from "./SettingsTable.js"
export * as FailureWords from "./FailureWords.js"
