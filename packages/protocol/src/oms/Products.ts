/**
 * Product content: brand information, marketing detail, digital assets and their URLs, price and
 * availability, and the product search input the error catalogue implies.
 *
 * Field names beyond those the spec lists are assumptions (docs/assumptions.md).
 *
 * @since 0.1.0
 */
import * as Schema from "effect/Schema"
import { envelopeFields } from "../Envelope.js"
import { IdString, NonBlank } from "../internal/fields.js"
import { BrandCode, LenientNumber, LicensePlate, OptionalText, Quantity, SearchText } from "../Values.js"
import { Vin } from "../Vin.js"

/**
 * Brand information (returned by price and availability, order details and invoice details).
 *
 * @example
 * import { Schema } from "effect"
 * import { OrderManagement } from "@shoplink/protocol"
 * Schema.decodeUnknownSync(OrderManagement.BrandInformation)({
 *   ACABrandID: "BBDF",
 *   SERVICEBrandCode: "WIX",
 *   SERVICEBrandLogo: "wix",
 *   brandDescription: "WIX Filters",
 *   brandLogoLevel1URL: ""
 * })
 *
 * @since 0.1.0
 * @category schemas
 */
export const BrandInformation = Schema.Struct({
  ACABrandID: IdString,
  SERVICEBrandCode: BrandCode,
  SERVICEBrandLogo: OptionalText,
  brandDescription: OptionalText,
  brandLogoLevel1URL: OptionalText
}).annotations({ identifier: "BrandInformation" })
/** @since 0.1.0 */
export interface BrandInformation extends Schema.Schema.Type<typeof BrandInformation> {}

/**
 * Product marketing detail (`/productDetails`): HTML `description` at the brand level, or at the
 * category level when `category` is not blank.
 *
 * @example
 * import { Schema } from "effect"
 * import { OrderManagement } from "@shoplink/protocol"
 * Schema.decodeUnknownSync(OrderManagement.ProductMarketingDetail)({
 *   brand: "WIX",
 *   category: "",
 *   description: "<p>Warranty</p>"
 * })
 *
 * @since 0.1.0
 * @category schemas
 */
export const ProductMarketingDetail = Schema.Struct({
  brand: Schema.String,
  category: OptionalText,
  description: OptionalText
}).annotations({ identifier: "ProductMarketingDetail" })
/** @since 0.1.0 */
export interface ProductMarketingDetail extends Schema.Schema.Type<typeof ProductMarketingDetail> {}

/**
 * A digital asset (`/productDigitalAsset`).
 *
 * @example
 * import { Schema } from "effect"
 * import { OrderManagement } from "@shoplink/protocol"
 * Schema.decodeUnknownSync(OrderManagement.DigitalAsset)({
 *   assetName: "wix_51515.jpg",
 *   assetType: "P04",
 *   language: "EN"
 * })
 *
 * @since 0.1.0
 * @category schemas
 */
export const DigitalAsset = Schema.Struct({
  assetName: NonBlank("assetName"),
  assetType: Schema.String,
  language: OptionalText
}).annotations({ identifier: "DigitalAsset" })
/** @since 0.1.0 */
export interface DigitalAsset extends Schema.Schema.Type<typeof DigitalAsset> {}

/**
 * Image sizes the asset host serves.
 *
 * @example
 * import type { OrderManagement } from "@shoplink/protocol"
 * const size: OrderManagement.ImageSize = 110
 *
 * @since 0.1.0
 */
export type ImageSize = 1500 | 110

const host = (assetBaseUrl: string) => assetBaseUrl.replace(/\/+$/, "")

/**
 * `{asset_url}/wam?type=image&size=<1500 or 110>&asset=<assetName>`.
 *
 * @example
 * import { OrderManagement } from "@shoplink/protocol"
 * OrderManagement.imageAssetUrl("https://assets.example", "wix 51515.jpg", 110)
 * // "https://assets.example/wam?type=image&size=110&asset=wix%2051515.jpg"
 *
 * @since 0.1.0
 */
export const imageAssetUrl = (assetBaseUrl: string, assetName: string, size: ImageSize): string =>
  `${host(assetBaseUrl)}/wam?type=image&size=${size}&asset=${encodeURIComponent(assetName)}`

