package tools

import (
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/pi-desktop/pi-desktop/backend/bash"
	"github.com/pi-desktop/pi-desktop/backend/errs"
	"github.com/pi-desktop/pi-desktop/backend/truncate"
)

// MCPResult turns a server's answer into what the model reads: text blocks
// joined, the structured content as JSON when there is no text, embedded
// resources as text with their URI, links and audio as one line each.
// Images travel as RawImages, which the host prepares, stores and turns
// into references (the model sees them only if it accepts images). isError is
// TOOL_FAILED with the server's text. Text over the result limit is cut at
// a whole line and the rest saved to a spill file under the session's
// scratch (decisions.md), whose path the marker names.
func MCPResult(info MCPToolInfo, res *sdk.CallToolResult, c *Call) Result {
	if res == nil {
		return Failure(errs.New(errs.MCPProtocolError, "the MCP server %q answered the call of %q with no result; check its log in Settings → MCP servers", info.Server, info.Tool).With("server", info.Server))
	}
	text, images := mcpText(res)
	if res.IsError {
		msg := strings.TrimSpace(text)
		if msg == "" {
			msg = "the tool reported an error without a message"
		}
		return Failure(errs.New(errs.ToolFailed, "%s", truncate.BytesEllipsis(msg, mcpErrorMax)).With("server", info.Server).With("tool", info.Tool))
	}
	out := Result{OK: true, Content: text, RawImages: images, Fields: map[string]any{"server": info.Server, "mcpTool": info.Tool}}
	switch {
	case out.Content == "" && len(images) > 0:
		out.Content = "(the tool returned only images)"
	case out.Content == "":
		out.Content = "(the tool returned no content)"
	}
	return boundMCP(out, info, c)
}

// mcpText renders the content blocks in order, one after another, and
// collects the images (the SDK has decoded their base64 already).
func mcpText(res *sdk.CallToolResult) (string, []RawImage) {
	var parts []string
	var images []RawImage
	hasText := false
	for _, block := range res.Content {
		switch b := block.(type) {
		case *sdk.TextContent:
			parts = append(parts, b.Text)
			hasText = true
		case *sdk.ImageContent:
			images = append(images, RawImage{MediaType: b.MIMEType, Data: b.Data})
		case *sdk.AudioContent:
			parts = append(parts, fmt.Sprintf("[audio: %s, %d bytes — this model does not accept audio]", mimeOr(b.MIMEType), len(b.Data)))
		case *sdk.ResourceLink:
			parts = append(parts, resourceLink(b))
		case *sdk.EmbeddedResource:
			parts = append(parts, embedded(b.Resource))
			hasText = hasText || (b.Resource != nil && b.Resource.Text != "")
		default:
			parts = append(parts, fmt.Sprintf("[content of type %T not shown]", block))
		}
	}
	if !hasText && res.StructuredContent != nil {
		if data, err := json.MarshalIndent(res.StructuredContent, "", "  "); err == nil {
			parts = append(parts, string(data))
		}
	}
	return strings.Join(parts, "\n"), images
}

func mimeOr(m string) string {
	if m == "" {
		return "unknown type"
	}
	return m
}

func resourceLink(l *sdk.ResourceLink) string {
	var b strings.Builder
	b.WriteString("[resource link: ")
	if name := oneLineText(l.Title); name != "" {
		b.WriteString(name + " ")
	} else if l.Name != "" {
		b.WriteString(oneLineText(l.Name) + " ")
	}
	fmt.Fprintf(&b, "<%s>", l.URI)
	if l.MIMEType != "" {
		b.WriteString(" (" + l.MIMEType + ")")
	}
	if d := oneLineText(l.Description); d != "" {
		b.WriteString(" — " + truncate.BytesEllipsis(d, 300))
	}
	b.WriteString("]")
	return b.String()
}

