/**
 * Named test data of the seeded catalog: products with special behaviour, vehicles and drop-ship
 * addresses. These do not depend on the seed.
 *
 * @since 0.1.0
 */
import { FIXED_PRODUCTS, makeCatalog } from "./internal/catalog.js"

const vehicles = makeCatalog(1).vehicles.map((v) => ({
  year: v.year,
  make: v.make,
  model: v.model,
  vin: v.vin,
  licensePlate: v.licensePlate,
  licensePlateState: v.licensePlateState,
  baseVehicleID: v.baseVehicleId,
  vehicleGroupId: v.vehicleGroupId
}))

/**
 * The shape of {@link SANDBOX_FIXTURES}.
 *
 * @example
 * import { SANDBOX_FIXTURES, type SandboxFixtures } from "@shoplink/sandbox"
 * const fixtures: SandboxFixtures = SANDBOX_FIXTURES
 *
 * @since 0.1.0
 */
export interface SandboxFixtures {
  readonly products: typeof FIXED_PRODUCTS
  readonly vehicles: ReadonlyArray<{
    readonly year: number
    readonly make: string
    readonly model: string
    readonly vin: string
    readonly licensePlate: string
    readonly licensePlateState: string
    readonly baseVehicleID: string
    readonly vehicleGroupId: string
  }>
  readonly dropShip: {
    /** Validates as is. */
    readonly valid: {
      readonly addressLine1: string
      readonly city: string
      readonly state: string
      readonly zipCode: string
      readonly country: string
    }
    /** A known street with a wrong ZIP: API0327 with a recommended ZIP+4 address. */
    readonly recommendable: {
      readonly addressLine1: string
      readonly city: string
      readonly state: string
      readonly zipCode: string
      readonly country: string
    }
    /** Unknown street: API0327 without a recommendation. */
    readonly invalid: {
      readonly addressLine1: string
      readonly city: string
      readonly state: string
      readonly zipCode: string
      readonly country: string
    }
  }
}

/**
 * Named fixtures: `products.oilFilter` (well stocked), `products.unpriced` (API0243),
 * `products.notStocked` (API0232), `products.lowStock` (2 in stock: API0234 above), the seeded
 * vehicles (VIN, plate + state, ACES base vehicle ID, vehicle group) and drop-ship addresses.
 *
 * @example
 * import { SANDBOX_FIXTURES } from "@shoplink/sandbox"
 * SANDBOX_FIXTURES.products.oilFilter // { productID: "51515", brandID: "WIX" }
 * SANDBOX_FIXTURES.vehicles[0]?.baseVehicleID // "5678"
 *
 * @since 0.1.0
 */
export const SANDBOX_FIXTURES: SandboxFixtures = {
  products: FIXED_PRODUCTS,
  vehicles,
  dropShip: {
    valid: { addressLine1: "100 Main St", city: "Austin", state: "TX", zipCode: "78701", country: "US" },
    recommendable: { addressLine1: "100 Main Street", city: "Austin", state: "TX", zipCode: "78702", country: "US" },
    invalid: { addressLine1: "1 Nowhere Ln", city: "Austin", state: "TX", zipCode: "78701", country: "US" }
  }
}
