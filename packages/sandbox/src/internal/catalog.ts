// The deterministic seeded catalog: brands, part terminologies, vehicles with fitment,
// warehouses with stock, and the drop-ship address directory.
import { Vin } from "@shoplink/protocol"
import { makeRng } from "./random.js"

export type CountryCode = "US" | "CA"

export interface Brand {
  readonly code: string
  readonly acaBrandId: string
  readonly name: string
  readonly logo: string
  readonly website: string
  readonly warrantyHtml: string
}

export interface Terminology {
  readonly id: number
  readonly name: string
  readonly category: string
}

export interface Category {
  readonly code: string
  readonly name: string
}

export interface Vehicle {
  readonly baseVehicleId: string
  readonly vehicleGroupId: string
  readonly year: number
  readonly make: string
  readonly model: string
  readonly makeId: number
  readonly vin: string
  readonly licensePlate: string
  readonly licensePlateState: string
}

export interface Warehouse {
  readonly code: string
  readonly name: string
  readonly country: CountryCode
  /** Hour (UTC) after which an order no longer leaves the same day. */
  readonly cutoffHourUtc: number
  readonly deliveryDays: number
}

export interface Product {
  readonly productID: string
  readonly brandCode: string
  readonly terminologyId: number
  readonly categoryID: string
  readonly description: string
  /** `undefined`: the distributor cannot price it (API0243). */
  readonly price: number | undefined
  readonly listPrice: number
  readonly corePrice: number
  readonly weight: number
  readonly quality: string
  /** `false`: not a stocked SKU (API0232). */
  readonly stocked: boolean
  /** Base vehicle IDs it fits; empty means universal. */
  readonly fits: ReadonlyArray<string>
  readonly featuresHtml: string
}

export interface DirectoryAddress {
  readonly addressLine1: string
  readonly city: string
  readonly state: string
  readonly zip: string
  readonly plus4: string
  readonly country: CountryCode
}

export interface Catalog {
  readonly brands: ReadonlyArray<Brand>
  readonly categories: ReadonlyArray<Category>
  readonly terminologies: ReadonlyArray<Terminology>
  readonly vehicles: ReadonlyArray<Vehicle>
  readonly warehouses: ReadonlyArray<Warehouse>
  readonly products: ReadonlyArray<Product>
  /** Initial stock: key `${brandCode}|${productID}|${warehouseCode}`. */
  readonly stock: ReadonlyMap<string, number>
  readonly addresses: ReadonlyArray<DirectoryAddress>
}

const BRANDS: ReadonlyArray<Omit<Brand, "warrantyHtml">> = [
  { code: "WIX", acaBrandId: "BBDF", name: "WIX Filters", logo: "wix", website: "https://www.wixfilters.example" },
  { code: "ACD", acaBrandId: "BBHK", name: "ACDelco", logo: "acdelco", website: "https://www.acdelco.example" },
  { code: "BO", acaBrandId: "BCZM", name: "Bosch", logo: "bosch", website: "https://www.bosch.example" },
  { code: "MON", acaBrandId: "BBSF", name: "Monroe", logo: "monroe", website: "https://www.monroe.example" },
  { code: "MC", acaBrandId: "BBKJ", name: "Motorcraft", logo: "motorcraft", website: "" },
  { code: "NGK", acaBrandId: "BBTL", name: "NGK Spark Plugs", logo: "ngk", website: "https://www.ngk.example" },
  { code: "DEN", acaBrandId: "BBFL", name: "Denso", logo: "denso", website: "https://www.denso.example" },
  { code: "GAT", acaBrandId: "BBGN", name: "Gates", logo: "gates", website: "https://www.gates.example" },
  { code: "MOO", acaBrandId: "BBSN", name: "Moog Chassis", logo: "moog", website: "https://www.moog.example" },
  { code: "DAY", acaBrandId: "BBJC", name: "Dayco", logo: "dayco", website: "" },
  { code: "CHA", acaBrandId: "BBDH", name: "Champion", logo: "champion", website: "https://www.champion.example" },
  { code: "FRA", acaBrandId: "BBMW", name: "FRAM", logo: "fram", website: "https://www.fram.example" },
  { code: "KYB", acaBrandId: "BCKQ", name: "KYB Americas", logo: "kyb", website: "https://www.kyb.example" },
  { code: "DL", acaBrandId: "BDPT", name: "Duralast", logo: "duralast", website: "" }
]

const CATEGORIES: ReadonlyArray<Category> = [
  { code: "FLT", name: "Filters" },
  { code: "BRK", name: "Brakes" },
  { code: "IGN", name: "Ignition" },
  { code: "EMS", name: "Emissions" },
  { code: "BLT", name: "Belts" },
  { code: "COL", name: "Cooling" },
  { code: "SUS", name: "Suspension" },
  { code: "STE", name: "Steering" },
  { code: "DRV", name: "Driveline" },
  { code: "ELE", name: "Electrical" },
  { code: "ACC", name: "Accessories" }
]