func embedded(r *sdk.ResourceContents) string {
	if r == nil {
		return "[resource: empty]"
	}
	head := "[resource " + r.URI
	if r.MIMEType != "" {
		head += " (" + r.MIMEType + ")"
	}
	if r.Text != "" || len(r.Blob) == 0 {
		return head + "]\n" + r.Text
	}
	return fmt.Sprintf("%s: %d bytes of binary data, not shown]", head, len(r.Blob))
}

// boundMCP keeps the head of a long result (ResultMaxBytes, ResultMaxLines)
// and saves the text, up to the spill limit, to a file the marker names.
func boundMCP(r Result, info MCPToolInfo, c *Call) Result {
	content := r.Content
	if len(content) <= ResultMaxBytes && strings.Count(content, "\n") < ResultMaxLines {
		return r
	}
	lines := strings.Count(content, "\n")
	if !strings.HasSuffix(content, "\n") {
		lines++
	}
	// Room for the marker, so the pipeline's backstop (Bound) keeps it.
	cut := headCut(content, ResultMaxBytes-1024, ResultMaxLines-1)
	kept := strings.Count(content[:cut], "\n")
	if cut > 0 && content[cut-1] != '\n' {
		kept++ // a single line longer than the limit, cut inside
	}
	var m strings.Builder
	fmt.Fprintf(&m, "[truncated: kept the first %d of %d lines (%d of %d bytes); limit %d lines / %d KB. ",
		kept, lines, cut, len(content), ResultMaxLines, ResultMaxBytes>>10)
	path, saved, err := spillMCP(content, info, c)
	switch {
	case err != nil:
		m.WriteString("The rest was not saved; call the tool again asking for less to see it.]")
	case saved >= len(content):
		fmt.Fprintf(&m, "Full output saved to %s; Grep it, or Read it with offset/limit.]", path)
	default:
		fmt.Fprintf(&m, "The first %d of %d bytes saved to %s; Grep it, or Read it with offset/limit. The later %d bytes were not kept (spill limit %d KB).]",
			saved, len(content), path, len(content)-saved, bash.DefaultSpillBytes>>10)
	}
	r.Content = content[:cut]
	if !strings.HasSuffix(r.Content, "\n") {
		r.Content += "\n"
	}
	r.Content += m.String()
	r.Truncated = true
	if path != "" {
		r.Fields["spillPath"] = path
	}
	r.Notice = joinNotice(r.Notice, "the result was cut to the size limit; the saved file has more of it")
	return r
}

// headCut is the end of the head of s within maxBytes and maxLines: after a
// whole line where one fits, else at a rune boundary.
func headCut(s string, maxBytes, maxLines int) int {
	cut, lines := 0, 0
	for cut < len(s) && lines < maxLines {
		i := strings.IndexByte(s[cut:], '\n')
		if i < 0 || cut+i+1 > maxBytes {
			break
		}
		cut += i + 1
		lines++
	}
	if cut == 0 {
		cut = len(truncate.Bytes(s, maxBytes))
	}
	return cut
}

// spillMCP writes the head of content, up to the spill limit, to a new file
// in the session's tool-output folder.
func spillMCP(content string, info MCPToolInfo, c *Call) (string, int, error) {
	if c == nil || c.Env.EnsureScratch == nil {
		return "", 0, fmt.Errorf("no scratch folder for this call")
	}
	scratch, err := c.Env.EnsureScratch()
	if err != nil {
		return "", 0, err
	}
	name := bash.SpillFileName(info.ModelName, time.Now().UnixMilli(), int(c.Env.nextSpill()))
	w, path, err := bash.FileSpill(filepath.Join(scratch, "tool-output"), name)()
	if err != nil {
		return "", 0, err
	}
	n := min(len(content), bash.DefaultSpillBytes)
	_, werr := io.WriteString(w, content[:n])
	if cerr := w.Close(); werr == nil {
		werr = cerr
	}
	if werr != nil {
		return "", 0, werr
	}
	return path, n, nil
}
