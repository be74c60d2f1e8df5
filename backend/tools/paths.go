package tools

import (
	"path"
	"path/filepath"

	"github.com/pi-desktop/pi-desktop/backend/pathguard"
)

// DisplayPath is how a resolved path appears to the model: workspace paths
// are '/'-separated and relative; scratch, visualization and external paths
// are absolute, because the model addresses those roots by absolute path.
func DisplayPath(r pathguard.Resolved) string {
	if r.Root == pathguard.Workspace {
		return r.Rel
	}
	return filepath.ToSlash(r.Abs)
}

// joinDisplay appends a '/'-separated result path to a display directory.
func joinDisplay(dir, rel string) string {
	if dir == "." || dir == "" {
		return rel
	}
	return path.Join(dir, rel)
}
