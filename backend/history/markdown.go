package history

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/pi-desktop/pi-desktop/backend/truncate"
)

// argSummaryMax bounds a tool call's one-line summary, in bytes.
const argSummaryMax = 160

// WriteJSON writes the export as indented, versioned JSON.
func (x *Export) WriteJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(x)
}

// WriteMarkdown writes the export for people: prompts and answers as they
// read in the window, each tool call as one line, and the diffs of edits.
// Times are shown in loc.
func (x *Export) WriteMarkdown(w io.Writer, loc *time.Location) error {
	b := bufio.NewWriter(w)
	s := x.Session
	fmt.Fprintf(b, "# %s\n\n", oneLine(s.Title))
	meta := []string{"Session `" + s.ID + "`"}
	if s.ProjectName != "" {
		meta = append(meta, "project "+s.ProjectName)
	}
	meta = append(meta, "started "+stamp(s.CreatedAt, loc), "exported "+stamp(x.ExportedAt, loc))
	fmt.Fprintf(b, "%s\n", strings.Join(meta, " · "))

	delegate := map[string]bool{}
	for _, t := range x.Turns {
		if t.DelegationID != "" {
			delegate[t.ID] = true
		}
	}
	calls := map[string][]ExportCall{}
	for _, c := range x.ToolCalls {
		calls[c.MessageID] = append(calls[c.MessageID], c)
	}
	for _, m := range x.Messages {
		writeMessage(b, m, delegate[m.TurnID], calls[m.ID], loc)
	}
	return b.Flush()
}

func writeMessage(b *bufio.Writer, m ExportMsg, delegate bool, calls []ExportCall, loc *time.Location) {
	who := "Assistant"
	switch {
	case m.Kind == "summary":
		who = "Context summary"
	case m.Role == "user" && delegate:
		who = "Task for a delegate"
	case m.Role == "user":
		who = "You"
	case delegate:
		who = "Delegate"
	}
	fmt.Fprintf(b, "\n## %s · %s\n\n", who, stamp(m.CreatedAt, loc))
	if text := messageText(m.Content); text != "" {
		fmt.Fprintf(b, "%s\n", text)
	}
	if len(calls) > 0 {
		b.WriteString("\n")
	}
	for _, c := range calls {
		writeCall(b, c)
	}
}

// messageText joins a message's text blocks; thinking and tool blocks are
// left out (tool calls are listed from their own rows).
func messageText(content json.RawMessage) string {
	var blocks []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	}
	if json.Unmarshal(content, &blocks) != nil {
		return ""
	}
	var parts []string
	for _, bl := range blocks {
		if bl.Type == "text" && strings.TrimSpace(bl.Text) != "" {
			parts = append(parts, strings.TrimRight(bl.Text, "\n"))
		}
	}
	return strings.Join(parts, "\n\n")
}

func writeCall(b *bufio.Writer, c ExportCall) {
	line := fmt.Sprintf("- **%s**", c.Tool)
	if s := argSummary(c.Args); s != "" {
		line += " `" + strings.ReplaceAll(s, "`", "'") + "`"
	}
	var res struct {
		Message string `json:"message"`
		Review  []struct {
			Path      string   `json:"path"`
			Status    string   `json:"status"`
			Additions int      `json:"additions"`
			Deletions int      `json:"deletions"`
			Truncated bool     `json:"truncated"`
			Binary    bool     `json:"binary"`
			Hunks     []hunkMD `json:"hunks"`
		} `json:"review"`
	}
	_ = json.Unmarshal(c.Result, &res)
	switch {
	case c.IsError && res.Message != "":
		line += " — failed: " + oneLine(truncate.BytesEllipsis(res.Message, argSummaryMax))
	case c.IsError || c.State == "failed":
		line += " — failed"
	case c.State != "done":
		line += " — " + c.State
	}
	b.WriteString(line + "\n")
	for _, r := range res.Review {
		fmt.Fprintf(b, "\n  %s `%s` (+%d −%d)\n\n", r.Status, r.Path, r.Additions, r.Deletions)
		if r.Binary {
			b.WriteString("  (binary file)\n\n")
			continue
		}
		b.WriteString("  ```diff\n")
		from, to := "a/"+r.Path, "b/"+r.Path
		switch r.Status {
		case "added":
			from = "/dev/null"
		case "deleted":
			to = "/dev/null"
		}
		fmt.Fprintf(b, "  --- %s\n  +++ %s\n", from, to)
		for _, h := range r.Hunks {
			fmt.Fprintf(b, "  @@ -%d,%d +%d,%d @@\n", h.OldStart, h.OldLines, h.NewStart, h.NewLines)
			for _, l := range h.Lines {
				b.WriteString("  " + l + "\n")
			}
		}
		if r.Truncated {
			b.WriteString("  … (the diff was cut when it was recorded)\n")
		}
		b.WriteString("  ```\n\n")
	}
}

type hunkMD struct {
	OldStart int      `json:"oldStart"`
	OldLines int      `json:"oldLines"`
	NewStart int      `json:"newStart"`
	NewLines int      `json:"newLines"`
	Lines    []string `json:"lines"`
}

// argSummary is what a tool call was about in one line: the argument a
// person would name (a path, a command, a pattern), else the arguments.
func argSummary(args json.RawMessage) string {
	var m map[string]any
	if json.Unmarshal(args, &m) != nil {
		return ""
	}
	for _, key := range []string{"command", "path", "file_path", "pattern", "query", "url", "name", "description"} {
		if v, ok := m[key].(string); ok && v != "" {
			return truncate.BytesEllipsis(oneLine(v), argSummaryMax)
		}
	}
	if len(m) == 0 {
		return ""
	}
	return truncate.BytesEllipsis(oneLine(string(args)), argSummaryMax)
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

func stamp(ms int64, loc *time.Location) string {
	return time.UnixMilli(ms).In(loc).Format("2006-01-02 15:04")
}
