// The paths the sandbox writes into URLs, pages and its banner, read from the definitions
// (PunchoutApi and OrderManagement in @shoplink/protocol, SandboxApi here): none is written twice.
import { PunchoutApi } from "@shoplink/protocol"
import { SandboxApi } from "../SandboxApi.js"

const endpointPath = (group: "admin" | "ordering" | "docs", name: string): string => {
  const endpoints = SandboxApi.groups[group]?.endpoints as Record<string, { readonly path: string }> | undefined
  const endpoint = endpoints?.[name]
  // A programming error (a renamed endpoint), caught by every test that loads the sandbox.
  if (endpoint === undefined) throw new Error(`SandboxApi has no endpoint ${group}.${name}`)
  return endpoint.path
}

export const PATHS = {
  /** The admin API's index, `/__sandbox`. */
  admin: endpointPath("admin", "index"),
  docs: endpointPath("docs", "docs"),
  punchoutDocument: endpointPath("docs", "punchoutDocument"),
  orderManagementDocument: endpointPath("docs", "orderManagementDocument"),
  sandboxDocument: endpointPath("docs", "sandboxDocument"),
  create: PunchoutApi.route("create").path,
  showCatalog: PunchoutApi.route("ShowCatalog").path,
  showOrder: PunchoutApi.route("ShowOrder").path
} as const

const appAction = endpointPath("ordering", "appAction")

/** The path of one of the ordering pages' form actions (`add`, `remove`, `press`). */
export const appActionPath = (action: "add" | "remove" | "press"): string => appAction.replace(":action", action)
