package mcp_test

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/pi-desktop/pi-desktop/backend/errs"
	"github.com/pi-desktop/pi-desktop/backend/mcp"
)

func TestParseProjectConfig(t *testing.T) {
	tests := []struct {
		name     string
		in       string
		want     []mcp.Server
		problems map[string]string // server → field named in the error's details
	}{
		{
			name: "stdio without type",
			in:   `{"mcpServers":{"fs":{"command":"npx","args":["-y","@modelcontextprotocol/server-filesystem","."],"env":{"DEBUG":"1"}}}}`,
			want: []mcp.Server{{ID: "fs", Transport: mcp.TransportStdio, Command: "npx",
				Args: []string{"-y", "@modelcontextprotocol/server-filesystem", "."}, Env: map[string]string{"DEBUG": "1"}, Enabled: true}},
		},
		{
			name: "http sse and explicit stdio, sorted by id",
			in: `{"mcpServers":{
				"web":{"type":"http","url":"https://example.com/mcp","headers":{"Authorization":"Bearer x"}},
				"old":{"type":"sse","url":"http://127.0.0.1:9000/sse"},
				"local":{"type":"stdio","command":"./server","cwd":"tools"}}}`,
			want: []mcp.Server{
				{ID: "local", Transport: mcp.TransportStdio, Command: "./server", Cwd: "tools", Enabled: true},
				{ID: "old", Transport: mcp.TransportSSE, URL: "http://127.0.0.1:9000/sse", Enabled: true},
				{ID: "web", Transport: mcp.TransportHTTP, URL: "https://example.com/mcp", Headers: map[string]string{"Authorization": "Bearer x"}, Enabled: true},
			},
		},
		{
			name: "streamable-http spelling and unknown fields ignored",
			in:   `{"mcpServers":{"a":{"type":"streamable-http","url":"https://a.example/mcp","timeout":5}},"other":true}`,
			want: []mcp.Server{{ID: "a", Transport: mcp.TransportHTTP, URL: "https://a.example/mcp", Enabled: true}},
		},
		{
			name: "bad entries do not hide good ones",
			in: `{"mcpServers":{
				"ok":{"command":"srv"},
				"nocmd":{"args":["x"]},
				"urlnotype":{"url":"https://x.example"},
				"badtype":{"type":"websocket","url":"wss://x"},
				"badurl":{"type":"http","url":"ftp://x"},
				"mixed":{"type":"http","url":"https://x.example","command":"srv"},
				"stdiourl":{"command":"srv","url":"https://x.example"},
				"badenv":{"command":"srv","env":{"A=B":"1"}},
				"badheader":{"type":"http","url":"https://x.example","headers":{"X":"a\nb"}},
				"badargs":{"command":"srv","args":"-v"},
				"null":null}}`,
			want: []mcp.Server{{ID: "ok", Transport: mcp.TransportStdio, Command: "srv", Enabled: true}},
			problems: map[string]string{
				"nocmd": "command", "urlnotype": "type", "badtype": "type", "badurl": "url",
				"mixed": "command", "stdiourl": "url", "badenv": "env", "badheader": "headers",
				"badargs": "", "null": "",
			},
		},
		{
			name: "empty server list",
			in:   `{"mcpServers":{}}`,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg, err := mcp.ParseProjectConfig([]byte(tt.in))
			if err != nil {
				t.Fatalf("ParseProjectConfig: %v", err)
			}
			if diff := cmp.Diff(tt.want, cfg.Servers, cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("servers (-want +got):\n%s", diff)
			}
			got := map[string]string{}
			for _, p := range cfg.Problems {
				if p.Code != errs.InvalidArgument {
					t.Errorf("problem code = %s, want INVALID_ARGUMENT (%v)", p.Code, p)
				}
				field, _ := p.Details["field"].(string)
				got[p.Details["server"].(string)] = field
			}
			if diff := cmp.Diff(tt.problems, got, cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("problems server→field (-want +got):\n%s", diff)
			}
		})
	}
}

func TestParseProjectConfigRejectsFile(t *testing.T) {
	tests := []struct{ name, in string }{
		{"not json", `{"mcpServers":`},
		{"no mcpServers", `{"servers":{}}`},
		{"mcpServers not an object", `{"mcpServers":[1]}`},
		{"top level array", `[]`},
		{"too large", `{"mcpServers":{}}` + strings.Repeat(" ", mcp.MaxConfigBytes)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := mcp.ParseProjectConfig([]byte(tt.in))
			if !errs.Is(err, errs.InvalidArgument) {
				t.Fatalf("err = %v, want INVALID_ARGUMENT", err)
			}
		})
	}
}

