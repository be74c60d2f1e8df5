package mcp

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"maps"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/pi-desktop/pi-desktop/backend/errs"
)

// Transport is how the host reaches a server.
type Transport string

const (
	TransportStdio Transport = "stdio" // a command the host starts; MCP over its stdin/stdout
	TransportHTTP  Transport = "http"  // streamable HTTP
	TransportSSE   Transport = "sse"   // the legacy HTTP+SSE transport
)

// Timeouts (issue 15): a server has a connect timeout and a call timeout of
// its own; zero means the default.
const (
	DefaultConnectTimeout = 10 * time.Second
	MaxConnectTimeout     = 300 * time.Second // a first `npx -y` may download for minutes
	DefaultCallTimeout    = 100 * time.Second
	MaxCallTimeout        = 600 * time.Second
)

// maxIDLen bounds a server's id; the model-facing name cuts it further.
const maxIDLen = 128

// Server is the definition of one MCP server: what to start or reach, and
// the user's per-server settings.
type Server struct {
	// ID names the server: the key in .mcp.json, or the name given in the
	// app. It is what the model-facing tool names are built from.
	ID        string
	Transport Transport

	// stdio
	Command string
	Args    []string
	Env     map[string]string // added to the environment the Bash policy builds
	Cwd     string            // "" = the project's root; relative = from it

	// http and sse
	URL     string
	Headers map[string]string

	Enabled bool
	// DisabledTools holds the server's own tool names the user switched off.
	DisabledTools map[string]bool
	// ConnectTimeout and CallTimeout: zero means the default.
	ConnectTimeout time.Duration
	CallTimeout    time.Duration
}

// EffectiveConnectTimeout is ConnectTimeout, or the default when unset.
func (s Server) EffectiveConnectTimeout() time.Duration {
	if s.ConnectTimeout <= 0 {
		return DefaultConnectTimeout
	}
	return s.ConnectTimeout
}

// EffectiveCallTimeout is CallTimeout, or the default when unset.
func (s Server) EffectiveCallTimeout() time.Duration {
	if s.CallTimeout <= 0 {
		return DefaultCallTimeout
	}
	return s.CallTimeout
}

// ToolEnabled reports whether the user left the server's tool name on.
func (s Server) ToolEnabled(name string) bool { return !s.DisabledTools[name] }

// Validate checks a definition, whatever its source. The error is
// INVALID_ARGUMENT with the server and the field in its details.
func (s Server) Validate() error {
	if err := validateID(s.ID); err != nil {
		return err
	}
	bad := func(field, format string, args ...any) error {
		return errs.New(errs.InvalidArgument, "MCP server %q: "+format, append([]any{s.ID}, args...)...).
			With("server", s.ID).With("field", field)
	}
	switch s.Transport {
	case TransportStdio:
		if strings.TrimSpace(s.Command) == "" {
			return bad("command", "a stdio server needs a command; set \"command\" (and \"args\")")
		}
		if hasNUL(s.Command) || hasNUL(s.Cwd) {
			return bad("command", "the command and cwd must not contain NUL bytes")
		}
		for _, a := range s.Args {
			if hasNUL(a) {
				return bad("args", "an argument must not contain NUL bytes")
			}
		}
		for k, v := range s.Env {
			if k == "" || strings.ContainsAny(k, "=\x00") || hasNUL(v) {
				return bad("env", "environment variable %q: the name must be non-empty without '=' or NUL, the value without NUL", k)
			}
		}
		if s.URL != "" || len(s.Headers) > 0 {
			return bad("url", "a stdio server takes no \"url\" or \"headers\"; set \"type\" to \"http\" or \"sse\" for a remote server")
		}
	case TransportHTTP, TransportSSE:
		u, err := url.Parse(s.URL)
		if s.URL == "" || err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return bad("url", "%q is not an http(s) URL; set \"url\" to the server's address, e.g. https://example.com/mcp", s.URL)
		}
		for k, v := range s.Headers {
			if !validHeaderName(k) || strings.ContainsAny(v, "\r\n\x00") {
				return bad("headers", "header %q: the name must be an HTTP token, the value a single line", k)
			}
		}
		if s.Command != "" || len(s.Args) > 0 || len(s.Env) > 0 || s.Cwd != "" {
			return bad("command", "a %s server takes no \"command\", \"args\", \"env\" or \"cwd\"; drop \"type\" for a local (stdio) server", s.Transport)
		}
	default:
		return bad("type", "unknown transport %q; use \"stdio\", \"http\" or \"sse\"", s.Transport)
	}
	if s.ConnectTimeout < 0 || s.ConnectTimeout > MaxConnectTimeout {
		return bad("connectTimeout", "the connect timeout must be between 0 (default %s) and %s", DefaultConnectTimeout, MaxConnectTimeout)
	}
	if s.CallTimeout < 0 || s.CallTimeout > MaxCallTimeout {
		return bad("callTimeout", "the call timeout must be between 0 (default %s) and %s", DefaultCallTimeout, MaxCallTimeout)
	}
	return nil
}

