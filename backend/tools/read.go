package tools

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/pi-desktop/pi-desktop/backend/errs"
	"github.com/pi-desktop/pi-desktop/backend/hashline"
	"github.com/pi-desktop/pi-desktop/backend/names"
	"github.com/pi-desktop/pi-desktop/backend/permission"
	"github.com/pi-desktop/pi-desktop/backend/truncate"
)

// Read limits (decisions.md "Tool result limits", edit-contract §3).
const (
	ReadDefaultLimit = 500
	ReadMaxLimit     = 2000
	ResultMaxBytes   = 48 << 10
	LineMaxRunes     = 2000
	WideMaxRunes     = 16384
	WideMaxLimit     = 10
)

type readArgs struct {
	Path   string `json:"path"`
	Offset int    `json:"offset"`
	Limit  int    `json:"limit"`
	Wide   bool   `json:"wide"`
}

type readTool struct{}

func (readTool) Spec() Spec {
	return Spec{
		Name:        "Read",
		Parallel:    true,
		Description: "Read a text file. Returns a [path#TAG] header and numbered lines N:text; pass the tag to Edit or Write.",
		Class:       permission.ClassRead, Risk: permission.Low,
		Timeout: 30 * time.Second, Shape: ExistingFile, PathArg: "path",
		Aliases: map[string]string{"file_path": "path"},
		Schema: json.RawMessage(`{
  "type": "object",
  "properties": {
    "path": {"type": "string", "description": "File path, relative to the workspace or absolute."},
    "file_path": {"type": "string", "description": "Alias of path."},
    "offset": {"type": "integer", "minimum": 1, "description": "First line to show (1-based). Default 1."},
    "limit": {"type": "integer", "minimum": 1, "maximum": 2000, "description": "Number of lines. Default 500."},
    "wide": {"type": "boolean", "description": "With limit <= 10, show lines up to 16384 characters instead of 2000."}
  },
  "additionalProperties": false
}`),
	}
}

func (readTool) Run(ctx context.Context, c *Call) Result {
	var a readArgs
	if err := json.Unmarshal(c.Args, &a); err != nil {
		return Failure(errs.Wrap(err, errs.InvalidArgument, "Read arguments do not decode"))
	}
	if a.Offset == 0 {
		a.Offset = 1
	}
	if a.Limit == 0 {
		a.Limit = ReadDefaultLimit
	}
	lineCap := LineMaxRunes
	if a.Wide && a.Limit <= WideMaxLimit {
		lineCap = WideMaxRunes
	}
	f, err := c.Resolver.OpenFile(*c.Target, readOnly, 0)
	if err != nil {
		return Failure(err)
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return Failure(errs.Wrap(err, errs.ToolFailed, "cannot stat %s", DisplayPath(*c.Target)))
	}
	display := DisplayPath(*c.Target)
	base := Result{OK: true, Root: string(c.Target.Root), Path: display}
	if fi.Size() > hashline.MaxTextBytes {
		return readLarge(ctx, f, a, lineCap, base, fi.Size())
	}
	// The file may have grown since Stat: never read past the text bound.
	data, err := readSized(f, hashline.MaxTextBytes)
	if err != nil {
		return Failure(errs.Wrap(err, errs.ToolFailed, "cannot read %s", display))
	}
	if len(data) > hashline.MaxTextBytes {
		if _, err := f.Seek(0, io.SeekStart); err != nil {
			return Failure(errs.Wrap(err, errs.ToolFailed, "cannot read %s", display))
		}
		return readLarge(ctx, f, a, lineCap, base, fi.Size())
	}
	if hashline.IsBinary(data) {
		return binaryResult(base, int64(len(data)))
	}
	if hashline.IsCanonical(data) {
		return readCanonical(c, data, a, lineCap, base, display)
	}
	text := hashline.Decode(data)
	digest := hashline.DigestOf(data) // one hash, over the bytes when already canonical
	tag := digest.Tag()
	lines := make([]string, len(text.Lines))
	for i, l := range text.Lines {
		lines[i] = l.Text
	}
	res, seen := renderWindow(base, hashline.Header(display, tag), tag, lines, len(lines), a, lineCap)
	if res.OK && c.Edits != nil {
		c.Edits.RecordCanonical(c.Resolver.Key(*c.Target), hashline.CanonicalOf(data, text), digest, len(text.Lines), seen)
	}
	return res
}

