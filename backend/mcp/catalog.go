package mcp

import (
	"encoding/json"
	"slices"
	"strings"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// DefaultMaxTools is how many tools of one server the host keeps (issue
// 15); the rest are listed as omitted, so one huge server cannot flood the
// catalog.
const DefaultMaxTools = 64

// ToolInfo is one kept tool of a server.
type ToolInfo struct {
	// Tool is the server's own description of the tool; treat it as read
	// only (a refresh replaces it, never changes it).
	Tool *sdk.Tool
	// Enabled is false when the user switched the tool off.
	Enabled bool
	// SchemaTokens estimates the tool's cost in the model's context (see
	// SchemaTokens).
	SchemaTokens int
}

// catalog is a server's listed tools after the limit.
type catalog struct {
	kept    []*sdk.Tool // sorted by name
	tokens  []int       // SchemaTokens of kept[i]
	omitted []string    // sorted
}

// newCatalog sorts the listed tools by name, drops nameless ones and
// repeated names (the first listing wins), and keeps the first maxTools:
// sorting first makes which tools are kept independent of the order the
// server lists them in.
func newCatalog(listed []*sdk.Tool, maxTools int) catalog {
	tools := slices.DeleteFunc(slices.Clone(listed), func(t *sdk.Tool) bool { return t == nil || t.Name == "" })
	slices.SortStableFunc(tools, func(a, b *sdk.Tool) int { return strings.Compare(a.Name, b.Name) })
	tools = slices.CompactFunc(tools, func(a, b *sdk.Tool) bool { return a.Name == b.Name })
	var c catalog
	if len(tools) > maxTools {
		for _, t := range tools[maxTools:] {
			c.omitted = append(c.omitted, t.Name)
		}
		tools = tools[:maxTools]
	}
	c.kept = tools
	for _, t := range tools {
		c.tokens = append(c.tokens, SchemaTokens(t))
	}
	return c
}

// find reports whether name is a kept tool, and whether it was omitted.
func (c catalog) find(name string) (kept, omitted bool) {
	_, kept = slices.BinarySearchFunc(c.kept, name, func(t *sdk.Tool, n string) int { return strings.Compare(t.Name, n) })
	if !kept {
		_, omitted = slices.BinarySearch(c.omitted, name)
	}
	return kept, omitted
}

// SchemaTokens estimates what a tool costs in the model's context once
// loaded: a quarter of the bytes of its name, title, description and input
// schema (JSON), rounded up. Four bytes per token is the usual rule of thumb
// for English and JSON with the providers' tokenizers; Settings shows it
// to compare servers, not to bill.
func SchemaTokens(t *sdk.Tool) int {
	n := len(t.Name) + len(t.Title) + len(t.Description)
	if t.InputSchema != nil {
		if b, err := json.Marshal(t.InputSchema); err == nil {
			n += len(b)
		}
	}
	return (n + 3) / 4
}

// tools is the catalog as ToolInfo under the server's current tool toggles,
// and the sum of the enabled tools' tokens.
func (c catalog) tools(s Server) ([]ToolInfo, int) {
	if len(c.kept) == 0 {
		return nil, 0
	}
	out := make([]ToolInfo, len(c.kept))
	sum := 0
	for i, t := range c.kept {
		on := s.ToolEnabled(t.Name)
		out[i] = ToolInfo{Tool: t, Enabled: on, SchemaTokens: c.tokens[i]}
		if on {
			sum += c.tokens[i]
		}
	}
	return out, sum
}
