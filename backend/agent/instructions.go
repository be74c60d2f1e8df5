package agent

import (
	"context"
	"fmt"
	"strings"

	"github.com/pi-desktop/pi-desktop/backend/truncate"
)

// Bounds of path-scoped instructions (issue 18): each file's text, and all
// the files one prompt loads together. Host-core reads at most
// InstructionFileMax+1 bytes of a file, so a cut is always detectable.
const (
	InstructionFileMax   = 16 << 10
	InstructionPromptMax = 48 << 10
)

// InstructionFile is one folder's instruction file (AGENTS.md, else
// CLAUDE.md) that a tool call's path reaches.
type InstructionFile struct {
	// Path is relative to the workspace root, with forward slashes.
	Path string `json:"path"`
	// Size is the file's size on disk in bytes.
	Size int64 `json:"size"`
	// Loaded is how many bytes of it reached the model (the bounds may cut
	// it); 0 when Skipped.
	Loaded int `json:"loaded"`
	// Truncated: the model received only the first Loaded bytes.
	Truncated bool `json:"truncated,omitempty"`
	// Skipped says why the file was not loaded ("" = it was).
	Skipped string `json:"skipped,omitempty"`
	// Text is what host-core read (at most InstructionFileMax+1 bytes); it
	// is never stored or sent to the UI: the tool result carries it.
	Text string `json:"-"`
}

// pathInstructions is what one prompt (one run: a session's turn, or a
// delegate's own run) has loaded so far. Each run has its own, so a
// delegate's files never count as, or reach, its parent's.
type pathInstructions struct {
	seen map[string]bool // files delivered or reported this prompt
	used int             // bytes of file text delivered this prompt
}

// preflight resolves the instruction files of c's path while the batch is
// prepared, before any call of it runs, and keeps the ones this prompt has
// not seen yet on c; finish appends them to c's result.
//
// Source order (spec §0): the pinned runtime keeps the path instructions
// in its system prompt and lets "sibling instruction chains replace one
// another according to preparation order, regardless of completion order":
// the chain of the call prepared last is the one in force. We never edit
// the system prompt per call (that would break the prompt cache's prefix);
// the chain goes into the tool result of the call that reached it first
// instead. Calls are prepared here in source order, so which call carries
// which file is decided by preparation order alone, and since results reach
// the model in source order too, the chain prepared last is also the one
// the model read last: the nearest text wins, as the replacement would
// have it, however the calls' executions interleave.
func (r *run) preflight(ctx context.Context, c *prepared) {
	if c.settled || !r.offered(c.tool) || r.refusedUnrun(c) {
		return // refused before it runs: mode and catalog checks come first
	}
	files := r.a.host.PathInstructions(ctx, r.toolCall(c))
	if len(files) == 0 {
		return
	}
	if r.instr.seen == nil {
		r.instr.seen = map[string]bool{}
	}
	for _, f := range files {
		if r.instr.seen[f.Path] {
			continue
		}
		r.instr.seen[f.Path] = true
		if f.Skipped == "" {
			f.Text = strings.ToValidUTF8(f.Text, "\uFFFD")
			f = r.instr.take(f)
		}
		c.instructions = append(c.instructions, f)
	}
}

// take bounds f by the per-file and the remaining per-prompt budget and
// counts what it keeps.
func (p *pathInstructions) take(f InstructionFile) InstructionFile {
	limit := min(InstructionFileMax, InstructionPromptMax-p.used)
	if limit <= 0 {
		f.Text, f.Skipped = "", fmt.Sprintf("this prompt's path instructions reached their %d KB limit", InstructionPromptMax>>10)
		return f
	}
	whole := int64(len(f.Text)) >= f.Size && len(f.Text) <= limit
	if !whole {
		f.Text, f.Truncated = truncate.Bytes(f.Text, limit), true
	}
	f.Loaded = len(f.Text)
	p.used += f.Loaded
	return f
}

// withInstructions appends the block of files to a tool result's text.
func withInstructions(text string, files []InstructionFile) string {
	if len(files) == 0 {
		return text
	}
	var b strings.Builder
	b.WriteString(text)
	if text != "" {
		b.WriteString("\n\n")
	}
	b.WriteString("<path-instructions>\n")
	b.WriteString("Instructions from the project's folders on the way to this call's path, loaded once for this prompt. " +
		"Each applies to the files under its folder and adds to the project instructions; follow them unless the user says otherwise.\n")
	for _, f := range files {
		if f.Skipped != "" {
			fmt.Fprintf(&b, "\n[not loaded: %s (%s); %s. Read it if the work there needs it.]\n", f.Path, sizeText(f.Size), f.Skipped)
			continue
		}
		fmt.Fprintf(&b, "\n## %s\n\n", f.Path)
		b.WriteString(f.Text)
		if !strings.HasSuffix(f.Text, "\n") {
			b.WriteByte('\n')
		}
		if f.Truncated {
			fmt.Fprintf(&b, "[truncated: kept the first %d of %d bytes of %s; limit %d KB per file, %d KB per prompt. Read %s for the rest.]\n",
				f.Loaded, f.Size, f.Path, InstructionFileMax>>10, InstructionPromptMax>>10, f.Path)
		}
	}
	b.WriteString("</path-instructions>")
	return b.String()
}

// sizeText is a byte count as people read it: 812 B, 2.1 KB.
func sizeText(n int64) string {
	if n < 1024 {
		return fmt.Sprintf("%d B", n)
	}
	return fmt.Sprintf("%.1f KB", float64(n)/1024)
}