func TestParseErrorsDoNotEchoSecrets(t *testing.T) {
	in := `{"mcpServers":{"web":{"type":"http","url":"https://x.example","headers":{"Authorization":["s3cret-token"]}}}}`
	cfg, err := mcp.ParseProjectConfig([]byte(in))
	if err != nil || len(cfg.Problems) != 1 {
		t.Fatalf("cfg = %+v, err = %v; want one problem", cfg, err)
	}
	if p := errs.ToPayload(cfg.Problems[0]); strings.Contains(p.Message, "s3cret") {
		t.Errorf("message echoes a header value: %q", p.Message)
	}
}

func TestServerValidateTimeoutsAndID(t *testing.T) {
	ok := mcp.Server{ID: "s", Transport: mcp.TransportStdio, Command: "srv"}
	tests := []struct {
		name  string
		edit  func(*mcp.Server)
		field string // "" = valid
	}{
		{"defaults", func(*mcp.Server) {}, ""},
		{"max call timeout", func(s *mcp.Server) { s.CallTimeout = mcp.MaxCallTimeout }, ""},
		{"call timeout above max", func(s *mcp.Server) { s.CallTimeout = mcp.MaxCallTimeout + time.Second }, "callTimeout"},
		{"negative connect timeout", func(s *mcp.Server) { s.ConnectTimeout = -time.Second }, "connectTimeout"},
		{"empty id", func(s *mcp.Server) { s.ID = " " }, "id"},
		{"control char in id", func(s *mcp.Server) { s.ID = "a\nb" }, "id"},
		{"long id", func(s *mcp.Server) { s.ID = strings.Repeat("a", 129) }, "id"},
		{"unknown transport", func(s *mcp.Server) { s.Transport = "ws" }, "type"},
		{"NUL in arg", func(s *mcp.Server) { s.Args = []string{"a\x00"} }, "args"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := ok
			tt.edit(&s)
			err := s.Validate()
			if tt.field == "" {
				if err != nil {
					t.Fatalf("Validate: %v", err)
				}
				return
			}
			e := errs.As(err)
			if e == nil || e.Code != errs.InvalidArgument || e.Details["field"] != tt.field {
				t.Fatalf("Validate = %v, want INVALID_ARGUMENT on field %q", err, tt.field)
			}
		})
	}
	if got := ok.EffectiveConnectTimeout(); got != 10*time.Second {
		t.Errorf("default connect timeout = %s, want 10s", got)
	}
	if got := ok.EffectiveCallTimeout(); got != 100*time.Second {
		t.Errorf("default call timeout = %s, want 100s", got)
	}
}

func TestDefinitionHash(t *testing.T) {
	base := mcp.Server{ID: "fs", Transport: mcp.TransportStdio, Command: "npx", Args: []string{"-y", "pkg"},
		Env: map[string]string{"A": "1", "B": "2"}, Enabled: true}
	same := []struct {
		name string
		edit func(*mcp.Server)
	}{
		{"disabled", func(s *mcp.Server) { s.Enabled = false }},
		{"tool toggles", func(s *mcp.Server) { s.DisabledTools = map[string]bool{"x": true} }},
		{"timeouts", func(s *mcp.Server) { s.CallTimeout, s.ConnectTimeout = time.Minute, time.Minute }},
		{"env rebuilt in another order", func(s *mcp.Server) { s.Env = map[string]string{"B": "2", "A": "1"} }},
	}
	changed := []struct {
		name string
		edit func(*mcp.Server)
	}{
		{"id", func(s *mcp.Server) { s.ID = "fs2" }},
		{"command", func(s *mcp.Server) { s.Command = "node" }},
		{"arg", func(s *mcp.Server) { s.Args = []string{"-y", "pkg@2"} }},
		{"args split differently", func(s *mcp.Server) { s.Args = []string{"-y pkg"} }},
		{"arg moved into command", func(s *mcp.Server) { s.Command, s.Args = "npx -y", []string{"pkg"} }},
		{"env value", func(s *mcp.Server) { s.Env = map[string]string{"A": "1", "B": "3"} }},
		{"env key and value swapped", func(s *mcp.Server) { s.Env = map[string]string{"A": "1", "2": "B"} }},
		{"cwd", func(s *mcp.Server) { s.Cwd = "sub" }},
		{"transport", func(s *mcp.Server) { s.Transport = mcp.TransportHTTP }},
		{"url", func(s *mcp.Server) { s.URL = "https://x" }},
		{"header", func(s *mcp.Server) { s.Headers = map[string]string{"X": "1"} }},
		{"invalid utf-8 byte", func(s *mcp.Server) { s.Args = []string{"-y", "pkg\xff"} }},
	}
	h := base.DefinitionHash()
	if !strings.HasPrefix(h, "sha256:") || len(h) != len("sha256:")+64 {
		t.Fatalf("hash = %q, want sha256:<64 hex>", h)
	}
	for _, tt := range same {
		s := base
		tt.edit(&s)
		if got := s.DefinitionHash(); got != h {
			t.Errorf("%s: hash changed", tt.name)
		}
	}
	seen := map[string]string{h: "base"}
	for _, tt := range changed {
		s := base
		tt.edit(&s)
		got := s.DefinitionHash()
		if prev, dup := seen[got]; dup {
			t.Errorf("%s: hash equals that of %s", tt.name, prev)
		}
		seen[got] = tt.name
	}
}