// readCanonical is Read of a file that is its own canonical text (no BOM,
// no \r): the bytes are hashed as they are, and only the window's lines
// are cut out of them, so a 500-line window of a 100,000-line file costs
// one hash and a line count, not a decode of every line. The text is
// copied for the store only when it will be retained.
func readCanonical(c *Call, data []byte, a readArgs, lineCap int, base Result, display string) Result {
	digest := hashline.DigestOf(data)
	tag := digest.Tag()
	total := bytes.Count(data, []byte{'\n'})
	if len(data) > 0 && data[len(data)-1] != '\n' {
		total++ // an unterminated last line
	}
	// canon is kept for Edit when small enough; the window's lines are
	// substrings of it, or of one copy of the window's bytes: one
	// allocation instead of one per line.
	canon := ""
	if c.Edits != nil && len(data) <= hashline.MaxRetainedText {
		canon = string(data)
	}
	var window []string
	if a.Offset <= total {
		start := 0
		for range a.Offset - 1 {
			start += bytes.IndexByte(data[start:], '\n') + 1
		}
		end, n := start, 0
		for n < a.Limit && end < len(data) {
			i := bytes.IndexByte(data[end:], '\n')
			if i < 0 {
				end = len(data)
			} else {
				end += i + 1
			}
			n++
		}
		text := ""
		if canon != "" {
			text = canon[start:end]
		} else {
			text = string(data[start:end])
		}
		window = make([]string, 0, n)
		for len(text) > 0 {
			line, rest, _ := strings.Cut(text, "\n")
			window = append(window, line)
			text = rest
		}
	}
	res, seen := renderWindowAt(base, hashline.Header(display, tag), tag, window, nil, a.Offset, total, a, lineCap)
	if res.OK && c.Edits != nil {
		c.Edits.RecordSized(c.Resolver.Key(*c.Target), canon, len(data), digest, total, seen)
	}
	return res
}

func binaryResult(base Result, size int64) Result {
	base.Content = fmt.Sprintf("[binary file, %d bytes: not shown. Inspect it with Bash (for example: file, xxd | head)]", size)
	base.Fields = map[string]any{"binary": true, "size": size}
	return base
}

// readLarge pages through a file too large to tag (over 16 MiB): it is never
// refused for its size, but it has no tag and cannot be edited.
func readLarge(ctx context.Context, r io.Reader, a readArgs, lineCap int, base Result, size int64) Result {
	br := bufio.NewReaderSize(r, 256<<10)
	// Binary by its head (NUL in the first 8 KiB): validating the UTF-8 of
	// the whole file is not worth a pass over gigabytes.
	if head, _ := br.Peek(8 << 10); bytes.IndexByte(head, 0) >= 0 {
		return binaryResult(base, size)
	}
	// Streamed: only the window's lines are kept, each up to its display
	// cap, so memory stays bounded whatever the length of a line.
	var window []string
	var omitted []int
	total := 0
	ls := lineStreamer{br: br}
	for {
		if total%4096 == 0 && ctx.Err() != nil {
			return Failure(errs.New(errs.ToolAborted, "Read was stopped"))
		}
		keep := 0
		if total+1 >= a.Offset && total+1 < a.Offset+a.Limit {
			keep = lineCap
		}
		line, ok, err := ls.next(keep)
		if err != nil {
			return Failure(errs.Wrap(err, errs.ToolFailed, "cannot read %s", base.Path))
		}
		if !ok {
			break
		}
		total++
		if keep > 0 {
			window = append(window, line.text)
			omitted = append(omitted, line.omitted)
		}
	}
	res, _ := renderWindowAt(base, "["+names.Escape(base.Path)+"]", "", window, omitted, a.Offset, total, a, lineCap)
	if res.OK {
		res.Notice = joinNotice(res.Notice, "the file is larger than 16 MiB: it has no tag, so Edit and Write cannot change it; use Bash")
	}
	return res
}

func renderWindow(base Result, header, tag string, lines []string, total int, a readArgs, lineCap int) (Result, hashline.LineSet) {
	var window []string
	if a.Offset <= total {
		window = lines[a.Offset-1 : min(total, a.Offset-1+a.Limit)]
	}
	return renderWindowAt(base, header, tag, window, nil, a.Offset, total, a, lineCap)
}

