package plugin

import (
	"context"
	"fmt"
	"os"
	"slices"
	"strings"

	"github.com/pi-desktop/pi-desktop/backend/errs"
	"github.com/pi-desktop/pi-desktop/backend/mcp"
)

// CheckReport is what Check found: the plugin's summary (when its
// manifest parsed), the tools its process listed, and every problem.
type CheckReport struct {
	Summary  *Summary  `json:"summary,omitempty"`
	Listed   []string  `json:"listed"`
	Problems []Problem `json:"problems"`
	// Started says the plugin's process ran and answered the MCP handshake.
	Started bool `json:"started"`
}

// OK reports a plugin with no problem.
func (r CheckReport) OK() bool { return len(r.Problems) == 0 }

// Check validates the plugin folder dir as install and the runtime would:
// the folder's entries and limits, the manifest (schema, names, risks and
// planSafeActions), and, when it declares tools, that its process starts
// with the runtime's environment and load timeout and lists each declared
// tool. Problems are reported, not returned as errors; only ctx's end is
// an error. It runs the plugin's process: call it only for a folder the
// user asked to check.
func Check(ctx context.Context, dir string, o RuntimeOptions) (CheckReport, error) {
	rep := CheckReport{Listed: []string{}, Problems: []Problem{}}
	problem := func(err error) { rep.Problems = append(rep.Problems, problemOf(err)) }
	files, err := scanFolder(dir)
	if err != nil {
		problem(err)
		return rep, nil
	}
	data, err := readManifest(os.DirFS(dir), files)
	if err != nil {
		problem(err)
		return rep, nil
	}
	// Every manifest problem at once: an author fixes them in one pass.
	m, list := ValidateManifest(data)
	if len(list) > 0 {
		rep.Problems = append(rep.Problems, list...)
		return rep, nil
	}
	sum := Describe(m, files, ConsentHash(data, files))
	rep.Summary = &sum
	// A risk that defaults to medium installs, but is the author's mistake.
	for i, w := range m.Warnings {
		rep.Problems = append(rep.Problems, Problem{Field: m.warningFields[i], Message: w})
	}
	if len(m.Tools) == 0 {
		return rep, nil
	}
	env := []string(nil)
	if o.Environ != nil {
		if env, err = o.Environ(ctx); err != nil {
			return rep, err
		}
	}
	s := mcp.Server{ID: InternalName(m.ID, "check"), Transport: mcp.TransportStdio, Command: commandPath(dir, m.Command),
		Args: m.Args, Enabled: true, ConnectTimeout: LoadTimeout, CallTimeout: ToolTimeout}
	log := &tailLog{max: logSize}
	conn, err := mcp.ConnectStdio(ctx, s, mcp.StdioOptions{BaseEnv: env, Dir: dir, RunnerExe: o.RunnerExe, Stderr: log})
	if err != nil {
		if ctx.Err() != nil {
			return rep, context.Cause(ctx)
		}
		problem(crashed(m.ID, "its process did not start and complete the MCP handshake within "+LoadTimeout.String(), log.tail(tailLines), err))
		return rep, nil
	}
	defer conn.Close()
	rep.Started = true
	listed, err := conn.Tools(ctx)
	if err != nil {
		problem(errs.Wrap(err, errs.PluginInvalid, "its process did not list its tools: %v", err))
		return rep, nil
	}
	for _, t := range listed {
		rep.Listed = append(rep.Listed, t.Name)
	}
	for i, t := range m.Tools {
		if !slices.Contains(rep.Listed, t.Name) {
			rep.Problems = append(rep.Problems, Problem{Field: toolPath(i, "name"),
				Message: fmt.Sprintf("%q is declared but its process does not list it (it lists: %s); serve it or remove it from plugin.json", t.Name, listText(rep.Listed))})
		}
	}
	return rep, nil
}

func listText(names []string) string {
	if len(names) == 0 {
		return "nothing"
	}
	return strings.Join(names, ", ")
}
