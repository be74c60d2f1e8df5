package mcpstore_test

import (
	"strings"
	"testing"

	"github.com/pi-desktop/pi-desktop/backend/errs"
	"github.com/pi-desktop/pi-desktop/backend/mcp"
	"github.com/pi-desktop/pi-desktop/backend/mcpstore"
)

func lookupIn(env map[string]string) func(string) (string, bool) {
	return func(k string) (string, bool) { v, ok := env[k]; return v, ok }
}

func TestExpand(t *testing.T) {
	env := lookupIn(map[string]string{"HOME": "/home/u", "TOKEN": "t0k", "EMPTY": "", "PORT": "8080", "EVIL": "a\r\nX-Injected: 1"})
	cases := []struct {
		in, want string
	}{
		{"plain", "plain"},
		{"${HOME}/bin/server", "/home/u/bin/server"},
		{"${HOME}${HOME}", "/home/u/home/u"},
		{"Bearer ${TOKEN}", "Bearer t0k"},
		{"${UNSET:-fallback}", "fallback"},
		{"${UNSET:-}", ""},
		{"${EMPTY:-default}", ""}, // set but empty is used, as Claude Code does
		{"${PORT:-1}", "8080"},
		{"${UNSET:-a:-b}", "a:-b"},
		{"$HOME", "$HOME"},                 // only the braced form expands
		{"${not a name}", "${not a name}"}, // not a reference
		{"${1X}", "${1X}"},                 // names do not start with a digit
		{"${HOME", "${HOME"},               // unclosed
		{"$${HOME}", "$/home/u"},           // no escape syntax
		{"${}", "${}"},
		{"${UNSET:-${HOME}}", "${HOME}"}, // the default runs to the first '}' and is not expanded
	}
	for _, c := range cases {
		s := mcp.Server{ID: "s", Transport: mcp.TransportStdio, Command: "cmd", Args: []string{c.in}}
		got, err := mcpstore.Expand(s, env)
		if err != nil {
			t.Errorf("Expand(%q) = %v", c.in, err)
			continue
		}
		if out := got.Args[0]; out != c.want {
			t.Errorf("Expand(%q) = %q; want %q", c.in, out, c.want)
		}
	}
}

func TestExpandEveryField(t *testing.T) {
	env := lookupIn(map[string]string{"V": "x"})
	stdio := mcp.Server{ID: "s", Transport: mcp.TransportStdio, Command: "${V}", Args: []string{"-${V}"}, Env: map[string]string{"K_${V}": "${V}"}, Cwd: "${V}"}
	got, err := mcpstore.Expand(stdio, env)
	if err != nil {
		t.Fatal(err)
	}
	if got.Command != "x" || got.Args[0] != "-x" || got.Env["K_${V}"] != "x" || got.Cwd != "${V}" {
		t.Errorf("stdio expanded = %+v", got)
	}
	if stdio.Args[0] != "-${V}" || stdio.Env["K_${V}"] != "${V}" {
		t.Error("Expand changed its input")
	}
	web := mcp.Server{ID: "w", Transport: mcp.TransportHTTP, URL: "https://${V}.example/mcp", Headers: map[string]string{"Authorization": "Bearer ${V}"}}
	got, err = mcpstore.Expand(web, env)
	if err != nil || got.URL != "https://x.example/mcp" || got.Headers["Authorization"] != "Bearer x" {
		t.Errorf("http expanded = %+v, %v", got, err)
	}
	if got.DefinitionHash() == web.DefinitionHash() {
		t.Error("hash unchanged by expansion: the test compares nothing")
	}
}

func TestExpandFailsClosed(t *testing.T) {
	env := lookupIn(map[string]string{"EVIL": "a\r\nX-Injected: 1", "BAD_URL": "file:///etc/passwd"})
	cases := []struct {
		name string
		s    mcp.Server
		code errs.Code
	}{
		{"unset without default", mcp.Server{ID: "s", Transport: mcp.TransportStdio, Command: "x", Args: []string{"${B_UNSET}", "${A_UNSET}"}}, errs.MCPServerUnavailable},
		{"newline smuggled into a header", mcp.Server{ID: "w", Transport: mcp.TransportHTTP, URL: "https://x", Headers: map[string]string{"A": "${EVIL}"}}, errs.InvalidArgument},
		{"url no longer http", mcp.Server{ID: "w", Transport: mcp.TransportHTTP, URL: "${BAD_URL}"}, errs.InvalidArgument},
	}
	for _, c := range cases {
		_, err := mcpstore.Expand(c.s, env)
		if !errs.Is(err, c.code) {
			t.Errorf("%s: %v; want %s", c.name, err, c.code)
		}
	}
	_, err := mcpstore.Expand(cases[0].s, env)
	if e := errs.As(err); e == nil || !strings.Contains(e.Message, "A_UNSET") {
		t.Errorf("the error names %v; want the first unset variable by name", err)
	} else if vars, _ := e.Details["variables"].([]string); len(vars) != 2 {
		t.Errorf("variables = %v", e.Details["variables"])
	}
}
