package hostcore

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"sync"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/pi-desktop/pi-desktop/backend/errs"
	"github.com/pi-desktop/pi-desktop/backend/mcp"
	"github.com/pi-desktop/pi-desktop/backend/tools"
)

// MCPSource is the MCP side of a session: the tools its scope offers and
// the way to call them. The MCP manager implements it; nil means no MCP
// tools.
type MCPSource interface {
	// Tools is the catalog of a session in projectRoot ("" = a temporary
	// session): the app's servers and that project's trusted ones (a
	// project server overriding an app server of the same id), ready
	// servers only, enabled tools only, ModelName already unique
	// (mcp.Names over the whole catalog). It may start the project's
	// trusted servers; never an untrusted one.
	Tools(ctx context.Context, projectRoot string) ([]MCPToolEntry, error)
	// Call calls e on its server; cancelling ctx sends
	// notifications/cancelled and returns once the call is over.
	Call(ctx context.Context, e MCPToolEntry, args json.RawMessage, onProgress func(mcp.Progress)) (*sdk.CallToolResult, error)
}

// MCPToolEntry is one tool of a session's MCP catalog.
type MCPToolEntry struct {
	// Scope and ServerID are the server's key as the source knows it (the
	// manager's: "" for the app's list, else the project's root); the host
	// only hands the entry back to Call.
	Scope       string
	ServerID    string
	Tool        string // the tool's own name on the server
	ModelName   string // what the model calls
	Title       string
	Description string
	InputSchema json.RawMessage
	CallTimeout time.Duration // 0 = mcp.DefaultCallTimeout
}

// mcpEntry is a catalog entry made a pipeline tool. schema is nil when the
// server's input schema does not compile: the tool is then unusable and
// left out of the on-demand catalog, never a crash.
type mcpEntry struct {
	MCPToolEntry
	tool   tools.Tool
	schema *tools.Schema
	bad    error
}

// mcpCatalog is the session's MCP tools in the source's order; nil without
// a source.
func (c *Core) mcpCatalog(ctx context.Context, projectRoot string) ([]mcpEntry, error) {
	src := c.cfg.MCP
	if src == nil {
		return nil, nil
	}
	list, err := src.Tools(ctx, projectRoot)
	if err != nil {
		return nil, err
	}
	out := make([]mcpEntry, 0, len(list))
	for _, e := range list {
		out = append(out, c.mcpEntry(src, e))
	}
	return out, nil
}

// mcpEntry makes e a pipeline tool calling through src, the one made for
// the same definition before if there is one.
func (c *Core) mcpEntry(src MCPSource, e MCPToolEntry) mcpEntry {
	if got, ok := c.mcpEntries.get(e); ok {
		return got
	}
	info := tools.MCPToolInfo{Server: e.ServerID, Tool: e.Tool, Title: e.Title, ModelName: e.ModelName,
		Description: e.Description, Schema: e.InputSchema, Timeout: callTimeout(e.CallTimeout)}
	t := tools.NewMCPTool(info, func(ctx context.Context, args json.RawMessage, onProgress func(mcp.Progress)) (*sdk.CallToolResult, error) {
		return src.Call(ctx, e, args, onProgress)
	})
	schema, bad := c.mcpSchemas.compile(t.Spec())
	made := mcpEntry{MCPToolEntry: e, tool: t, schema: schema, bad: bad}
	c.mcpEntries.put(made)
	return made
}

// entryCacheMax bounds the pipeline tools kept; past it the cache starts
// over.
const entryCacheMax = 4096

// entryCache keeps each MCP tool made a pipeline tool (its description,
// its compiled schema) between calls, so a call does not build them again
// (issue #15: this was a tenth of the host's share of a call). An entry is
// served only while the source lists the very same definition, compared
// field by field on every lookup: nothing to invalidate, and a changed
// tool (its schema, timeout, server, name) is built afresh on the call
// that first sees it.
type entryCache struct {
	mu sync.Mutex
	m  map[entryKey]mcpEntry
}

type entryKey struct{ scope, modelName string }

