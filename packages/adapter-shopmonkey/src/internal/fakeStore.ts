// The state of the fake Shopmonkey API: rows keyed by id with the public field names, each row
// owned by one company (`companyId`), seeded with two companies whose repair orders' vehicles are
// the sandbox's fixture vehicles. Ids are unique across companies, as Shopmonkey's are.

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
export const SECOND_COMPANY_ID = "cmp_fake_0002"
export const SECOND_LOCATION_ID = "loc_fake_north"
const SEED_DATE = "2026-01-05T15:00:00.000Z"

// The sandbox catalog's VINs (packages/sandbox/src/internal/catalog.ts), check digit included;
// test/fakeStore.test.ts checks they still match it.
export const SEED_VEHICLES = {
  fordF150: {
    year: 2019,
    make: "Ford",
    model: "F-150",
    vin: "1FTEW1E56KFA12345",
    licensePlate: "8ABC123",
    licensePlateState: "CA"
  },
  toyotaCamry: { year: 2018, make: "Toyota", model: "Camry", licensePlate: "TXK4521", licensePlateState: "TX" },
  hondaCivic: { year: 2017, make: "Honda", model: "Civic" },
  chevroletSilverado: {
    year: 2020,
    make: "Chevrolet",
    model: "Silverado 1500",
    vin: "3GCUYDED2LG123456",
    licensePlate: "CHV1500",
    licensePlateState: "MI"
  }
} as const

// The second company's vehicles are other sandbox catalog vehicles, so a launch from it finds them.
export const SECOND_SEED_VEHICLES = {
  nissanAltima: {
    year: 2016,
    make: "Nissan",
    model: "Altima",
    vin: "1N4AL3APXGC123456",
    licensePlate: "NSN7788",
    licensePlateState: "FL"
  },
  jeepWrangler: { year: 2021, make: "Jeep", model: "Wrangler", licensePlate: "JEEP21", licensePlateState: "CO" },
  subaruOutback: { year: 2018, make: "Subaru", model: "Outback" }
} as const

interface SeedVehicle {
  readonly year?: number
  readonly make?: string
  readonly model?: string
  readonly vin?: string
  readonly licensePlate?: string
  readonly licensePlateState?: string
}

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
  const seedCompany = (companyId: string, locationId: string) => {
    const base = (id: string) => ({ id, companyId, createdDate: SEED_DATE, updatedDate: SEED_DATE, metadata: null })
    return {
      vehicle: (id: string, v: SeedVehicle) =>
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
        }),
      customer: (id: string, c: { firstName?: string; lastName?: string; companyName?: string }) =>
        put(tables.customer, {
          ...base(id),
          firstName: c.firstName ?? null,
          lastName: c.lastName ?? null,
          companyName: c.companyName ?? null,
          customerType: c.companyName === undefined ? "Customer" : "Fleet",
          note: ""
        }),
      order: (
        id: string,
        number: number,
        name: string,
        vehicleId: string | null,
        customerId: string | null,
        archived = false
      ) =>
        put(tables.order, {
          ...base(id),
          locationId,
          number,
          name,
          vehicleId,
          customerId,
          workflowStatusId: "wfs_estimate",
          purchaseOrderNumber: null,
          archived,
          invoiced: false,
          paid: false
        }),
      vendor: (id: string, name: string) => put(tables.vendor, { ...base(id), locationId, name })
    }
  }

  const first = seedCompany(COMPANY_ID, LOCATION_ID)
  first.vehicle("veh_ford_f150", SEED_VEHICLES.fordF150)
  first.vehicle("veh_toyota_camry", SEED_VEHICLES.toyotaCamry)
  first.vehicle("veh_honda_civic", SEED_VEHICLES.hondaCivic)
  first.vehicle("veh_chevrolet_silverado", SEED_VEHICLES.chevroletSilverado)
  first.customer("cus_dana_reyes", { firstName: "Dana", lastName: "Reyes" })
  first.customer("cus_sam_okafor", { firstName: "Sam", lastName: "Okafor" })
  first.customer("cus_lee_park", { firstName: "Lee", lastName: "Park" })
  first.customer("cus_northern_fleet", { companyName: "Northern Garage Fleet" })
  first.order("ord_1042", 1042, "Brake noise front", "veh_ford_f150", "cus_dana_reyes")
  first.order("ord_1043", 1043, "Oil change", "veh_toyota_camry", "cus_sam_okafor")
  first.order("ord_1044", 1044, "Check engine light", "veh_honda_civic", "cus_lee_park")
  first.order("ord_1045", 1045, "Fleet service", "veh_chevrolet_silverado", "cus_northern_fleet")
  first.order("ord_1046", 1046, "Walk-in, vehicle not yet recorded", null, null)
  for (let i = 0; i < extraOrders; i++) {
    first.order(`ord_bulk_${String(i).padStart(4, "0")}`, 2000 + i, `Archived order ${i}`, null, null, true)
  }
  first.vendor("ven_napa", "NAPA Auto Parts")
  first.vendor("ven_worldpac", "Worldpac")
  first.vendor("ven_local", "Local Tire Supply")

  const second = seedCompany(SECOND_COMPANY_ID, SECOND_LOCATION_ID)
  second.vehicle("veh_nissan_altima", SECOND_SEED_VEHICLES.nissanAltima)
  second.vehicle("veh_jeep_wrangler", SECOND_SEED_VEHICLES.jeepWrangler)
  second.vehicle("veh_subaru_outback", SECOND_SEED_VEHICLES.subaruOutback)
  second.customer("cus_riley_chen", { firstName: "Riley", lastName: "Chen" })
  second.customer("cus_morgan_diaz", { firstName: "Morgan", lastName: "Diaz" })
  second.customer("cus_harbor_body", { companyName: "Harbor Auto Body" })
  second.order("ord_5201", 5201, "Front brakes", "veh_nissan_altima", "cus_riley_chen")
  second.order("ord_5202", 5202, "Battery replacement", "veh_jeep_wrangler", "cus_morgan_diaz")
  second.order("ord_5203", 5203, "Cabin air filter", "veh_subaru_outback", "cus_harbor_body")
  second.vendor("ven_north_napa", "NAPA Auto Parts")
  second.vendor("ven_north_carquest", "Carquest")
  return tables
}
