//go:build dev

package desktop

import (
	"os"
	"path/filepath"
)

// exportTarget lets the browser-driven e2e flows (which cannot answer a
// native dialog) export into PI_E2E_EXPORT_DIR; dev builds only.
func exportTarget(name string) string {
	if dir := os.Getenv("PI_E2E_EXPORT_DIR"); dir != "" {
		return filepath.Join(dir, name)
	}
	return ""
}
