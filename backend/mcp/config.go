package mcp

import (
	"bytes"
	"encoding/json"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/pi-desktop/pi-desktop/backend/errs"
)

// MaxConfigBytes bounds a project's .mcp.json: a file that large is not a
// server list, and the parser should not hold it in memory.
const MaxConfigBytes = 1 << 20

// ProjectConfig is a parsed .mcp.json: the usable servers, sorted by id,
// and one INVALID_ARGUMENT error per entry that could not be used. A bad
// entry does not hide the good ones; the UI lists both.
type ProjectConfig struct {
	Servers  []Server
	Problems []*errs.Error
}

// entry is one value under "mcpServers", in the format Claude Code and
// other agents share. Fields it does not know are ignored, as they do.
type entry struct {
	Type    *string           `json:"type"`
	Command *string           `json:"command"`
	Args    []string          `json:"args"`
	Env     map[string]string `json:"env"`
	Cwd     *string           `json:"cwd"`
	URL     *string           `json:"url"`
	Headers map[string]string `json:"headers"`
}

// ParseProjectConfig parses the project .mcp.json format:
//
//	{"mcpServers": {"name": {"command": "npx", "args": [...], "env": {...}},
//	                "web":  {"type": "http", "url": "https://…", "headers": {...}},
//	                "old":  {"type": "sse",  "url": "https://…"}}}
//
// A missing "type" means stdio. Values are taken literally: ${VAR}
// references are not expanded here. Parsed servers are enabled (a project
// server still starts only once the user trusts it). The error is
// INVALID_ARGUMENT when the file as a whole is unusable.
func ParseProjectConfig(data []byte) (ProjectConfig, error) {
	if len(data) > MaxConfigBytes {
		return ProjectConfig{}, errs.New(errs.InvalidArgument, ".mcp.json is larger than %d bytes; it should hold only the \"mcpServers\" object", MaxConfigBytes)
	}
	var file struct {
		MCPServers map[string]json.RawMessage `json:"mcpServers"`
	}
	if err := json.Unmarshal(data, &file); err != nil {
		return ProjectConfig{}, errs.Wrap(err, errs.InvalidArgument, ".mcp.json is not valid JSON of the form {\"mcpServers\": {…}}: %s", jsonProblem(err))
	}
	if file.MCPServers == nil {
		return ProjectConfig{}, errs.New(errs.InvalidArgument, ".mcp.json has no \"mcpServers\" object; put the servers under {\"mcpServers\": {\"name\": {…}}}")
	}
	return parseServers(file.MCPServers), nil
}

// ParseServers parses the value of an "mcpServers" object alone, as a
// plugin's manifest holds it under "contributes": the same entries and
// rules as .mcp.json's. The error is INVALID_ARGUMENT when raw is not an
// object.
func ParseServers(raw json.RawMessage) (ProjectConfig, error) {
	if len(raw) > MaxConfigBytes {
		return ProjectConfig{}, errs.New(errs.InvalidArgument, "\"mcpServers\" is larger than %d bytes", MaxConfigBytes)
	}
	var servers map[string]json.RawMessage
	if err := json.Unmarshal(raw, &servers); err != nil || servers == nil {
		return ProjectConfig{}, errs.New(errs.InvalidArgument, "\"mcpServers\" must be an object of servers: {\"name\": {\"command\": …}}")
	}
	return parseServers(servers), nil
}

func parseServers(servers map[string]json.RawMessage) ProjectConfig {
	var cfg ProjectConfig
	for _, name := range slices.Sorted(maps.Keys(servers)) {
		s, err := parseEntry(name, servers[name])
		if err != nil {
			e := errs.As(err)
			if e == nil {
				e = errs.Wrap(err, errs.InvalidArgument, "MCP server %q could not be read", name)
			}
			cfg.Problems = append(cfg.Problems, e.With("server", name))
			continue
		}
		cfg.Servers = append(cfg.Servers, s)
	}
	return cfg
}

func parseEntry(name string, raw json.RawMessage) (Server, error) {
	if err := validateID(name); err != nil {
		return Server{}, err
	}
	if bytes.Equal(bytes.TrimSpace(raw), []byte("null")) {
		return Server{}, errs.New(errs.InvalidArgument, "MCP server %q is null; give it \"command\" or \"url\"", name)
	}
	var e entry
	if err := json.Unmarshal(raw, &e); err != nil {
		return Server{}, errs.Wrap(err, errs.InvalidArgument, "MCP server %q must be an object with \"command\" or \"url\": %s", name, jsonProblem(err))
	}
	s := Server{ID: name, Args: e.Args, Env: e.Env, Headers: e.Headers, Enabled: true}
	s.Command = deref(e.Command)
	s.Cwd = deref(e.Cwd)
	s.URL = deref(e.URL)
	t, err := transportOf(name, e)
	if err != nil {
		return Server{}, err
	}
	s.Transport = t
	if err := s.Validate(); err != nil {
		return Server{}, err
	}
	return s, nil
}

// transportOf reads "type". Spellings other clients write for streamable
// HTTP are accepted, since users paste these files between tools.
func transportOf(name string, e entry) (Transport, error) {
	if e.Type == nil {
		if e.Command == nil && e.URL != nil {
			return "", errs.New(errs.InvalidArgument, "MCP server %q has a \"url\" but no \"type\"; add \"type\": \"http\" (or \"sse\" for the legacy transport)", name).With("field", "type")
		}
		return TransportStdio, nil
	}
	switch strings.ToLower(*e.Type) {
	case "stdio":
		return TransportStdio, nil
	case "http", "streamable-http", "streamablehttp", "streamable_http":
		return TransportHTTP, nil
	case "sse":
		return TransportSSE, nil
	}
	return "", errs.New(errs.InvalidArgument, "MCP server %q has unknown type %q; use \"stdio\", \"http\" or \"sse\"", name, *e.Type).With("field", "type")
}

func deref(p *string) string {
	if p == nil {
		return ""
	}
	return *p
}

// jsonProblem names what is wrong without echoing the file's values, which
// may hold secrets (tokens in headers or env).
func jsonProblem(err error) string {
	switch e := err.(type) {
	case *json.SyntaxError:
		return "syntax error at byte " + strconv.FormatInt(e.Offset, 10)
	case *json.UnmarshalTypeError:
		field := e.Field
		if field == "" {
			field = "the value"
		}
		return field + " must be " + e.Type.String() + ", not " + e.Value
	}
	return "unreadable"
}
