//go:build dev

package desktop

import "os"

// pluginSource lets the browser-driven e2e flows (which cannot answer a
// native dialog) install PI_E2E_PLUGIN_PATH; dev builds only.
func pluginSource() string { return os.Getenv("PI_E2E_PLUGIN_PATH") }
