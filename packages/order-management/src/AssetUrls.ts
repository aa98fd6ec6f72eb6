/**
 * URLs of digital assets (images, PDF documents) and brand logos on the asset host the spec calls
 * `{asset_url}`.
 *
 * @since 0.1.0
 */
import { OrderManagement } from "@shoplink/protocol"

/**
 * URL builders bound to one asset host.
 *
 * @example
 * import { AssetUrls } from "@shoplink/order-management"
 * const urls: AssetUrls.AssetUrls = AssetUrls.make("https://assets.example")
 *
 * @since 0.1.0
 */
export interface AssetUrls {
  readonly assetBaseUrl: string
  /** `{asset_url}/wam?type=image&size=<1500|110>&asset=<assetName>`. */
  readonly image: (assetName: string, size: OrderManagement.ImageSize) => string
  /** `{asset_url}/wam?type=doc&asset=<assetName>`. */
  readonly document: (assetName: string) => string
  /** The document URL for a PDF asset, else the image URL at `size` (default 1500). */
  readonly forAsset: (
    asset: Pick<OrderManagement.DigitalAsset, "assetName">,
    size?: OrderManagement.ImageSize
  ) => string
  /** `{asset_url}/brands/<SERVICEBrandLogo>.gif`, or `undefined` when the brand has no logo. */
  readonly brandLogo: (brand: Pick<OrderManagement.BrandInformation, "SERVICEBrandLogo">) => string | undefined
}

// Whether an asset is a PDF document (by its file name; PIES asset type codes do not say).
const isDocument = (asset: Pick<OrderManagement.DigitalAsset, "assetName">): boolean => /\.pdf$/i.test(asset.assetName)

/**
 * Builds the URL helpers for an asset host.
 *
 * @example
 * import { AssetUrls } from "@shoplink/order-management"
 * const urls = AssetUrls.make("https://assets.example/")
 * urls.image("wix_51515.jpg", 110) // "https://assets.example/wam?type=image&size=110&asset=wix_51515.jpg"
 * urls.brandLogo({ SERVICEBrandLogo: "wix" }) // "https://assets.example/brands/wix.gif"
 *
 * @since 0.1.0
 * @category constructors
 */
export const make = (assetBaseUrl: string): AssetUrls => {
  const image = (assetName: string, size: OrderManagement.ImageSize) =>
    OrderManagement.imageAssetUrl(assetBaseUrl, assetName, size)
  const document = (assetName: string) => OrderManagement.documentAssetUrl(assetBaseUrl, assetName)
  return {
    assetBaseUrl,
    image,
    document,
    forAsset: (asset, size = 1500) => isDocument(asset) ? document(asset.assetName) : image(asset.assetName, size),
    brandLogo: (brand) =>
      brand.SERVICEBrandLogo === "" ? undefined : OrderManagement.brandLogoUrl(assetBaseUrl, brand.SERVICEBrandLogo)
  }
}