// renderWindowAt renders window (whose first line is number first) within
// the byte budget, clipping long lines, and adds the trailer. It also
// returns the lines shown in full and byte-faithfully: the ones an Edit may
// anchor on (a clipped line, or one holding a lone \r, is not "seen").
// omitted, when not nil, holds per line the runes a streamed read dropped
// after its kept text (see lineStreamer).
func renderWindowAt(base Result, header, tag string, window []string, omitted []int, first, total int, a readArgs, lineCap int) (Result, hashline.LineSet) {
	var seen hashline.LineSet
	if a.Offset > total && total > 0 {
		return Failure(errs.New(errs.InvalidArgument, "offset %d is past the end of %s, which has %d lines; use an offset from 1 to %d", a.Offset, base.Path, total, total).With("field", "offset")), seen
	}
	var b strings.Builder
	b.Grow(min(ResultMaxBytes, 64*len(window)+len(header)+64))
	b.WriteString(header)
	b.WriteByte('\n')
	if total == 0 {
		b.WriteString("[empty file]")
		base.Content = b.String()
		base.Fields = map[string]any{"tag": tag, "offset": 1, "lineCount": 0, "totalLines": 0, "truncated": false, "clipped": 0}
		return base, seen
	}
	const trailerReserve = 128
	shown, clipped, budgetHit := 0, 0, false
	num := make([]byte, 0, 24)
	for i, line := range window {
		n := first + i
		num = strconv.AppendInt(num[:0], int64(n), 10)
		more := 0
		if omitted != nil {
			more = omitted[i]
		}
		row, isClipped := renderStreamLine(num, streamLine{text: line, omitted: more}, lineCap)
		if room := ResultMaxBytes - trailerReserve - b.Len() - 1; len(row) > room {
			if shown > 0 {
				budgetHit = true
				break
			}
			// A first row wider than the whole budget is clipped to fit, so
			// the window always shows something and never passes a cut row
			// off as complete.
			row, isClipped = clipToBytes(num, line, more, room), true
		}
		b.WriteString(row)
		b.WriteByte('\n')
		shown++
		if isClipped {
			clipped++
		} else {
			seen.Add(n, n)
		}
	}
	last := first + shown - 1
	truncated := last < total
	content := strings.TrimSuffix(b.String(), "\n")
	if truncated || clipped > 0 || first > 1 {
		trailer := fmt.Sprintf("[lines %d-%d of %d", first, last, total)
		if truncated {
			trailer += fmt.Sprintf("; next offset=%d", last+1)
		}
		if clipped > 0 {
			trailer += fmt.Sprintf("; %d clipped (~)", clipped)
		}
		content += "\n\n" + trailer + "]"
	}
	base.Content = content
	base.Truncated = truncated
	if budgetHit {
		base.Notice = fmt.Sprintf("output stopped at the %d KB limit; continue with offset=%d", ResultMaxBytes>>10, last+1)
	}
	if clipped > 0 {
		base.Notice = joinNotice(base.Notice, fmt.Sprintf("%d lines are shown clipped (N~ rows: too long, or holding a lone carriage return ␍) and cannot be anchored by Edit; Read long ones with wide:true and limit<=10, or replace the file with Write", clipped))
	}
	base.Fields = map[string]any{"tag": tag, "offset": first, "lineCount": shown, "totalLines": total, "truncated": truncated, "clipped": clipped}
	return base, seen
}

// renderLine renders "N:text", or "N~:<cap runes> …[+K chars]" for a line
// longer than lineCap runes.
//
// A line holding a lone \r cannot be shown byte-faithfully: it is rendered
// as clipped ("N~:") with the \r drawn as ␍, so it is never taken as seen.
func renderLine(num []byte, line string, lineCap int) (string, bool) {
	if strings.ContainsRune(line, '\r') {
		shown := strings.ReplaceAll(line, "\r", "␍")
		if utf8.RuneCountInString(shown) > lineCap {
			r, _ := renderLine(num, shown, lineCap)
			return r, true
		}
		return string(num) + "~:" + shown, true
	}
	if len(line) <= lineCap || utf8.RuneCountInString(line) <= lineCap {
		return string(num) + ":" + line, false
	}
	shown := truncate.Runes(line, lineCap)
	rest := utf8.RuneCountInString(line[len(shown):])
	return fmt.Sprintf("%s~:%s …[+%d chars]", num, shown, rest), true
}

// clipToBytes renders line, followed by more runes not held, as a clipped
// row of at most room bytes.
func clipToBytes(num []byte, line string, more, room int) string {
	head := string(num) + "~:"
	budget := room - len(head) - 24 // the " …[+N chars]" tail
	shown := truncate.Bytes(line, budget)
	return fmt.Sprintf("%s%s …[+%d chars]", head, shown, utf8.RuneCountInString(line[len(shown):])+more)
}

func joinNotice(a, b string) string {
	if a == "" {
		return b
	}
	return a + "; " + b
}