/**
 * `{asset_url}/wam?type=doc&asset=<assetName>` for PDF documents.
 *
 * @example
 * import { OrderManagement } from "@shoplink/protocol"
 * OrderManagement.documentAssetUrl("https://assets.example", "install.pdf")
 * // "https://assets.example/wam?type=doc&asset=install.pdf"
 *
 * @since 0.1.0
 */
export const documentAssetUrl = (assetBaseUrl: string, assetName: string): string =>
  `${host(assetBaseUrl)}/wam?type=doc&asset=${encodeURIComponent(assetName)}`

/**
 * `{asset_url}/brands/<SERVICEBrandLogo>.gif`.
 *
 * @example
 * import { OrderManagement } from "@shoplink/protocol"
 * OrderManagement.brandLogoUrl("https://assets.example", "wix") // "https://assets.example/brands/wix.gif"
 *
 * @since 0.1.0
 */
export const brandLogoUrl = (assetBaseUrl: string, brandLogo: string): string =>
  `${host(assetBaseUrl)}/brands/${encodeURIComponent(brandLogo)}.gif`

/**
 * The product search input the error catalogue names: `searchText` (3+ characters, API0304),
 * `categoryCode` (API0303), a vehicle group ID (API0226), a VIN (API0261, API0267) or a license
 * plate with its state (API0262). At least one criterion is needed (API0203).
 *
 * @example
 * import { Schema } from "effect"
 * import { OrderManagement } from "@shoplink/protocol"
 * Schema.decodeUnknownSync(OrderManagement.ProductSearch)({ searchText: "oil filter", vin: "1M8GDM9AXKP042788" })
 *
 * @since 0.1.0
 * @category schemas
 */
export const ProductSearch = Schema.Struct({
  searchText: Schema.optionalWith(SearchText, { exact: true }),
  categoryCode: Schema.optionalWith(NonBlank("categoryCode"), { exact: true }),
  vehicleGroupId: Schema.optionalWith(NonBlank("vehicleGroupId"), { exact: true }),
  vin: Schema.optionalWith(Vin, { exact: true }),
  licensePlate: Schema.optionalWith(LicensePlate, { exact: true })
}).pipe(
  Schema.filter((search) =>
    Object.values(search).some((value) => value !== undefined) ||
    "a product search needs searchText, categoryCode, vehicleGroupId, vin or licensePlate"
  )
).annotations({
  identifier: "ProductSearch",
  arbitrary: () => (fc) =>
    fc.constantFrom("oil filter", "brake pads").map((searchText) => ({ searchText: searchText as SearchText }))
})
/** @since 0.1.0 */
export type ProductSearch = typeof ProductSearch.Type

/**
 * A product reference in an Order Management request (assumed shape).
 *
 * @example
 * import { Schema } from "effect"
 * import { OrderManagement } from "@shoplink/protocol"
 * Schema.decodeUnknownSync(OrderManagement.ProductRef)({ productID: "51515", brandCode: "WIX" })
 *
 * @since 0.1.0
 * @category schemas
 */
export const ProductRef = Schema.Struct({
  productID: NonBlank("productID"),
  brandCode: BrandCode
}).annotations({ identifier: "ProductRef" })

/**
 * Price and availability v2 request (assumed shape): the account and the items to price.
 *
 * @example
 * import { Schema } from "effect"
 * import { OrderManagement } from "@shoplink/protocol"
 * Schema.decodeUnknownSync(OrderManagement.PriceAndAvailabilityRequest)({
 *   customerAccountNo: "100200", items: [{ productID: "51515", brandCode: "WIX", quantity: 2 }]
 * })
 *
 * @since 0.1.0
 * @category schemas
 */
export const PriceAndAvailabilityRequest = Schema.Struct({
  customerAccountNo: NonBlank("customerAccountNo"),
  items: Schema.NonEmptyArray(Schema.Struct({ ...ProductRef.fields, quantity: Quantity }))
}).annotations({ identifier: "PriceAndAvailabilityRequest" })
/** @since 0.1.0 */
export interface PriceAndAvailabilityRequest extends Schema.Schema.Type<typeof PriceAndAvailabilityRequest> {}

