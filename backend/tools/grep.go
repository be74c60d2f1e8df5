package tools

import (
	"context"
	"encoding/json"
	"time"

	"github.com/pi-desktop/pi-desktop/backend/errs"
	"github.com/pi-desktop/pi-desktop/backend/hashline"
	"github.com/pi-desktop/pi-desktop/backend/permission"
	"github.com/pi-desktop/pi-desktop/backend/search"
)

type grepArgs struct {
	Pattern    string `json:"pattern"`
	Path       string `json:"path"`
	Include    string `json:"include"`
	OutputMode string `json:"outputMode"`
	IgnoreCase bool   `json:"ignoreCase"`
	Context    int    `json:"context"`
	HeadLimit  int    `json:"headLimit"`
}

type grepTool struct {
	rgPath string
	rg     *rgFinder // used when rgPath is "": the app's PATH, then the login shell's
}

func newGrepTool(opts Options) grepTool {
	g := grepTool{rgPath: opts.RgPath}
	if g.rgPath == "" {
		g.rg = newRgFinder(opts.Bash.PathProbe)
	}
	return g
}

func (grepTool) Spec() Spec {
	return Spec{
		Name:        "Grep",
		Parallel:    true,
		Description: "Search file contents with a regular expression. Content mode shows [path#TAG] groups with N:match and N-context rows.",
		Class:       permission.ClassRead, Risk: permission.Low,
		Timeout: 60 * time.Second, Shape: FileOrDir, PathArg: "path", DefaultPath: ".",
		Aliases: map[string]string{"query": "pattern"},
		Schema: json.RawMessage(`{
  "type": "object",
  "properties": {
    "pattern": {"type": "string", "description": "Regular expression (RE2 syntax)."},
    "query": {"type": "string", "description": "Alias of pattern."},
    "path": {"type": "string", "description": "File or directory to search. Default: the workspace root."},
    "include": {"type": "string", "description": "Only files whose name matches this glob, e.g. *.go."},
    "outputMode": {"type": "string", "enum": ["content", "filesWithMatches", "count"], "description": "Default content."},
    "ignoreCase": {"type": "boolean"},
    "context": {"type": "integer", "minimum": 0, "maximum": 20, "description": "Lines of context around each match (content mode)."},
    "headLimit": {"type": "integer", "minimum": 1, "maximum": 2000, "description": "Maximum matches (content) or files. Default 200."}
  },
  "additionalProperties": false
}`),
	}
}

func (g grepTool) Run(ctx context.Context, c *Call) Result {
	var a grepArgs
	if err := json.Unmarshal(c.Args, &a); err != nil {
		return Failure(errs.Wrap(err, errs.InvalidArgument, "Grep arguments do not decode"))
	}
	if a.OutputMode == "" {
		a.OutputMode = "content"
	}
	t := *c.Target
	guard, err := guardSearch(c)
	if err != nil {
		return Failure(err)
	}
	defer guard.close()
	rgPath := g.rgPath
	if rgPath == "" {
		rgPath = g.rg.find(ctx)
	}
	res, err := search.Grep(ctx, search.GrepOptions{
		Root: t.Abs, Pattern: a.Pattern, Include: a.Include, IgnoreCase: a.IgnoreCase,
		Mode: a.OutputMode, Context: a.Context, HeadLimit: a.HeadLimit, RgPath: rgPath,
		Within: guard.within,
	})
	if err == nil {
		err = guard.check()
	}
	if err != nil {
		return Failure(err)
	}
	dir := DisplayPath(t)
	isFile := !guard.before.IsDir()
	display := func(rel string) string {
		if isFile || rel == "." {
			return dir // a directly named file is shown by its own path
		}
		return displayUnder(t, dir, rel)
	}
	text, tags, truncated, notice, shown := search.FormatGrepShown(res, display)
	if c.Edits != nil {
		recordGrepSeen(c, shown)
	}
	out := Result{OK: true, Root: string(t.Root), Path: dir, Content: text, Truncated: truncated, Notice: notice}
	out.Fields = map[string]any{"tags": tags, "engine": res.Engine}
	if len(res.Skipped) > 0 {
		skipped := make([]map[string]any, len(res.Skipped))
		for i, s := range res.Skipped {
			skipped[i] = map[string]any{"path": display(s.Path), "size": s.Size}
		}
		out.Fields["skipped"] = skipped // files over search.MaxFileBytes, not searched
	}
	return out
}

// recordGrepSeen records the rows a content-mode Grep displayed in full as
// seen, per file (edit-contract §2). The file is read again for its text,
// and recorded only if it is still the very version that was searched.
func recordGrepSeen(c *Call, shown map[string]search.Shown) {
	for display, sh := range shown {
		target, err := c.Resolver.Resolve(display)
		if err != nil {
			continue
		}
		data, err := readAll(c, target)
		if err != nil || hashline.IsBinary(data) {
			continue
		}
		t := hashline.Decode(data)
		if t.Digest() != sh.Digest {
			continue // changed since the search: what was shown is not this file
		}
		var seen hashline.LineSet
		for _, n := range sh.Lines {
			seen.Add(n, n)
		}
		c.Edits.Record(c.Resolver.Key(target), t, seen)
	}
}
