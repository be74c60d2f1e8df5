package tools

import (
	"context"
	"encoding/json"
	"strings"
	"time"

	"github.com/pi-desktop/pi-desktop/backend/errs"
	"github.com/pi-desktop/pi-desktop/backend/pathguard"
	"github.com/pi-desktop/pi-desktop/backend/permission"
	"github.com/pi-desktop/pi-desktop/backend/search"
)

// Glob limits (decisions.md).
const (
	GlobDefaultLimit = 100
	GlobMaxLimit     = 1000
)

type globArgs struct {
	Pattern string `json:"pattern"`
	Path    string `json:"path"`
	Limit   int    `json:"limit"`
}

type globTool struct{}

func (globTool) Spec() Spec {
	return Spec{
		Name:        "Glob",
		Parallel:    true,
		Description: "List files matching a glob pattern (** for any depth), sorted by path. Ignored and hidden files are skipped.",
		Class:       permission.ClassRead, Risk: permission.Low,
		Timeout: 60 * time.Second, Shape: Directory, PathArg: "path", DefaultPath: ".",
		Aliases: map[string]string{"query": "pattern"},
		Schema: json.RawMessage(`{
  "type": "object",
  "properties": {
    "pattern": {"type": "string", "description": "Glob such as **/*.go or src/**/test_*.py, relative to path."},
    "query": {"type": "string", "description": "Alias of pattern."},
    "path": {"type": "string", "description": "Directory to search. Default: the workspace root."},
    "limit": {"type": "integer", "minimum": 1, "maximum": 1000, "description": "Maximum entries. Default 100."}
  },
  "additionalProperties": false
}`),
	}
}

func (globTool) Run(ctx context.Context, c *Call) Result {
	var a globArgs
	if err := json.Unmarshal(c.Args, &a); err != nil {
		return Failure(errs.Wrap(err, errs.InvalidArgument, "Glob arguments do not decode"))
	}
	if a.Limit == 0 {
		a.Limit = GlobDefaultLimit
	}
	for _, part := range strings.Split(a.Pattern, "/") {
		if part == ".." {
			return Failure(errs.New(errs.InvalidArgument, "a pattern cannot climb out of its directory with ..; pass the directory to search as path").With("field", "pattern"))
		}
	}
	t := *c.Target
	guard, err := guardSearch(c)
	if err != nil {
		return Failure(err)
	}
	defer guard.close()
	res, err := search.Glob(ctx, search.GlobOptions{Root: t.Abs, Pattern: a.Pattern, Limit: a.Limit, Within: guard.within})
	if err == nil {
		err = guard.check()
	}
	if err != nil {
		return Failure(err)
	}
	dir := DisplayPath(t)
	display := func(rel string) string {
		if rel == "." {
			return dir
		}
		return displayUnder(t, dir, rel)
	}
	text, truncated, notice := search.FormatGlob(res, display)
	files := make([]string, len(res.Files))
	for i, f := range res.Files {
		files[i] = display(f)
	}
	out := Result{OK: true, Root: string(t.Root), Path: dir, Content: text, Truncated: truncated, Notice: notice}
	out.Fields = map[string]any{"files": files, "count": len(files)}
	return out
}

// displayUnder shows a result found under the search directory t: relative
// to the workspace for workspace searches, absolute otherwise, so external
// access stays visible in the transcript.
func displayUnder(t pathguard.Resolved, dir, rel string) string {
	if t.Root == pathguard.Workspace {
		return joinDisplay(dir, rel)
	}
	return strings.TrimSuffix(dir, "/") + "/" + rel
}
