// The deterministic seeded catalog: brands, part terminologies, vehicles with fitment,
// warehouses with stock, and the drop-ship address directory.
import { type Values, Vin } from "@shoplink/protocol"
import { makeRng } from "./random.js"

export interface Brand {
  readonly code: string
  readonly acaBrandId: string
  /** The brand's full name (Order Management `brandDescription`), e.g. "NGK Spark Plugs". */
  readonly name: string
  /** How a parts counter writes it before a part type: "NGK" in "NGK Spark Plug". */
  readonly shortName: string
  /** The part terminologies it makes; products are only generated for these. */
  readonly makes: ReadonlyArray<number>
  readonly logo: string
  readonly website: string
  readonly warrantyHtml: string
}

export interface Terminology {
  readonly id: number
  readonly name: string
  readonly category: string
  /** Plausible price range (account currency) of one unit. */
  readonly price: readonly [number, number]
  /** Plausible shipping weight range in pounds. */
  readonly weight: readonly [number, number]
  /** Core charge range for parts sold on exchange (alternators, starters, calipers, batteries). */
  readonly core?: readonly [number, number]
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
  readonly country: Values.CountryCode
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
  /** "Brand PartType" as quotes and orders write `productDesc`, e.g. "WIX Oil Filter". */
  readonly name: string
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
  readonly country: Values.CountryCode
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

// Each brand makes only the part types it is known for: filter makers make filters, Moog makes
// steering and hub parts, NGK ignition parts and sensors; the OE lines (ACDelco, Motorcraft) and a
// store brand (Duralast) cover more.
const BRANDS: ReadonlyArray<Omit<Brand, "warrantyHtml">> = [
  {
    code: "WIX",
    acaBrandId: "BBDF",
    name: "WIX Filters",
    shortName: "WIX",
    logo: "wix",
    website: "https://www.wixfilters.example",
    makes: [1684, 6832, 6836, 5340]
  },
  {
    code: "ACD",
    acaBrandId: "BBHK",
    name: "ACDelco",
    shortName: "ACDelco",
    logo: "acdelco",
    website: "https://www.acdelco.example",
    makes: [1684, 6832, 7600, 7212, 5912, 1896, 1404, 1744, 1052, 1328, 4336, 6928, 5200, 8852]
  },
  {
    code: "BO",
    acaBrandId: "BCZM",
    name: "Bosch",
    shortName: "Bosch",
    logo: "bosch",
    website: "https://www.bosch.example",
    makes: [1684, 5340, 7600, 7212, 5912, 1896, 1404, 4336, 6928, 8852]
  },
  {
    code: "MON",
    acaBrandId: "BBSF",
    name: "Monroe",
    shortName: "Monroe",
    logo: "monroe",
    website: "https://www.monroe.example",
    makes: [7576, 7584]
  },
  {
    code: "MC",
    acaBrandId: "BBKJ",
    name: "Motorcraft",
    shortName: "Motorcraft",
    logo: "motorcraft",
    website: "",
    makes: [1684, 6832, 6836, 7600, 7212, 5912, 1896, 1404, 4472, 1052, 1328, 4336, 6928, 5200, 8852]
  },
  {
    code: "NGK",
    acaBrandId: "BBTL",
    name: "NGK Spark Plugs",
    shortName: "NGK",
    logo: "ngk",
    website: "https://www.ngk.example",
    makes: [7600, 7212, 5912]
  },
  {
    code: "DEN",
    acaBrandId: "BBFL",
    name: "Denso",
    shortName: "Denso",
    logo: "denso",
    website: "https://www.denso.example",
    makes: [6836, 7600, 7212, 5912, 1052, 5588, 4336, 6928, 8852]
  },
  {
    code: "GAT",
    acaBrandId: "BBGN",
    name: "Gates",
    shortName: "Gates",
    logo: "gates",
    website: "https://www.gates.example",
    makes: [4472, 4468, 1052, 1328]
  },
  {
    code: "MOO",
    acaBrandId: "BBSN",
    name: "Moog Chassis",
    shortName: "Moog",
    logo: "moog",
    website: "https://www.moog.example",
    makes: [7040, 7320, 1184]
  },
  {
    code: "DAY",
    acaBrandId: "BBJC",
    name: "Dayco",
    shortName: "Dayco",
    logo: "dayco",
    website: "",
    makes: [4472, 4468]
  },
  {
    code: "CHA",
    acaBrandId: "BBDH",
    name: "Champion",
    shortName: "Champion",
    logo: "champion",
    website: "https://www.champion.example",
    makes: [7600, 8852]
  },
  {
    code: "FRA",
    acaBrandId: "BBMW",
    name: "FRAM",
    shortName: "FRAM",
    logo: "fram",
    website: "https://www.fram.example",
    makes: [1684, 6832, 6836, 5340]
  },
  {
    code: "KYB",
    acaBrandId: "BCKQ",
    name: "KYB Americas",
    shortName: "KYB",
    logo: "kyb",
    website: "https://www.kyb.example",
    makes: [7576, 7584]
  },
  {
    code: "DL",
    acaBrandId: "BDPT",
    name: "Duralast",
    shortName: "Duralast",
    logo: "duralast",
    website: "",
    makes: [1896, 1404, 1744, 1052, 1328, 5588, 7040, 7320, 1184, 4336, 6928, 5200]
  }
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

// Price (USD/CAD per unit) and weight (lb) ranges as a parts counter would quote them.
const TERMINOLOGIES: ReadonlyArray<Terminology> = [
  { id: 1684, name: "Oil Filter", category: "FLT", price: [4, 15], weight: [0.5, 1.5] },
  { id: 6832, name: "Engine Air Filter", category: "FLT", price: [10, 35], weight: [0.5, 2] },
  { id: 6836, name: "Cabin Air Filter", category: "FLT", price: [12, 35], weight: [0.3, 1] },
  { id: 5340, name: "Fuel Filter", category: "FLT", price: [10, 60], weight: [0.4, 2] },
  { id: 1896, name: "Disc Brake Pad Set", category: "BRK", price: [25, 95], weight: [2, 6] },
  { id: 1404, name: "Disc Brake Rotor", category: "BRK", price: [35, 160], weight: [10, 30] },
  { id: 1744, name: "Disc Brake Caliper", category: "BRK", price: [45, 180], weight: [5, 15], core: [10, 35] },
  { id: 7600, name: "Spark Plug", category: "IGN", price: [3, 18], weight: [0.1, 0.25] },
  { id: 7212, name: "Ignition Coil", category: "IGN", price: [30, 120], weight: [0.5, 2] },
  { id: 5912, name: "Oxygen Sensor", category: "EMS", price: [35, 150], weight: [0.3, 0.8] },
  { id: 4472, name: "Serpentine Belt", category: "BLT", price: [18, 65], weight: [0.5, 2] },
  { id: 4468, name: "Timing Belt", category: "BLT", price: [25, 90], weight: [0.3, 1] },
  { id: 1052, name: "Engine Water Pump", category: "COL", price: [40, 200], weight: [2, 8] },
  { id: 1328, name: "Engine Coolant Thermostat", category: "COL", price: [10, 45], weight: [0.2, 1] },
  { id: 5588, name: "Radiator", category: "COL", price: [110, 420], weight: [10, 30] },
  { id: 7576, name: "Shock Absorber", category: "SUS", price: [30, 120], weight: [3, 8] },
  { id: 7584, name: "Suspension Strut Assembly", category: "SUS", price: [90, 260], weight: [10, 25] },
  { id: 7040, name: "Suspension Ball Joint", category: "STE", price: [20, 90], weight: [1, 3] },
  { id: 7320, name: "Steering Tie Rod End", category: "STE", price: [15, 70], weight: [1, 3] },
  { id: 1184, name: "Wheel Bearing and Hub Assembly", category: "DRV", price: [60, 220], weight: [5, 15] },
  { id: 4336, name: "Alternator", category: "ELE", price: [140, 420], weight: [10, 20], core: [20, 60] },
  { id: 6928, name: "Starter Motor", category: "ELE", price: [110, 380], weight: [7, 15], core: [20, 60] },
  { id: 5200, name: "Vehicle Battery", category: "ELE", price: [110, 260], weight: [30, 55], core: [18, 18] },
  { id: 8852, name: "Windshield Wiper Blade", category: "ACC", price: [8, 35], weight: [0.3, 1] }
]

// Only parts sold on exchange come remanufactured.
const REMANUFACTURABLE = new Set([1744, 4336, 6928])

// Universal parts fit every vehicle.
const UNIVERSAL = new Set([5200, 8852])

// VINs are given with a placeholder check digit; withCheckDigit makes them valid.
const VEHICLES: ReadonlyArray<Omit<Vehicle, "vin"> & { readonly vinStem: string }> = [
  {
    baseVehicleId: "5678",
    vehicleGroupId: "VG1001",
    year: 2019,
    make: "Ford",
    model: "F-150",
    makeId: 54,
    vinStem: "1FTEW1E50KFA12345",
    licensePlate: "8ABC123",
    licensePlateState: "CA"
  },
  {
    baseVehicleId: "6021",
    vehicleGroupId: "VG1002",
    year: 2018,
    make: "Toyota",
    model: "Camry",
    makeId: 76,
    vinStem: "4T1B11HK0JU512345",
    licensePlate: "TXK4521",
    licensePlateState: "TX"
  },
  {
    baseVehicleId: "6188",
    vehicleGroupId: "VG1003",
    year: 2017,
    make: "Honda",
    model: "Civic",
    makeId: 59,
    vinStem: "2HGFC2F50HH512345",
    licensePlate: "HND2017",
    licensePlateState: "NY"
  },
  {
    baseVehicleId: "6342",
    vehicleGroupId: "VG1004",
    year: 2020,
    make: "Chevrolet",
    model: "Silverado 1500",
    makeId: 47,
    vinStem: "3GCUYDED0LG123456",
    licensePlate: "CHV1500",
    licensePlateState: "MI"
  },
  {
    baseVehicleId: "5790",
    vehicleGroupId: "VG1005",
    year: 2016,
    make: "Nissan",
    model: "Altima",
    makeId: 75,
    vinStem: "1N4AL3AP0GC123456",
    licensePlate: "NSN7788",
    licensePlateState: "FL"
  },
  {
    baseVehicleId: "6455",
    vehicleGroupId: "VG1006",
    year: 2021,
    make: "Jeep",
    model: "Wrangler",
    makeId: 60,
    vinStem: "1C4HJXDG0MW123456",
    licensePlate: "JEEP21",
    licensePlateState: "CO"
  },
  {
    baseVehicleId: "5512",
    vehicleGroupId: "VG1007",
    year: 2015,
    make: "Ram",
    model: "1500",
    makeId: 81,
    vinStem: "1C6RR7LT0FS123456",
    licensePlate: "RAM1515",
    licensePlateState: "TX"
  },
  {
    baseVehicleId: "6099",
    vehicleGroupId: "VG1008",
    year: 2018,
    make: "Subaru",
    model: "Outback",
    makeId: 67,
    vinStem: "4S4BSANC0J3123456",
    licensePlate: "SUB4X4",
    licensePlateState: "WA"
  },
  {
    baseVehicleId: "6233",
    vehicleGroupId: "VG1009",
    year: 2019,
    make: "Hyundai",
    model: "Elantra",
    makeId: 89,
    vinStem: "5NPD84LF0KH123456",
    licensePlate: "HYU9090",
    licensePlateState: "GA"
  },
  {
    baseVehicleId: "5944",
    vehicleGroupId: "VG1010",
    year: 2017,
    make: "GMC",
    model: "Sierra 1500",
    makeId: 48,
    vinStem: "3GTU2NEC0HG123456",
    licensePlate: "GMC3030",
    licensePlateState: "OH"
  },
  {
    baseVehicleId: "6377",
    vehicleGroupId: "VG1011",
    year: 2020,
    make: "Kia",
    model: "Sorento",
    makeId: 88,
    vinStem: "5XYPG4A30LG123456",
    licensePlate: "KIA2020",
    licensePlateState: "AZ"
  },
  {
    baseVehicleId: "5401",
    vehicleGroupId: "VG1012",
    year: 2014,
    make: "Volkswagen",
    model: "Jetta",
    makeId: 87,
    vinStem: "3VWD17AJ0EM123456",
    licensePlate: "VWJ1414",
    licensePlateState: "IL"
  },
  {
    baseVehicleId: "6512",
    vehicleGroupId: "VG1013",
    year: 2022,
    make: "Toyota",
    model: "RAV4",
    makeId: 76,
    vinStem: "2T3P1RFV0NW123456",
    licensePlate: "RAV4022",
    licensePlateState: "ON"
  },
  {
    baseVehicleId: "6140",
    vehicleGroupId: "VG1014",
    year: 2018,
    make: "Mazda",
    model: "CX-5",
    makeId: 73,
    vinStem: "JM3KFBDM0J0123456",
    licensePlate: "MZD5555",
    licensePlateState: "BC"
  },
  {
    baseVehicleId: "6290",
    vehicleGroupId: "VG1015",
    year: 2019,
    make: "Dodge",
    model: "Grand Caravan",
    makeId: 50,
    vinStem: "2C4RDGCG0KR123456",
    licensePlate: "DGC1919",
    licensePlateState: "QC"
  },
  {
    baseVehicleId: "5333",
    vehicleGroupId: "VG1016",
    year: 2013,
    make: "Ford",
    model: "Escape",
    makeId: 54,
    vinStem: "1FMCU0GX0DU123456",
    licensePlate: "ESC1313",
    licensePlateState: "PA"
  }
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
    warrantyHtml:
      `<h3>${b.name} warranty</h3><p>${b.name} parts are covered by a limited lifetime warranty against defects in materials and workmanship.</p><p>${b.name} has supplied the aftermarket since ${
        1900 + (b.acaBrandId.charCodeAt(2) % 90)
      }.</p>`
  }))
  const vehicles: Array<Vehicle> = VEHICLES.map(({ vinStem, ...v }) => ({ ...v, vin: Vin.withCheckDigit(vinStem) }))
  const brandByCode = new Map(brands.map((b) => [b.code, b]))
  // The seed rotates which maker comes first for each part type; the set of makers is fixed.
  const makersOf = new Map<number, ReadonlyArray<Brand>>(
    TERMINOLOGIES.map((t) => {
      const makers = brands.filter((b) => b.makes.includes(t.id))
      const start = rng.int(0, makers.length - 1)
      return [t.id, makers.map((_, i) => makers[(start + i) % makers.length]!)]
    })
  )
  const products: Array<Product> = []
  const stock = new Map<string, number>()
  const seen = new Set<string>()
  const addProduct = (product: Omit<Product, "name">, stockOf: (w: Warehouse) => number) => {
    const key = `${product.brandCode}|${product.productID}`
    if (seen.has(key)) return
    seen.add(key)
    products.push({ ...product, name: `${brandByCode.get(product.brandCode)!.shortName} ${product.description}` })
    for (const w of WAREHOUSES) stock.set(stockKey(product.brandCode, product.productID, w.code), stockOf(w))
  }
  const features = (t: Terminology, brand: string) =>
    `<h3>${brand} ${t.name}</h3><ul><li>Meets or exceeds OE specifications</li><li>Engineered for exact fit</li></ul><p>Specifications: category ${t.category}, terminology ${t.id}.</p>`
  const allVehicleIds = vehicles.map((v) => v.baseVehicleId)
  const term = (id: number) => TERMINOLOGIES.find((t) => t.id === id)!
  addProduct({
    productID: "51515",
    brandCode: "WIX",
    terminologyId: 1684,
    categoryID: "FLT",
    description: "Oil Filter",
    price: 6.49,
    listPrice: 9.99,
    corePrice: 0,
    weight: 0.8,
    quality: "Premium",
    stocked: true,
    fits: allVehicleIds,
    featuresHtml: features(term(1684), "WIX")
  }, () => 50)
  addProduct({
    productID: "NP1001",
    brandCode: "ACD",
    terminologyId: 4336,
    categoryID: "ELE",
    description: "Alternator (price on request)",
    price: undefined,
    listPrice: 0,
    corePrice: 45,
    weight: 14.2,
    quality: "Remanufactured",
    stocked: true,
    fits: allVehicleIds,
    featuresHtml: features(term(4336), "ACDelco")
  }, () => 5)
  addProduct({
    productID: "NS2002",
    brandCode: "BO",
    terminologyId: 7212,
    categoryID: "IGN",
    description: "Ignition Coil (special order)",
    price: 58.9,
    listPrice: 84.99,
    corePrice: 0,
    weight: 0.9,
    quality: "OE",
    stocked: false,
    fits: allVehicleIds,
    featuresHtml: features(term(7212), "Bosch")
  }, () => 0)
  addProduct({
    productID: "LS3003",
    brandCode: "MON",
    terminologyId: 7584,
    categoryID: "SUS",
    description: "Strut Assembly",
    price: 129.5,
    listPrice: 189.99,
    corePrice: 0,
    weight: 11.4,
    quality: "Premium",
    stocked: true,
    fits: allVehicleIds,
    featuresHtml: features(term(7584), "Monroe")
  }, (w) => (w.code === "DAL" || w.code === "TOR" ? 2 : 0))
  const within = ([lo, hi]: readonly [number, number]) => round2(lo + rng.next() * (hi - lo))
  let i = 0
  while (products.length < 340) {
    const t = TERMINOLOGIES[i % TERMINOLOGIES.length]!
    const makers = makersOf.get(t.id)!
    const brand = makers[Math.floor(i / TERMINOLOGIES.length) % makers.length]!
    const productID = `${brand.code.slice(0, 2)}${rng.int(10000, 99999)}`
    const price = within(t.price)
    const fits = UNIVERSAL.has(t.id) ? [] : allVehicleIds.filter(() => rng.chance(0.35))
    const qualities = REMANUFACTURABLE.has(t.id)
      ? ["", "Premium", "OE", "Remanufactured"]
      : ["", "Premium", "OE", "Economy"]
    addProduct({
      productID,
      brandCode: brand.code,
      terminologyId: t.id,
      categoryID: t.category,
      description: t.name,
      price,
      listPrice: round2(price * (1.3 + rng.next() * 0.4)),
      // Whole-dollar exchange charges, as counters quote cores.
      corePrice: t.core === undefined ? 0 : Math.round(within(t.core)),
      weight: within(t.weight),
      quality: rng.pick(qualities),
      stocked: true,
      fits,
      featuresHtml: features(t, brand.name)
    }, () => (rng.chance(0.2) ? 0 : rng.int(1, 40)))
    i++
  }
  return {
    brands,
    categories: CATEGORIES,
    terminologies: TERMINOLOGIES,
    vehicles,
    warehouses: WAREHOUSES,
    products,
    stock,
    addresses: ADDRESSES
  }
}
