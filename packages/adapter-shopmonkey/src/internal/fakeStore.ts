// The state of the fake Shopmonkey API: rows keyed by id with the public field names, seeded with
// repair orders whose vehicles are the sandbox's fixture vehicles.
import { Vin } from "@shoplink/protocol"

export type Row = Record<string, unknown> & { readonly id: string }

export interface Tables {
  readonly order: Map<string, Row>
  readonly vehicle: Map<string, Row>
  readonly customer: Map<string, Row>
  readonly service: Map<string, Row>
  readonly part: Map<string, Row>
  readonly vendor: Map<string, Row>
}

export const COMPANY_ID = "cmp_fake_0001"
export const LOCATION_ID = "loc_fake_main"
const SEED_DATE = "2026-01-05T15:00:00.000Z"

const base = (id: string) => ({ id, companyId: COMPANY_ID, createdDate: SEED_DATE, updatedDate: SEED_DATE, metadata: null })

// The same VIN stems as the sandbox catalog (packages/sandbox/src/internal/catalog.ts).
export const SEED_VEHICLES = {
  fordF150: { year: 2019, make: "Ford", model: "F-150", vin: Vin.withCheckDigit("1FTEW1E50KFA12345"), licensePlate: "8ABC123", licensePlateState: "CA" },
  toyotaCamry: { year: 2018, make: "Toyota", model: "Camry", licensePlate: "TXK4521", licensePlateState: "TX" },
  hondaCivic: { year: 2017, make: "Honda", model: "Civic" },
  chevroletSilverado: { year: 2020, make: "Chevrolet", model: "Silverado 1500", vin: Vin.withCheckDigit("3GCUYDED0LG123456"), licensePlate: "CHV1500", licensePlateState: "MI" }
} as const

export const seedTables = (extraOrders: number): Tables => {
  const tables: Tables = {
    order: new Map(),
    vehicle: new Map(),
    customer: new Map(),
    service: new Map(),
    part: new Map(),
    vendor: new Map()
  }
  const put = (table: Map<string, Row>, row: Row) => table.set(row.id, row)
  const vehicle = (id: string, v: { year?: number; make?: string; model?: string; vin?: string; licensePlate?: string; licensePlateState?: string }) =>
    put(tables.vehicle, {
      ...base(id),
      vin: v.vin ?? null,
      licensePlate: v.licensePlate ?? null,
      licensePlateState: v.licensePlateState ?? null,
      licensePlateCountry: "US",
      year: v.year ?? null,
      make: v.make ?? null,
      model: v.model ?? null,
      submodel: null,
      mileageUnit: "Miles",
      note: ""
    })
  vehicle("veh_ford_f150", SEED_VEHICLES.fordF150)
  vehicle("veh_toyota_camry", SEED_VEHICLES.toyotaCamry)
  vehicle("veh_honda_civic", SEED_VEHICLES.hondaCivic)
  vehicle("veh_chevrolet_silverado", SEED_VEHICLES.chevroletSilverado)
  const customer = (id: string, c: { firstName?: string; lastName?: string; companyName?: string }) =>
    put(tables.customer, {
      ...base(id),
      firstName: c.firstName ?? null,
      lastName: c.lastName ?? null,
      companyName: c.companyName ?? null,
      customerType: c.companyName === undefined ? "Customer" : "Fleet",
      note: ""
    })
  customer("cus_dana_reyes", { firstName: "Dana", lastName: "Reyes" })
  customer("cus_sam_okafor", { firstName: "Sam", lastName: "Okafor" })
  customer("cus_lee_park", { firstName: "Lee", lastName: "Park" })
  customer("cus_northern_fleet", { companyName: "Northern Garage Fleet" })
  const order = (id: string, number: number, name: string, vehicleId: string | null, customerId: string | null) =>
    put(tables.order, {
      ...base(id),
      locationId: LOCATION_ID,
      number,
      name,
      vehicleId,
      customerId,
      workflowStatusId: "wfs_estimate",
      purchaseOrderNumber: null,
      archived: false,
      invoiced: false,
      paid: false
    })
  order("ord_1042", 1042, "Brake noise front", "veh_ford_f150", "cus_dana_reyes")
  order("ord_1043", 1043, "Oil change", "veh_toyota_camry", "cus_sam_okafor")
  order("ord_1044", 1044, "Check engine light", "veh_honda_civic", "cus_lee_park")
  order("ord_1045", 1045, "Fleet service", "veh_chevrolet_silverado", "cus_northern_fleet")
  order("ord_1046", 1046, "Walk-in, vehicle not yet recorded", null, null)
  for (let i = 0; i < extraOrders; i++) {
    order(`ord_bulk_${String(i).padStart(4, "0")}`, 2000 + i, `Archived order ${i}`, null, null)
  }
  for (const [id, name] of [["ven_napa", "NAPA Auto Parts"], ["ven_worldpac", "Worldpac"], ["ven_local", "Local Tire Supply"]] as const) {
    put(tables.vendor, { ...base(id), locationId: LOCATION_ID, name })
  }
  return tables
}
