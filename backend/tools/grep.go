package tools

import (
	"context"
	"encoding/json"
	"regexp"
	"strconv"
	"strings"
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

type grepTool struct{ rgPath string }

func (grepTool) Spec() Spec {
	return Spec{
		Name:        "Grep",
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
	res, err := search.Grep(ctx, search.GrepOptions{
		Root: t.Abs, Pattern: a.Pattern, Include: a.Include, IgnoreCase: a.IgnoreCase,
		Mode: a.OutputMode, Context: a.Context, HeadLimit: a.HeadLimit, RgPath: g.rgPath,
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
	text, tags, truncated, notice := search.FormatGrep(res, display)
	if a.OutputMode == "content" && c.Edits != nil {
		recordGrepSeen(c, text, tags)
	}
	out := Result{OK: true, Root: string(t.Root), Path: dir, Content: text, Truncated: truncated, Notice: notice}
	out.Fields = map[string]any{"tags": tags, "engine": res.Engine}
	return out
}

// grepRow matches an emitted content row: "N:text" (match) or "N-text"
// (context). Clipped rows ("N~:", "N~-") do not match: they are not seen.
var grepRow = regexp.MustCompile(`^([1-9][0-9]*)[:-]`)

// recordGrepSeen records the rows a content-mode Grep displayed in full as
// seen, per file, so an Edit can anchor on them (edit-contract §2). It reads
// each file again and records only when its tag still matches what the
// model was shown.
func recordGrepSeen(c *Call, text string, tags map[string]string) {
	var (
		file string
		seen hashline.LineSet
	)
	flush := func() {
		if file == "" || seen.Empty() {
			return
		}
		target, err := c.Resolver.Resolve(file)
		if err != nil {
			return
		}
		data, err := readAll(c, target)
		if err != nil || hashline.IsBinary(data) {
			return
		}
		t := hashline.Decode(data)
		if t.Digest().Tag() != tags[file] {
			return // changed since the search: nothing shown matches it
		}
		c.Edits.Record(c.Resolver.Key(target), t, seen)
	}
	for _, line := range strings.Split(text, "\n") {
		if strings.HasPrefix(line, "[") && strings.HasSuffix(line, "]") {
			if i := strings.LastIndexByte(line, '#'); i > 0 {
				if _, ok := tags[line[1:i]]; ok {
					flush()
					file, seen = line[1:i], hashline.LineSet{}
					continue
				}
			}
		}
		m := grepRow.FindStringSubmatch(line)
		if file == "" || m == nil || strings.ContainsRune(line, '\r') {
			continue
		}
		if n, err := strconv.Atoi(m[1]); err == nil {
			seen.Add(n, n)
		}
	}
	flush()
}
