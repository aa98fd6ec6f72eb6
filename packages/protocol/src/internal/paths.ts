// The two APIs' path prefixes, written once: the definitions (PunchoutApi, OrderManagementApi) and
// `OrderManagement.basePath` build on them.
export const PUNCHOUT_BASE = "/punchout/v1"
export const OMS_SERVICES = "/web/services"
