package tools

import (
	"github.com/pi-desktop/pi-desktop/backend/errs"
	"github.com/pi-desktop/pi-desktop/backend/pathguard"
	"github.com/pi-desktop/pi-desktop/backend/viz"
)

// checkVizName enforces spec §4b.1 for every change in the visualization
// folder (Write, Edit and Edit's MV destination): only a single-component
// .html name may be written there.
func checkVizName(t pathguard.Resolved) error {
	if t.Root == pathguard.Visualization && !viz.ValidFileName(t.Rel) {
		return errs.New(errs.InvalidArgument, "the visualization folder takes only single .html files with plain names such as chart.html, not %s", t.Rel).With("field", "path")
	}
	return nil
}
