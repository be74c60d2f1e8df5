package plugin

import (
	"context"
	"path/filepath"
	"slices"
	"strings"

	"github.com/pi-desktop/pi-desktop/backend/errs"
	"github.com/pi-desktop/pi-desktop/backend/skills"
	"github.com/pi-desktop/pi-desktop/backend/slashcmd"
	"github.com/pi-desktop/pi-desktop/backend/subagent"
)

// contentProblems loads the plugin's skills/, subagents/ and commands/
// folders with the loaders the app uses once the plugin is enabled, and
// reports each file they would not use (unreadable, bad front matter, a
// name the app's own definitions already take), in that folder order and
// by path. The loaders' notes on a usable file (a model name not among the
// user's saved providers) depend on the user's setup, not on the plugin,
// and are left out. Only ctx's end is an error.
func contentProblems(ctx context.Context, dir string) ([]Problem, error) {
	var out []Problem
	add := func(path, msg string) {
		out = append(out, Problem{File: relTo(dir, path), Message: msg, Code: errs.PluginInvalid})
	}
	set, err := skills.Load(ctx, skills.Sources{Plugins: skills.PluginList([]string{dir})})
	if err != nil {
		return nil, err
	}
	for _, p := range set.Problems {
		add(p.Path, p.Message)
	}
	agents, err := subagent.Load(ctx, subagent.Sources{Plugins: []string{dir}})
	if err != nil {
		return nil, err
	}
	rows := slices.DeleteFunc(agents.Rows, func(r subagent.Row) bool { return r.Source != subagent.SourcePlugin })
	slices.SortStableFunc(rows, func(a, b subagent.Row) int { return strings.Compare(a.Path, b.Path) })
	for _, r := range rows {
		switch {
		case r.State == subagent.StateError:
			add(r.Path, r.Error)
		case r.State == subagent.StateOverridden && len(r.Warnings) > 0:
			add(r.Path, r.Warnings[len(r.Warnings)-1]+"; give it another name")
		case r.State == subagent.StateOverLimit && len(r.Warnings) > 0:
			add(r.Path, r.Warnings[len(r.Warnings)-1])
		}
	}
	cmds, err := slashcmd.Load(ctx, slashcmd.Sources{Plugins: []string{dir}})
	if err != nil {
		return nil, err
	}
	crows := slices.DeleteFunc(cmds.Rows, func(r slashcmd.Row) bool { return r.Source != slashcmd.SourcePlugin })
	slices.SortStableFunc(crows, func(a, b slashcmd.Row) int { return strings.Compare(a.Path, b.Path) })
	for _, r := range crows {
		switch {
		case r.State == slashcmd.StateError && len(r.Problems) > 0:
			add(r.Path, r.Problems[0])
		case r.State == slashcmd.StateOverridden && len(r.Problems) > 0:
			add(r.Path, r.Problems[len(r.Problems)-1]+"; give it another name")
		case r.State == slashcmd.StateEffective:
			// What of the file was ignored: the author's to fix.
			for _, p := range r.Problems {
				add(r.Path, p)
			}
		}
	}
	return out, nil
}

// relTo is path inside the plugin folder dir, slash-separated; path as it
// is when it is not inside dir.
func relTo(dir, path string) string {
	rel, err := filepath.Rel(dir, path)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return path
	}
	return filepath.ToSlash(rel)
}