/**
 * One warehouse's availability for an item (v2 returns an array of these).
 *
 * @example
 * import { Schema } from "effect"
 * import { OrderManagement } from "@shoplink/protocol"
 * Schema.decodeUnknownSync(OrderManagement.WarehouseAvailability)({
 *   warehouseCode: "DAL",
 *   warehouseName: "Dallas DC",
 *   quantityAvailable: 14
 * })
 *
 * @since 0.1.0
 * @category schemas
 */
export const WarehouseAvailability = Schema.Struct({
  warehouseCode: Schema.String,
  warehouseName: OptionalText,
  quantityAvailable: LenientNumber,
  deliveryDays: Schema.optionalWith(Schema.JsonNumber, { nullable: true, exact: true })
}).annotations({ identifier: "WarehouseAvailability" })
/** @since 0.1.0 */
export interface WarehouseAvailability extends Schema.Schema.Type<typeof WarehouseAvailability> {}

/**
 * A priced item with its warehouses.
 *
 * @example
 * import { Schema } from "effect"
 * import { OrderManagement } from "@shoplink/protocol"
 * Schema.decodeUnknownSync(OrderManagement.PricedItem)({
 *   productID: "51515",
 *   brandCode: "WIX",
 *   quantityRequested: 2,
 *   price: 6.49,
 *   listPrice: 9.99,
 *   corePrice: 0,
 *   warehouses: []
 * })
 *
 * @since 0.1.0
 * @category schemas
 */
export const PricedItem = Schema.Struct({
  productID: IdString,
  brandCode: Schema.String,
  productDesc: Schema.optionalWith(Schema.String, { nullable: true, default: () => "" }),
  quantityRequested: LenientNumber,
  price: Schema.JsonNumber,
  listPrice: LenientNumber,
  corePrice: LenientNumber,
  brand: Schema.optionalWith(BrandInformation, { nullable: true, exact: true }),
  warehouses: Schema.optionalWith(Schema.Array(WarehouseAvailability), { nullable: true, default: () => [] })
}).annotations({ identifier: "PricedItem" })
/** @since 0.1.0 */
export interface PricedItem extends Schema.Schema.Type<typeof PricedItem> {}

/**
 * Price and availability v2 response (assumed shape beyond "an array of warehouses").
 *
 * @example
 * import { Schema } from "effect"
 * import { OrderManagement } from "@shoplink/protocol"
 * Schema.decodeUnknownSync(OrderManagement.PriceAndAvailabilityResponse)({
 *   status: { code: 200, message: { ID: "API0200", text: "Successful" } }, items: []
 * })
 *
 * @since 0.1.0
 * @category schemas
 */
export const PriceAndAvailabilityResponse = Schema.Struct({
  ...envelopeFields,
  items: Schema.optionalWith(Schema.Array(PricedItem), { nullable: true, default: () => [] })
}).annotations({ identifier: "PriceAndAvailabilityResponse" })
/** @since 0.1.0 */
export interface PriceAndAvailabilityResponse extends Schema.Schema.Type<typeof PriceAndAvailabilityResponse> {}

/**
 * productDetails response (assumed envelope): up to two detail levels, brand and category.
 *
 * @example
 * import { Schema } from "effect"
 * import { OrderManagement } from "@shoplink/protocol"
 * Schema.decodeUnknownSync(OrderManagement.ProductDetailsResponse)({
 *   status: { code: 200, message: { ID: "API0200", text: "Successful" } }, details: []
 * })
 *
 * @since 0.1.0
 * @category schemas
 */
export const ProductDetailsResponse = Schema.Struct({
  ...envelopeFields,
  details: Schema.optionalWith(Schema.Array(ProductMarketingDetail), { nullable: true, default: () => [] })
}).annotations({ identifier: "ProductDetailsResponse" })

/**
 * productDigitalAsset response (assumed envelope).
 *
 * @example
 * import { Schema } from "effect"
 * import { OrderManagement } from "@shoplink/protocol"
 * Schema.decodeUnknownSync(OrderManagement.DigitalAssetsResponse)({
 *   status: { code: 200, message: { ID: "API0200", text: "Successful" } }, assets: []
 * })
 *
 * @since 0.1.0
 * @category schemas
 */
export const DigitalAssetsResponse = Schema.Struct({
  ...envelopeFields,
  assets: Schema.optionalWith(Schema.Array(DigitalAsset), { nullable: true, default: () => [] })
}).annotations({ identifier: "DigitalAssetsResponse" })
