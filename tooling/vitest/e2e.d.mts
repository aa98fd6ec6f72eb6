import type { UserConfig } from "vitest/config"

/** Browser tests in `test-e2e/`, one at a time, with room for a browser's start-up. */
export declare const defineShoplinkE2eConfig: (overrides?: UserConfig) => UserConfig

/** The flags Chromium runs headless with. */
export declare const CHROMIUM_ARGS: ReadonlyArray<string>

/** Options for playwright-core's `chromium.launch`: `CHROMIUM_PATH` or /usr/bin/chromium, with `CHROMIUM_ARGS`. */
export declare const chromiumLaunchOptions: () => { readonly executablePath: string; readonly args: Array<string> }
