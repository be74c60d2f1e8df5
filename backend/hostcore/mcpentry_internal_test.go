package hostcore

import (
	"encoding/json"
	"reflect"
	"testing"
	"time"
)

// Every field of MCPToolEntry decides whether a kept pipeline tool is
// still the one the source lists: a field added later without a
// comparison in sameEntry fails here.
func TestMCPEntryCacheSeesEveryField(t *testing.T) {
	base := func() MCPToolEntry {
		return MCPToolEntry{Scope: "/proj", ServerID: "lab", Tool: "echo", ModelName: "mcp_lab_echo", Title: "Echo",
			Description: "Echo the text back.", InputSchema: json.RawMessage(`{"type":"object"}`), CallTimeout: time.Second}
	}
	var ec entryCache
	ec.put(mcpEntry{MCPToolEntry: base()})
	if _, ok := ec.get(base()); !ok {
		t.Fatal("the same definition is not served from the cache")
	}
	typ := reflect.TypeFor[MCPToolEntry]()
	for i := range typ.NumField() {
		changed := base()
		f := reflect.ValueOf(&changed).Elem().Field(i)
		switch f.Kind() {
		case reflect.String:
			f.SetString(f.String() + "x")
		case reflect.Int64:
			f.SetInt(f.Int() + 1)
		case reflect.Slice:
			f.SetBytes(append(f.Bytes(), ' '))
		default:
			t.Fatalf("field %s of kind %s: teach sameEntry and this test about it", typ.Field(i).Name, f.Kind())
		}
		if _, ok := ec.get(changed); ok {
			t.Errorf("a change of %s is served the old pipeline tool", typ.Field(i).Name)
		}
	}

	// A source that rewrites the schema's bytes in place is not served the
	// tool made of the old ones.
	reused := base()
	ec.put(mcpEntry{MCPToolEntry: reused})
	copy(reused.InputSchema, `{"type":"array"} `)
	if _, ok := ec.get(reused); ok {
		t.Error("a schema rewritten in place is served the old pipeline tool")
	}
}