const TERMINOLOGIES: ReadonlyArray<Terminology> = [
  { id: 1684, name: "Oil Filter", category: "FLT" },
  { id: 6832, name: "Engine Air Filter", category: "FLT" },
  { id: 6836, name: "Cabin Air Filter", category: "FLT" },
  { id: 5340, name: "Fuel Filter", category: "FLT" },
  { id: 1896, name: "Disc Brake Pad Set", category: "BRK" },
  { id: 1404, name: "Disc Brake Rotor", category: "BRK" },
  { id: 1744, name: "Disc Brake Caliper", category: "BRK" },
  { id: 7600, name: "Spark Plug", category: "IGN" },
  { id: 7212, name: "Ignition Coil", category: "IGN" },
  { id: 5912, name: "Oxygen Sensor", category: "EMS" },
  { id: 4472, name: "Serpentine Belt", category: "BLT" },
  { id: 4468, name: "Timing Belt", category: "BLT" },
  { id: 1052, name: "Engine Water Pump", category: "COL" },
  { id: 1328, name: "Engine Coolant Thermostat", category: "COL" },
  { id: 5588, name: "Radiator", category: "COL" },
  { id: 7576, name: "Shock Absorber", category: "SUS" },
  { id: 7584, name: "Suspension Strut Assembly", category: "SUS" },
  { id: 7040, name: "Suspension Ball Joint", category: "STE" },
  { id: 7320, name: "Steering Tie Rod End", category: "STE" },
  { id: 1184, name: "Wheel Bearing and Hub Assembly", category: "DRV" },
  { id: 4336, name: "Alternator", category: "ELE" },
  { id: 6928, name: "Starter Motor", category: "ELE" },
  { id: 5200, name: "Vehicle Battery", category: "ELE" },
  { id: 8852, name: "Windshield Wiper Blade", category: "ACC" }
]

// Universal parts fit every vehicle.
const UNIVERSAL = new Set([5200, 8852])

// VINs are given with a placeholder check digit; withCheckDigit makes them valid.
const VEHICLES: ReadonlyArray<Omit<Vehicle, "vin"> & { readonly vinStem: string }> = [
  { baseVehicleId: "5678", vehicleGroupId: "VG1001", year: 2019, make: "Ford", model: "F-150", makeId: 54, vinStem: "1FTEW1E50KFA12345", licensePlate: "8ABC123", licensePlateState: "CA" },
  { baseVehicleId: "6021", vehicleGroupId: "VG1002", year: 2018, make: "Toyota", model: "Camry", makeId: 76, vinStem: "4T1B11HK0JU512345", licensePlate: "TXK4521", licensePlateState: "TX" },
  { baseVehicleId: "6188", vehicleGroupId: "VG1003", year: 2017, make: "Honda", model: "Civic", makeId: 59, vinStem: "2HGFC2F50HH512345", licensePlate: "HND2017", licensePlateState: "NY" },
  { baseVehicleId: "6342", vehicleGroupId: "VG1004", year: 2020, make: "Chevrolet", model: "Silverado 1500", makeId: 47, vinStem: "3GCUYDED0LG123456", licensePlate: "CHV1500", licensePlateState: "MI" },
  { baseVehicleId: "5790", vehicleGroupId: "VG1005", year: 2016, make: "Nissan", model: "Altima", makeId: 75, vinStem: "1N4AL3AP0GC123456", licensePlate: "NSN7788", licensePlateState: "FL" },
  { baseVehicleId: "6455", vehicleGroupId: "VG1006", year: 2021, make: "Jeep", model: "Wrangler", makeId: 60, vinStem: "1C4HJXDG0MW123456", licensePlate: "JEEP21", licensePlateState: "CO" },
  { baseVehicleId: "5512", vehicleGroupId: "VG1007", year: 2015, make: "Ram", model: "1500", makeId: 81, vinStem: "1C6RR7LT0FS123456", licensePlate: "RAM1515", licensePlateState: "TX" },
  { baseVehicleId: "6099", vehicleGroupId: "VG1008", year: 2018, make: "Subaru", model: "Outback", makeId: 67, vinStem: "4S4BSANC0J3123456", licensePlate: "SUB4X4", licensePlateState: "WA" },
  { baseVehicleId: "6233", vehicleGroupId: "VG1009", year: 2019, make: "Hyundai", model: "Elantra", makeId: 89, vinStem: "5NPD84LF0KH123456", licensePlate: "HYU9090", licensePlateState: "GA" },
  { baseVehicleId: "5944", vehicleGroupId: "VG1010", year: 2017, make: "GMC", model: "Sierra 1500", makeId: 48, vinStem: "3GTU2NEC0HG123456", licensePlate: "GMC3030", licensePlateState: "OH" },
  { baseVehicleId: "6377", vehicleGroupId: "VG1011", year: 2020, make: "Kia", model: "Sorento", makeId: 88, vinStem: "5XYPG4A30LG123456", licensePlate: "KIA2020", licensePlateState: "AZ" },
  { baseVehicleId: "5401", vehicleGroupId: "VG1012", year: 2014, make: "Volkswagen", model: "Jetta", makeId: 87, vinStem: "3VWD17AJ0EM123456", licensePlate: "VWJ1414", licensePlateState: "IL" },
  { baseVehicleId: "6512", vehicleGroupId: "VG1013", year: 2022, make: "Toyota", model: "RAV4", makeId: 76, vinStem: "2T3P1RFV0NW123456", licensePlate: "RAV4022", licensePlateState: "ON" },
  { baseVehicleId: "6140", vehicleGroupId: "VG1014", year: 2018, make: "Mazda", model: "CX-5", makeId: 73, vinStem: "JM3KFBDM0J0123456", licensePlate: "MZD5555", licensePlateState: "BC" },
  { baseVehicleId: "6290", vehicleGroupId: "VG1015", year: 2019, make: "Dodge", model: "Grand Caravan", makeId: 50, vinStem: "2C4RDGCG0KR123456", licensePlate: "DGC1919", licensePlateState: "QC" },
  { baseVehicleId: "5333", vehicleGroupId: "VG1016", year: 2013, make: "Ford", model: "Escape", makeId: 54, vinStem: "1FMCU0GX0DU123456", licensePlate: "ESC1313", licensePlateState: "PA" }
]

