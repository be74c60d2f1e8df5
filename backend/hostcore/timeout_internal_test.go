package hostcore

import (
	"strings"
	"testing"
	"time"

	"github.com/pi-desktop/pi-desktop/backend/errs"
	"github.com/pi-desktop/pi-desktop/backend/tools"
)

// A timed-out read-class call names the next step that fits its tool.
func TestTimedOutNamesTheToolsNextStep(t *testing.T) {
	cases := []struct {
		name, tool, want string
	}{
		{"a search narrows its scope", "Grep", "Grep did not finish within 30s; narrow the path or pattern and retry"},
		{"a preview checks the page", tools.BrowserPreview, "BrowserPreview did not finish within 30s; check that the page loads in a browser (or that the dev server answers) and retry"},
	}
	specs := map[string]tools.Spec{tools.BrowserPreview: tools.NewBrowserPreviewTool(nil).Spec()}
	for _, tool := range tools.Builtins(tools.Options{}) {
		specs[tool.Spec().Name] = tool.Spec()
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			spec, ok := specs[c.tool]
			if !ok {
				t.Fatalf("no spec for %s", c.tool)
			}
			spec.Timeout = 30 * time.Second
			p := errs.ToPayload(timedOut(spec))
			if p.Code != errs.ToolTimeout || !strings.HasPrefix(p.Message, c.want) {
				t.Errorf("timedOut(%s) = %s %q, want %s %q", c.tool, p.Code, p.Message, errs.ToolTimeout, c.want)
			}
		})
	}
}