func (ec *entryCache) get(e MCPToolEntry) (mcpEntry, bool) {
	ec.mu.Lock()
	got, ok := ec.m[entryKey{e.Scope, e.ModelName}]
	ec.mu.Unlock()
	return got, ok && sameEntry(got.MCPToolEntry, e)
}

func (ec *entryCache) put(e mcpEntry) {
	ec.mu.Lock()
	defer ec.mu.Unlock()
	if ec.m == nil || len(ec.m) >= entryCacheMax {
		ec.m = map[entryKey]mcpEntry{}
	}
	// A copy of the schema it was made from: a source that reuses the bytes
	// for another schema must not make the old entry look current.
	e.InputSchema = bytes.Clone(e.InputSchema)
	ec.m[entryKey{e.Scope, e.ModelName}] = e
}

// sameEntry reports whether a and b define the same tool; every field of
// MCPToolEntry counts (TestMCPEntryCacheSeesEveryField checks this stays
// so).
func sameEntry(a, b MCPToolEntry) bool {
	return a.Scope == b.Scope && a.ServerID == b.ServerID && a.Tool == b.Tool && a.ModelName == b.ModelName &&
		a.Title == b.Title && a.Description == b.Description && a.CallTimeout == b.CallTimeout &&
		bytes.Equal(a.InputSchema, b.InputSchema)
}

// callTimeout is the server's call timeout, the default when unset, at most
// the maximum.
func callTimeout(d time.Duration) time.Duration {
	if d <= 0 {
		return mcp.DefaultCallTimeout
	}
	return min(d, mcp.MaxCallTimeout)
}

// mcpTool looks name up in the catalog of the session in projectRoot.
func (c *Core) mcpTool(ctx context.Context, projectRoot, name string) (mcpEntry, bool, error) {
	src := c.cfg.MCP
	if src == nil {
		return mcpEntry{}, false, nil
	}
	list, err := src.Tools(ctx, projectRoot)
	if err != nil {
		return mcpEntry{}, false, err
	}
	for _, e := range list {
		if e.ModelName == name {
			return c.mcpEntry(src, e), true, nil // only this one: a call costs one tool, not the catalog
		}
	}
	return mcpEntry{}, false, nil
}

// validate checks a call's arguments against the server's schema with the
// builtins' validator.
func (e mcpEntry) validate(raw json.RawMessage) (json.RawMessage, map[string]any, error) {
	if e.schema == nil {
		return nil, nil, errs.Wrap(e.bad, errs.MCPProtocolError,
			"%s cannot be called: the MCP server %q gave it an input schema that is not valid JSON Schema or is over 64 KB; ask the server's author to fix it", e.ModelName, e.ServerID).
			With("server", e.ServerID)
	}
	return e.schema.Validate(e.tool, raw)
}

// schemaCacheMax bounds the compiled schemas kept; past it the cache starts
// over (schemas are cheap to compile again).
const schemaCacheMax = 4096

// schemaCache compiles each distinct MCP input schema once, keyed by its
// bytes' hash: a tool whose other fields change keeps its schema compiled.
type schemaCache struct {
	mu sync.Mutex
	m  map[[32]byte]compiled
}

type compiled struct {
	schema *tools.Schema
	err    error
}

// maxMCPSchema bounds one MCP tool's input schema: a larger one would cost
// the model's context on every request once loaded, and is refused as
// unusable (left out of the catalog) like a schema that does not compile.
const maxMCPSchema = 64 << 10

func (s *schemaCache) compile(spec tools.Spec) (*tools.Schema, error) {
	if len(spec.Schema) > maxMCPSchema {
		return nil, fmt.Errorf("its input schema is %d bytes, over the %d-byte limit", len(spec.Schema), maxMCPSchema)
	}
	key := sha256.Sum256(spec.Schema)
	s.mu.Lock()
	defer s.mu.Unlock()
	if got, ok := s.m[key]; ok {
		return got.schema, got.err
	}
	schema, err := tools.CompileSchema(spec)
	if s.m == nil || len(s.m) >= schemaCacheMax {
		s.m = map[[32]byte]compiled{}
	}
	s.m[key] = compiled{schema, err}
	return schema, err
}