const WAREHOUSES: ReadonlyArray<Warehouse> = [
  { code: "DAL", name: "Dallas DC", country: "US", cutoffHourUtc: 22, deliveryDays: 1 },
  { code: "ATL", name: "Atlanta DC", country: "US", cutoffHourUtc: 21, deliveryDays: 2 },
  { code: "CHI", name: "Chicago DC", country: "US", cutoffHourUtc: 23, deliveryDays: 2 },
  { code: "TOR", name: "Toronto DC", country: "CA", cutoffHourUtc: 21, deliveryDays: 1 },
  { code: "VAN", name: "Vancouver DC", country: "CA", cutoffHourUtc: 23, deliveryDays: 2 },
  { code: "MTL", name: "Montreal DC", country: "CA", cutoffHourUtc: 20, deliveryDays: 2 }
]

const ADDRESSES: ReadonlyArray<DirectoryAddress> = [
  { addressLine1: "100 MAIN ST", city: "AUSTIN", state: "TX", zip: "78701", plus4: "3120", country: "US" },
  { addressLine1: "2500 ELM ST", city: "DALLAS", state: "TX", zip: "75226", plus4: "1504", country: "US" },
  { addressLine1: "44 PEACHTREE RD NE", city: "ATLANTA", state: "GA", zip: "30305", plus4: "2211", country: "US" },
  { addressLine1: "1200 LAKE SHORE DR", city: "CHICAGO", state: "IL", zip: "60610", plus4: "5604", country: "US" },
  { addressLine1: "77 KING ST W", city: "TORONTO", state: "ON", zip: "M5K", plus4: "1A2", country: "CA" }
]

/** Fixed products every seed has, so tests and docs can name them. */
export const FIXED_PRODUCTS = {
  /** A well-stocked oil filter. */
  oilFilter: { productID: "51515", brandID: "WIX" },
  /** A product the distributor cannot price (API0243). */
  unpriced: { productID: "NP1001", brandID: "ACD" },
  /** A SKU that is not stocked (API0232). */
  notStocked: { productID: "NS2002", brandID: "BO" },
  /** Only 2 in stock, in one warehouse per country (API0234 above that). */
  lowStock: { productID: "LS3003", brandID: "MON" }
} as const

export const stockKey = (brandCode: string, productID: string, warehouseCode: string) =>
  `${brandCode}|${productID}|${warehouseCode}`

const round2 = (n: number) => Math.round(n * 100) / 100