func FuzzParseProjectConfig(f *testing.F) {
	for _, seed := range []string{
		`{"mcpServers":{"fs":{"command":"npx","args":["-y","x"],"env":{"A":"1"}}}}`,
		`{"mcpServers":{"w":{"type":"http","url":"https://x.example/mcp","headers":{"A":"b"}}}}`,
		`{"mcpServers":{"s":{"type":"sse","url":"http://127.0.0.1/sse"},"n":null,"b":{"args":1}}}`,
		`{"mcpServers":{"":{"command":"x"},"a\u0000":{"command":"y"}}}`,
		`{}`, `[]`, `null`, ``,
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		cfg, err := mcp.ParseProjectConfig(data)
		if err != nil {
			if !errs.Is(err, errs.InvalidArgument) {
				t.Fatalf("file error %v is not INVALID_ARGUMENT", err)
			}
			return
		}
		prev := ""
		for i, s := range cfg.Servers {
			if err := s.Validate(); err != nil {
				t.Fatalf("parsed server %q does not validate: %v", s.ID, err)
			}
			if i > 0 && s.ID <= prev {
				t.Fatalf("servers not sorted by unique id: %q after %q", s.ID, prev)
			}
			prev = s.ID
			if !s.Enabled {
				t.Fatalf("parsed server %q is not enabled", s.ID)
			}
		}
		for _, p := range cfg.Problems {
			if p.Code != errs.InvalidArgument || p.Details["server"] == nil {
				t.Fatalf("problem %v lacks INVALID_ARGUMENT or its server", p)
			}
		}
	})
}

// ParseServers reads the "mcpServers" value alone (a plugin manifest's) by
// .mcp.json's rules: the same servers and problems.
func TestParseServersMatchesProjectConfig(t *testing.T) {
	for _, tc := range []struct {
		name, raw string
		servers   []string
		problems  int
		fails     bool
	}{
		{"stdio and http", `{"fs": {"command": "npx", "args": ["-y", "x"]}, "web": {"type": "http", "url": "https://example.com/mcp"}}`, []string{"fs", "web"}, 0, false},
		{"a bad entry beside a good one", `{"ok": {"command": "x"}, "bad": {"type": "carrier-pigeon"}}`, []string{"ok"}, 1, false},
		{"empty", `{}`, nil, 0, false},
		{"not an object", `["fs"]`, nil, 0, true},
		{"null", `null`, nil, 0, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg, err := mcp.ParseServers(json.RawMessage(tc.raw))
			if tc.fails {
				if !errs.Is(err, errs.InvalidArgument) {
					t.Fatalf("err = %v, want INVALID_ARGUMENT", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var ids []string
			for _, s := range cfg.Servers {
				ids = append(ids, s.ID)
			}
			if !slices.Equal(ids, tc.servers) || len(cfg.Problems) != tc.problems {
				t.Errorf("servers %v problems %v; want %v and %d", ids, cfg.Problems, tc.servers, tc.problems)
			}
			whole, err := mcp.ParseProjectConfig([]byte(`{"mcpServers": ` + tc.raw + `}`))
			if err != nil || len(whole.Servers) != len(cfg.Servers) || len(whole.Problems) != len(cfg.Problems) {
				t.Errorf("differs from .mcp.json's parse: %+v, %v", whole, err)
			}
		})
	}
}
