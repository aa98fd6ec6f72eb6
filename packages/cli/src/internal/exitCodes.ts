// The exit codes as plain data, free of imports so `shoplink --help` can print them without
// loading Effect (ExitCode re-exports them).

export const EXIT_CODES = {
  Ok: 0,
  Failure: 1,
  Usage: 2,
  Auth: 3,
  Distributor: 4,
  Transport: 5
} as const

export const EXIT_CODE_TEXT: ReadonlyArray<readonly [0 | 1 | 2 | 3 | 4 | 5, string]> = [
  [0, "ok"],
  [1, "anything else (an unreadable answer, an unknown shop, key or entry id, an unexpected failure)"],
  [2, "usage or configuration error (bad arguments, missing or invalid setting, input refused)"],
  [3, "authentication error (vendor key, OMS key or customer token refused)"],
  [4, "distributor error: the service answered a message ID (printed, e.g. API0258)"],
  [5, "transport error (connection refused, reset, timeout, 5xx without an answer)"]
]
