// The default config file, looked up in the current directory when `--config` is not given. Its
// own module, free of imports, so the help text can name it even when nothing else loads.
export const DEFAULT_CONFIG_FILE = "shoplink.config.json"