/** Builds the catalog for a seed. The fixed products above do not depend on the seed. */
export const makeCatalog = (seed: number): Catalog => {
  const rng = makeRng(seed)
  const brands: Array<Brand> = BRANDS.map((b) => ({
    ...b,
    warrantyHtml: `<h3>${b.name} warranty</h3><p>${b.name} parts are covered by a limited lifetime warranty against defects in materials and workmanship.</p><p>${b.name} has supplied the aftermarket since ${1900 + (b.acaBrandId.charCodeAt(2) % 90)}.</p>`
  }))
  const vehicles: Array<Vehicle> = VEHICLES.map(({ vinStem, ...v }) => ({ ...v, vin: Vin.withCheckDigit(vinStem) }))
  const terminologyBrands = new Map<number, ReadonlyArray<string>>(
    TERMINOLOGIES.map((t) => {
      const start = rng.int(0, brands.length - 1)
      const count = rng.int(3, 5)
      return [t.id, Array.from({ length: count }, (_, i) => brands[(start + i * 3) % brands.length]!.code)]
    })
  )
  const products: Array<Product> = []
  const stock = new Map<string, number>()
  const seen = new Set<string>()
  const addProduct = (product: Product, stockOf: (w: Warehouse) => number) => {
    const key = `${product.brandCode}|${product.productID}`
    if (seen.has(key)) return
    seen.add(key)
    products.push(product)
    for (const w of WAREHOUSES) stock.set(stockKey(product.brandCode, product.productID, w.code), stockOf(w))
  }
  const features = (t: Terminology, brand: string) =>
    `<h3>${brand} ${t.name}</h3><ul><li>Meets or exceeds OE specifications</li><li>Engineered for exact fit</li></ul><p>Specifications: category ${t.category}, terminology ${t.id}.</p>`
  const allVehicleIds = vehicles.map((v) => v.baseVehicleId)
  const term = (id: number) => TERMINOLOGIES.find((t) => t.id === id)!
  addProduct({
    productID: "51515", brandCode: "WIX", terminologyId: 1684, categoryID: "FLT", description: "Oil Filter",
    price: 6.49, listPrice: 9.99, corePrice: 0, weight: 0.8, quality: "Premium", stocked: true,
    fits: allVehicleIds, featuresHtml: features(term(1684), "WIX")
  }, () => 50)
  addProduct({
    productID: "NP1001", brandCode: "ACD", terminologyId: 4336, categoryID: "ELE", description: "Alternator (price on request)",
    price: undefined, listPrice: 0, corePrice: 45, weight: 14.2, quality: "Remanufactured", stocked: true,
    fits: allVehicleIds, featuresHtml: features(term(4336), "ACDelco")
  }, () => 5)
  addProduct({
    productID: "NS2002", brandCode: "BO", terminologyId: 7212, categoryID: "IGN", description: "Ignition Coil (special order)",
    price: 58.9, listPrice: 84.99, corePrice: 0, weight: 0.9, quality: "OE", stocked: false,
    fits: allVehicleIds, featuresHtml: features(term(7212), "Bosch")
  }, () => 0)
  addProduct({
    productID: "LS3003", brandCode: "MON", terminologyId: 7584, categoryID: "SUS", description: "Strut Assembly",
    price: 129.5, listPrice: 189.99, corePrice: 0, weight: 11.4, quality: "Premium", stocked: true,
    fits: allVehicleIds, featuresHtml: features(term(7584), "Monroe")
  }, (w) => (w.code === "DAL" || w.code === "TOR" ? 2 : 0))
  let i = 0
  while (products.length < 340) {
    const t = TERMINOLOGIES[i % TERMINOLOGIES.length]!
    const brandCodes = terminologyBrands.get(t.id)!
    const brandCode = brandCodes[Math.floor(i / TERMINOLOGIES.length) % brandCodes.length]!
    const productID = `${brandCode.slice(0, 2)}${rng.int(10000, 99999)}`
    const base = 5 + rng.next() * (t.category === "ELE" || t.category === "COL" ? 220 : 90)
    const price = round2(base)
    const fits = UNIVERSAL.has(t.id) ? [] : allVehicleIds.filter(() => rng.chance(0.35))
    addProduct({
      productID, brandCode, terminologyId: t.id, categoryID: t.category, description: t.name,
      price, listPrice: round2(price * (1.3 + rng.next() * 0.4)),
      corePrice: t.category === "ELE" && t.id !== 5200 ? round2(10 + rng.next() * 40) : t.id === 5200 ? 18 : 0,
      weight: round2(0.2 + rng.next() * 20), quality: rng.pick(["", "Premium", "OE", "Economy", "Remanufactured"]),
      stocked: true, fits, featuresHtml: features(t, brands.find((b) => b.code === brandCode)!.name)
    }, () => (rng.chance(0.2) ? 0 : rng.int(1, 40)))
    i++
  }
  return {
    brands, categories: CATEGORIES, terminologies: TERMINOLOGIES, vehicles, warehouses: WAREHOUSES,
    products, stock, addresses: ADDRESSES
  }
}