func validateID(id string) error {
	switch {
	case strings.TrimSpace(id) == "":
		return errs.New(errs.InvalidArgument, "an MCP server needs a non-empty name").With("field", "id")
	case len(id) > maxIDLen:
		return errs.New(errs.InvalidArgument, "MCP server name %.32q… is longer than %d bytes; choose a shorter name", id, maxIDLen).With("field", "id")
	case !utf8.ValidString(id) || strings.IndexFunc(id, unicode.IsControl) >= 0:
		return errs.New(errs.InvalidArgument, "MCP server name %q must be valid UTF-8 without control characters", id).With("field", "id")
	}
	return nil
}

func hasNUL(s string) bool { return strings.IndexByte(s, 0) >= 0 }

// validHeaderName reports whether k is an RFC 9110 token.
func validHeaderName(k string) bool {
	if k == "" {
		return false
	}
	for i := 0; i < len(k); i++ {
		c := k[i]
		if c >= 0x80 || !(c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || strings.IndexByte("!#$%&'*+-.^_`|~", c) >= 0) {
			return false
		}
	}
	return true
}

// DefinitionHash is a content hash ("sha256:<hex>") of what the server runs
// or reaches: id, transport, command, args, env, cwd, url and headers. The
// user's own settings (enabled, tool toggles, timeouts) are left out, so
// changing them does not ask for trust again, while any change to what
// would run does.
func (s Server) DefinitionHash() string {
	// Every string is length-prefixed and maps are written in key order, so
	// two definitions hash equally only when they are byte for byte equal
	// (JSON would fold invalid UTF-8 into U+FFFD and blur that).
	h := sha256.New()
	str := func(v string) {
		var n [8]byte
		binary.BigEndian.PutUint64(n[:], uint64(len(v)))
		h.Write(n[:])
		h.Write([]byte(v))
	}
	list := func(tag string, vs []string) {
		str(tag)
		str(strconv.Itoa(len(vs)))
		for _, v := range vs {
			str(v)
		}
	}
	dict := func(tag string, m map[string]string) {
		keys := slices.Sorted(maps.Keys(m))
		str(tag)
		str(strconv.Itoa(len(keys)))
		for _, k := range keys {
			str(k)
			str(m[k])
		}
	}
	str("pi-desktop/mcp-definition/v1")
	str(s.ID)
	str(string(s.Transport))
	str(s.Command)
	list("args", s.Args)
	dict("env", s.Env)
	str(s.Cwd)
	str(s.URL)
	dict("headers", s.Headers)
	return "sha256:" + hex.EncodeToString(h.Sum(nil))
}

func sortedKeys(m map[string]string) []string { return slices.Sorted(maps.Keys(m)) }
