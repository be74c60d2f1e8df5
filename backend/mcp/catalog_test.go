package mcp

import (
	"fmt"
	"slices"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

func toolNames(ts []*sdk.Tool) []string {
	var out []string
	for _, t := range ts {
		out = append(out, t.Name)
	}
	return out
}

func TestNewCatalog(t *testing.T) {
	tool := func(n string) *sdk.Tool { return &sdk.Tool{Name: n, InputSchema: map[string]any{"type": "object"}} }
	tests := []struct {
		name    string
		listed  []*sdk.Tool
		max     int
		kept    []string
		omitted []string
	}{
		{"sorted", []*sdk.Tool{tool("b"), tool("a"), tool("c")}, 64, []string{"a", "b", "c"}, nil},
		{"repeats and nameless dropped", []*sdk.Tool{tool("b"), nil, tool(""), tool("b"), tool("a")}, 64, []string{"a", "b"}, nil},
		{"limit keeps the first by name", []*sdk.Tool{tool("d"), tool("c"), tool("b"), tool("a")}, 2, []string{"a", "b"}, []string{"c", "d"}},
		{"empty", nil, 64, nil, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := newCatalog(tt.listed, tt.max)
			if got := toolNames(c.kept); !slices.Equal(got, tt.kept) {
				t.Errorf("kept = %q, want %q", got, tt.kept)
			}
			if !slices.Equal(c.omitted, tt.omitted) {
				t.Errorf("omitted = %q, want %q", c.omitted, tt.omitted)
			}
			for _, n := range tt.kept {
				if k, o := c.find(n); !k || o {
					t.Errorf("find(%q) = %v, %v; want kept", n, k, o)
				}
			}
			for _, n := range tt.omitted {
				if k, o := c.find(n); k || !o {
					t.Errorf("find(%q) = %v, %v; want omitted", n, k, o)
				}
			}
			if k, o := c.find("zz-unknown"); k || o {
				t.Errorf("find(unknown) = %v, %v", k, o)
			}
		})
	}
}

func TestSchemaTokens(t *testing.T) {
	tests := []struct {
		tool *sdk.Tool
		want int
	}{
		{&sdk.Tool{Name: "abcd"}, 1},
		{&sdk.Tool{Name: "abcde"}, 2}, // rounded up
		{&sdk.Tool{Name: "echo", Title: "Echo", Description: "Echo it."}, 4},
		// {"type":"object"} is 17 bytes: 4 + 17 = 21 → 6
		{&sdk.Tool{Name: "echo", InputSchema: map[string]any{"type": "object"}}, 6},
	}
	for _, tt := range tests {
		if got := SchemaTokens(tt.tool); got != tt.want {
			t.Errorf("SchemaTokens(%+v) = %d, want %d", tt.tool, got, tt.want)
		}
	}
}

func TestCatalogToolsFollowToggles(t *testing.T) {
	var listed []*sdk.Tool
	for i := range 3 {
		listed = append(listed, &sdk.Tool{Name: fmt.Sprintf("t%d", i), Description: "12345678"})
	}
	c := newCatalog(listed, 64)
	s := Server{DisabledTools: map[string]bool{"t1": true}}
	infos, sum := c.tools(s)
	if len(infos) != 3 || !infos[0].Enabled || infos[1].Enabled || !infos[2].Enabled {
		t.Fatalf("tools = %+v", infos)
	}
	// each tool: 2 + 8 bytes → 3 tokens; t1 is off
	if infos[1].SchemaTokens != 3 || sum != 6 {
		t.Errorf("tokens = %d each, %d sum; want 3, 6", infos[1].SchemaTokens, sum)
	}
}
