// This client's settings refused when its layer is built: `@shoplink/http`'s `ConfigurationError`,
// naming the client in its message.
import { InvalidInput } from "@shoplink/http"

export const configurationError = (setting: string, problem: string): InvalidInput.ConfigurationError =>
  new InvalidInput.ConfigurationError({ client: "Order Management", setting, problem })
