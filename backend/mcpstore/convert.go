package mcpstore

import (
	"strings"
	"time"

	"github.com/pi-desktop/pi-desktop/backend/api"
	"github.com/pi-desktop/pi-desktop/backend/errs"
	"github.com/pi-desktop/pi-desktop/backend/mcp"
)

// pair is one header or env variable as a row stores it: a secret's Value
// is always "" there (the value is in the key store).
type pair struct {
	Name   string `json:"name"`
	Value  string `json:"value"`
	Secret bool   `json:"secret"`
}

// record is one app server as its row holds it, without secret values.
type record struct {
	ID             string
	SecretID       string
	Transport      mcp.Transport
	Command        string
	Args           []string
	Env            []pair
	Cwd            string
	URL            string
	Headers        []pair
	Enabled        bool
	DisabledTools  []string
	ConnectTimeout time.Duration
	CallTimeout    time.Duration
	CreatedAt      int64
	UpdatedAt      int64
}

func invalid(field, format string, args ...any) error {
	return errs.New(errs.InvalidArgument, format, args...).With("field", field)
}

// normalize turns the form into a record: values trimmed, blank rows and
// empty arguments dropped, the transport guessed from what was filled in
// when not given, timeouts from milliseconds. Secret values stay in the
// returned pairs for Save to move to the key store; nothing is validated
// against mcp.Server here (Save does, once kept secrets are known).
func normalize(in api.MCPServerInput) (record, error) {
	r := record{
		ID:        strings.TrimSpace(in.ID),
		Transport: mcp.Transport(strings.ToLower(strings.TrimSpace(in.Transport))),
		Command:   strings.TrimSpace(in.Command),
		Cwd:       strings.TrimSpace(in.Cwd),
		URL:       strings.TrimSpace(in.URL),
		Enabled:   in.Enabled,
	}
	if r.Transport == "" {
		r.Transport = mcp.TransportStdio
		if r.Command == "" && r.URL != "" {
			r.Transport = mcp.TransportHTTP
		}
	}
	for _, a := range in.Args {
		if a = strings.TrimSpace(a); a != "" {
			r.Args = append(r.Args, a)
		}
	}
	var err error
	if r.Env, err = pairs("env", in.Env, false); err != nil {
		return r, err
	}
	if r.Headers, err = pairs("headers", in.Headers, true); err != nil {
		return r, err
	}
	if r.ConnectTimeout, err = fromMillis("connectTimeoutMs", in.ConnectTimeoutMs, mcp.MaxConnectTimeout); err != nil {
		return r, err
	}
	if r.CallTimeout, err = fromMillis("callTimeoutMs", in.CallTimeoutMs, mcp.MaxCallTimeout); err != nil {
		return r, err
	}
	return r, nil
}

// pairs trims the rows of a header or env list, drops blank ones and
// refuses a nameless value or a name given twice (header names compare
// case-insensitively, as HTTP does).
func pairs(field string, in []api.MCPHeader, foldCase bool) ([]pair, error) {
	var out []pair
	seen := map[string]bool{}
	for _, h := range in {
		p := pair{Name: strings.TrimSpace(h.Name), Value: strings.TrimSpace(h.Value), Secret: h.Secret}
		if p.Name == "" {
			if p.Value == "" {
				continue // an empty row of the form
			}
			return nil, invalid(field, "a value in %s has no name; name it or remove the row", field)
		}
		key := p.Name
		if foldCase {
			key = strings.ToLower(key)
		}
		if seen[key] {
			return nil, invalid(field, "%q is given twice in %s; keep one", p.Name, field)
		}
		seen[key] = true
		out = append(out, p)
	}
	return out, nil
}

func fromMillis(field string, ms int64, max time.Duration) (time.Duration, error) {
	if ms < 0 || ms > max.Milliseconds() {
		return 0, invalid(field, "the timeout must be between 0 (the default) and %d ms (%s)", max.Milliseconds(), max)
	}
	return time.Duration(ms) * time.Millisecond, nil
}

// server is the mcp definition of r with values filling its secrets
// (secret(pair) returns the value to use).
func (r record) server(secret func(kind string, p pair) string) mcp.Server {
	s := mcp.Server{
		ID: r.ID, Transport: r.Transport, Command: r.Command, Args: r.Args, Cwd: r.Cwd, URL: r.URL,
		Enabled: r.Enabled, ConnectTimeout: r.ConnectTimeout, CallTimeout: r.CallTimeout,
	}
	fill := func(kind string, ps []pair) map[string]string {
		if len(ps) == 0 {
			return nil
		}
		m := make(map[string]string, len(ps))
		for _, p := range ps {
			if p.Secret {
				m[p.Name] = secret(kind, p)
			} else {
				m[p.Name] = p.Value
			}
		}
		return m
	}
	s.Env = fill(kindEnv, r.Env)
	s.Headers = fill(kindHeader, r.Headers)
	if len(r.DisabledTools) > 0 {
		s.DisabledTools = make(map[string]bool, len(r.DisabledTools))
		for _, t := range r.DisabledTools {
			s.DisabledTools[t] = true
		}
	}
	return s
}

// apiPairs masks the secrets of a row for the window: Value "" and HasValue
// from has.
func apiPairs(ps []pair, has func(p pair) bool) []api.MCPHeader {
	out := make([]api.MCPHeader, 0, len(ps))
	for _, p := range ps {
		h := api.MCPHeader{Name: p.Name, Value: p.Value, Secret: p.Secret, HasValue: true}
		if p.Secret {
			h.Value, h.HasValue = "", has(p)
		}
		out = append(out, h)
	}
	return out
}

// toAPI is the row as Settings shows it. The live fields (State, Tools, …)
// are the connection manager's to fill; an app server is always trusted.
// DefinitionHash covers the definition with secret values left out, so it
// never depends on (or reveals anything about) a secret.
func (r record) toAPI(has func(kind string, p pair) bool) api.MCPServer {
	blank := r.server(func(string, pair) string { return "" })
	args := r.Args
	if args == nil {
		args = []string{}
	}
	return api.MCPServer{
		ID:               r.ID,
		Scope:            api.MCPScopeUser,
		Source:           SourceApp,
		Transport:        string(r.Transport),
		Command:          r.Command,
		Args:             args,
		Env:              apiPairs(r.Env, func(p pair) bool { return has(kindEnv, p) }),
		Cwd:              r.Cwd,
		URL:              r.URL,
		Headers:          apiPairs(r.Headers, func(p pair) bool { return has(kindHeader, p) }),
		Enabled:          r.Enabled,
		Trusted:          true,
		DefinitionHash:   blank.DefinitionHash(),
		ConnectTimeoutMs: r.ConnectTimeout.Milliseconds(),
		CallTimeoutMs:    r.CallTimeout.Milliseconds(),
		Tools:            []api.MCPTool{},
		LogTail:          []string{},
	}
}
