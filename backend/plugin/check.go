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
	// Held says its process was not started: install would refuse the
	// folder or its manifest, so starting it would prove nothing.
	Held bool `json:"held,omitempty"`
}

// OK reports a plugin with no problem.
func (r CheckReport) OK() bool { return len(r.Problems) == 0 }

// Check validates the plugin folder dir as install and the runtime would,
// and reports every problem it finds, in a stable order: the folder's
// entries and limits (by path), the manifest (schema, names, risks and
// planSafeActions, in field order), the skills/, subagents/ and commands/
// files the app would not use (by path), then, when it declares tools and
// nothing above would stop install, that its process starts with the
// runtime's environment and load timeout and lists each declared tool.
// Problems are reported, not returned as errors; only ctx's end is an
// error. It runs the plugin's process: call it only for a folder the user
// asked to check.
func Check(ctx context.Context, dir string, o RuntimeOptions) (CheckReport, error) {
	rep := CheckReport{Listed: []string{}, Problems: []Problem{}}
	problem := func(err error) { rep.Problems = append(rep.Problems, problemOf(err)) }
	files, scanned := scanAll(dir)
	rep.Problems = append(rep.Problems, scanned...)
	if len(scanned) == 1 && scanned[0].File == "" && len(files) == 0 {
		return rep, nil // the folder itself cannot be read
	}
	// A plugin.json that is a link or a device was reported by the scan.
	var m Manifest
	valid := false
	if !slices.ContainsFunc(scanned, func(p Problem) bool { return p.File == ManifestName }) {
		data, err := readManifest(os.DirFS(dir), files)
		if err != nil {
			p := problemOf(err)
			p.File = ManifestName
			rep.Problems = append(rep.Problems, p)
		} else {
			// Every manifest problem at once: an author fixes them in one pass.
			var list []Problem
			m, list = ValidateManifest(data)
			rep.Problems = append(rep.Problems, inFile(ManifestName, list)...)
			if valid = len(list) == 0; valid {
				sum := Describe(m, files, ConsentHash(data, files))
				rep.Summary = &sum
				// A risk that defaults to medium installs, but is the author's mistake.
				for i, w := range m.Warnings {
					rep.Problems = append(rep.Problems, Problem{File: ManifestName, Field: m.warningFields[i], Message: w})
				}
			}
		}
	}
	content, err := contentProblems(ctx, dir)
	if err != nil {
		return rep, err
	}
	// A link or a device the scan reported is not reported again as a
	// skill, subagent or command that cannot be read.
	content = slices.DeleteFunc(content, func(c Problem) bool {
		return slices.ContainsFunc(scanned, func(s Problem) bool { return s.File == c.File })
	})
	rep.Problems = append(rep.Problems, content...)
	// Install would refuse the folder: its process is not worth starting.
	if !valid || len(scanned) > 0 || len(m.Tools) == 0 {
		rep.Held = !valid || len(m.Tools) > 0
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
			rep.Problems = append(rep.Problems, Problem{File: ManifestName, Field: toolPath(i, "name"),
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
