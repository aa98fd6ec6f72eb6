/**
 * @shoplink/adapter-__name__ — connects __title__ to the distributor through Shoplink.
 *
 * @since 0.1.0
 */
export * as __Name__Connector from "./__Name__Connector.js"
