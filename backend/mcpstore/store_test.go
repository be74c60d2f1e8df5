package mcpstore_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/pi-desktop/pi-desktop/backend/api"
	"github.com/pi-desktop/pi-desktop/backend/errs"
	"github.com/pi-desktop/pi-desktop/backend/mcp"
	"github.com/pi-desktop/pi-desktop/backend/mcpstore"
	"github.com/pi-desktop/pi-desktop/backend/provider"
	"github.com/pi-desktop/pi-desktop/backend/provider/providertest"
	"github.com/pi-desktop/pi-desktop/backend/store"
)

const (
	headerSecret = "Bearer ghp-mcpstore-header-secret-4711"
	envSecret    = "mcpstore-env-secret-0815"
)

type fixture struct {
	svc  *mcpstore.Service
	st   *store.Store
	kc   *providertest.Keychain
	dir  string
	file string
}

func newFixture(t *testing.T) *fixture {
	t.Helper()
	dir := t.TempDir()
	file := filepath.Join(dir, "pi.sqlite")
	st, err := store.Open(t.Context(), file, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	kc := providertest.NewKeychain()
	var tick int64
	now := func() time.Time { tick++; return time.UnixMilli(1_700_000_000_000 + tick) }
	return &fixture{svc: mcpstore.New(st.DB(), provider.NewKeys(dir, kc, 0), now), st: st, kc: kc, dir: dir, file: file}
}

func (f *fixture) project(t *testing.T, id string) {
	t.Helper()
	if _, err := f.st.DB().ExecContext(t.Context(), "INSERT INTO projects (id, name, path, created_at, updated_at) VALUES (?, ?, ?, 0, 0)", id, id, "/p/"+id); err != nil {
		t.Fatal(err)
	}
}

func stdioInput(id string) api.MCPServerInput {
	return api.MCPServerInput{ID: id, Command: "npx", Args: []string{"-y", "@modelcontextprotocol/server-everything"}, Enabled: true,
		Env: []api.MCPHeader{{Name: "LOG_LEVEL", Value: "debug"}, {Name: "API_TOKEN", Value: envSecret, Secret: true}}}
}

func httpInput(id string) api.MCPServerInput {
	return api.MCPServerInput{ID: id, Transport: "http", URL: "https://mcp.example.com/mcp", Enabled: true,
		Headers: []api.MCPHeader{{Name: "Authorization", Value: headerSecret, Secret: true}, {Name: "X-Team", Value: "core"}}}
}

func (f *fixture) save(t *testing.T, in api.MCPServerInput) api.MCPServer {
	t.Helper()
	got, err := f.svc.Save(t.Context(), in)
	if err != nil {
		t.Fatalf("Save(%+v) = %v", in, err)
	}
	return got
}

// dbBytes is every byte SQLite wrote for the data directory (the file and
// its WAL), to prove a secret is not among them.
func (f *fixture) dbBytes(t *testing.T) []byte {
	t.Helper()
	var all []byte
	for _, suffix := range []string{"", "-wal", "-shm"} {
		b, err := os.ReadFile(f.file + suffix)
		if err == nil {
			all = append(all, b...)
		}
	}
	return all
}

func TestSaveListGetResolve(t *testing.T) {
	f := newFixture(t)
	got := f.save(t, stdioInput("everything"))
	f.save(t, httpInput("github"))

	if got.Scope != api.MCPScopeUser || got.Source != mcpstore.SourceApp || !got.Trusted || got.Transport != "stdio" {
		t.Errorf("saved = %+v", got)
	}
	want := []api.MCPHeader{{Name: "LOG_LEVEL", Value: "debug", HasValue: true}, {Name: "API_TOKEN", Secret: true, HasValue: true}}
	if len(got.Env) != 2 || got.Env[0] != want[0] || got.Env[1] != want[1] {
		t.Errorf("env as the window sees it = %+v; want %+v", got.Env, want)
	}
	list, err := f.svc.List(t.Context())
	if err != nil || len(list) != 2 || list[0].ID != "everything" || list[1].ID != "github" {
		t.Fatalf("List = %+v, %v", list, err)
	}
	for _, s := range list {
		for _, h := range append(s.Headers, s.Env...) {
			if h.Secret && (h.Value != "" || !h.HasValue) {
				t.Errorf("%s: secret %s sent to the window as %+v", s.ID, h.Name, h)
			}
		}
	}
	srv, err := f.svc.Resolve(t.Context(), "github")
	if err != nil {
		t.Fatal(err)
	}
	if srv.Headers["Authorization"] != headerSecret || srv.Headers["X-Team"] != "core" || srv.Transport != mcp.TransportHTTP || !srv.Enabled {
		t.Errorf("Resolve = %+v", srv)
	}
	srv, err = f.svc.Resolve(t.Context(), "everything")
	if err != nil || srv.Env["API_TOKEN"] != envSecret || srv.Env["LOG_LEVEL"] != "debug" || srv.Command != "npx" || len(srv.Args) != 2 {
		t.Errorf("Resolve = %+v, %v", srv, err)
	}
	if _, err := f.svc.Get(t.Context(), "nope"); !errs.Is(err, errs.NotFound) {
		t.Errorf("Get of an unknown id = %v; want NOT_FOUND", err)
	}
	if _, err := f.svc.Resolve(t.Context(), "nope"); !errs.Is(err, errs.NotFound) {
		t.Errorf("Resolve of an unknown id = %v; want NOT_FOUND", err)
	}
}

func TestSecretsNeverReachSQLite(t *testing.T) {
	f := newFixture(t)
	f.save(t, stdioInput("everything"))
	f.save(t, httpInput("github"))
	if _, err := f.st.DB().ExecContext(t.Context(), "PRAGMA wal_checkpoint(TRUNCATE)"); err != nil {
		t.Fatal(err)
	}
	db := f.dbBytes(t)
	for _, secret := range []string{headerSecret, envSecret, "ghp-mcpstore-header-secret"} {
		if bytes.Contains(db, []byte(secret)) {
			t.Errorf("the database file holds the secret %q", secret)
		}
	}
	if !bytes.Contains(db, []byte("https://mcp.example.com/mcp")) {
		t.Error("the scan did not see the rows at all (the non-secret URL is missing)")
	}
	secrets := f.kc.Secrets()
	found := 0
	for account, v := range secrets {
		if !strings.HasPrefix(account, provider.MCPAccountPrefix) {
			t.Errorf("keychain account %q outside mcp/", account)
		}
		if v == headerSecret || v == envSecret {
			found++
		}
	}
	if found != 2 || len(secrets) != 2 {
		t.Errorf("keychain = %v; want the two secrets", secrets)
	}
}

// Two data directories sharing one keychain: the same server id must not
// share an account.
func TestAccountsAreUniqueAcrossDataDirectories(t *testing.T) {
	kc := providertest.NewKeychain()
	for range 2 {
		dir := t.TempDir()
		st, err := store.Open(t.Context(), filepath.Join(dir, "pi.sqlite"), store.Options{})
		if err != nil {
			t.Fatal(err)
		}
		defer st.Close()
		svc := mcpstore.New(st.DB(), provider.NewKeys(dir, kc, 0), nil)
		if _, err := svc.Save(t.Context(), httpInput("github")); err != nil {
			t.Fatal(err)
		}
	}
	if n := len(kc.Secrets()); n != 2 {
		t.Errorf("keychain holds %d accounts for two data directories' \"github\"; want 2: %v", n, kc.Secrets())
	}
}

func TestEditKeepsAndReplacesSecrets(t *testing.T) {
	f := newFixture(t)
	f.save(t, httpInput("github"))

	// An edit that leaves the secret "" keeps it; other fields change.
	in := httpInput("github")
	in.Headers[0].Value = ""
	in.URL = "https://mcp.example.com/v2"
	f.save(t, in)
	srv, err := f.svc.Resolve(t.Context(), "github")
	if err != nil || srv.Headers["Authorization"] != headerSecret || srv.URL != "https://mcp.example.com/v2" {
		t.Fatalf("after an edit keeping the secret: %+v, %v", srv, err)
	}

	// A new value replaces it.
	in.Headers[0].Value = "Bearer new"
	f.save(t, in)
	if srv, _ := f.svc.Resolve(t.Context(), "github"); srv.Headers["Authorization"] != "Bearer new" {
		t.Errorf("replaced secret = %q", srv.Headers["Authorization"])
	}

	// Dropping the header removes its secret; a non-secret value moves to
	// the row, and back into the keychain when marked secret with "".
	in.Headers = []api.MCPHeader{{Name: "X-Team", Value: "platform", Secret: false}}
	f.save(t, in)
	if n := len(f.kc.Secrets()); n != 0 {
		t.Errorf("dropped header left %d secrets: %v", n, f.kc.Secrets())
	}
	in.Headers = []api.MCPHeader{{Name: "x-team", Secret: true}}
	got := f.save(t, in)
	if got.Headers[0].Value != "" || !got.Headers[0].HasValue {
		t.Errorf("header made secret = %+v", got.Headers[0])
	}
	if srv, _ := f.svc.Resolve(t.Context(), "github"); srv.Headers["x-team"] != "platform" {
		t.Errorf("header made secret kept %q", srv.Headers["x-team"])
	}
}

func TestResolveFailsClosedWhenASecretIsGone(t *testing.T) {
	f := newFixture(t)
	f.save(t, httpInput("github"))
	for account := range f.kc.Secrets() {
		if err := f.kc.Delete(account); err != nil {
			t.Fatal(err)
		}
	}
	_, err := f.svc.Resolve(t.Context(), "github")
	if !errs.Is(err, errs.MCPServerUnavailable) {
		t.Fatalf("Resolve without the secret = %v; want MCP_SERVER_UNAVAILABLE", err)
	}
	if strings.Contains(err.Error(), headerSecret) {
		t.Error("the error quotes the secret")
	}
}

func TestSaveValidation(t *testing.T) {
	cases := []struct {
		name  string
		in    func(*api.MCPServerInput)
		code  errs.Code
		field string
	}{
		{"no id", func(in *api.MCPServerInput) { in.ID = "  " }, errs.InvalidArgument, "id"},
		{"stdio without command", func(in *api.MCPServerInput) { in.Command = " " }, errs.InvalidArgument, "command"},
		{"unknown transport", func(in *api.MCPServerInput) { in.Transport = "carrier-pigeon" }, errs.InvalidArgument, "type"},
		{"http url not http", func(in *api.MCPServerInput) { *in = httpInput("x"); in.URL = "ftp://x" }, errs.InvalidArgument, "url"},
		{"header value with newline", func(in *api.MCPServerInput) {
			*in = httpInput("x")
			in.Headers = append(in.Headers, api.MCPHeader{Name: "X-A", Value: "a\nb"}) // inner newline survives the trim
		}, errs.InvalidArgument, "headers"},
		{"secret header with newline", func(in *api.MCPServerInput) {
			*in = httpInput("x")
			in.Headers[0].Value = "Bearer a\r\nX-Evil: 1"
		}, errs.InvalidArgument, "headers"},
		{"header twice", func(in *api.MCPServerInput) {
			*in = httpInput("x")
			in.Headers = append(in.Headers, api.MCPHeader{Name: "authorization", Value: "b"})
		}, errs.InvalidArgument, "headers"},
		{"env without a name", func(in *api.MCPServerInput) { in.Env = []api.MCPHeader{{Value: "v"}} }, errs.InvalidArgument, "env"},
		{"env name with =", func(in *api.MCPServerInput) { in.Env = []api.MCPHeader{{Name: "A=B", Value: "v"}} }, errs.InvalidArgument, "env"},
		{"new secret without a value", func(in *api.MCPServerInput) { in.Env = []api.MCPHeader{{Name: "TOKEN", Secret: true}} }, errs.InvalidArgument, "env"},
		{"negative timeout", func(in *api.MCPServerInput) { in.ConnectTimeoutMs = -1 }, errs.InvalidArgument, "connectTimeoutMs"},
		{"call timeout above 600 s", func(in *api.MCPServerInput) { in.CallTimeoutMs = 600_001 }, errs.InvalidArgument, "callTimeoutMs"},
		{"huge timeout", func(in *api.MCPServerInput) { in.CallTimeoutMs = 1 << 62 }, errs.InvalidArgument, "callTimeoutMs"},
		{"stdio with url", func(in *api.MCPServerInput) { in.URL = "https://x" }, errs.InvalidArgument, "url"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := newFixture(t)
			in := stdioInput("srv")
			c.in(&in)
			_, err := f.svc.Save(t.Context(), in)
			e := errs.As(err)
			if e == nil || e.Code != c.code || e.Details["field"] != c.field {
				t.Fatalf("Save = %v (details %v); want %s on field %s", err, detailsOf(e), c.code, c.field)
			}
			if list, _ := f.svc.List(t.Context()); len(list) != 0 {
				t.Errorf("a refused save wrote %+v", list)
			}
			if n := len(f.kc.Secrets()); n != 0 {
				t.Errorf("a refused save left %d secrets", n)
			}
		})
	}
}

func detailsOf(e *errs.Error) map[string]any {
	if e == nil {
		return nil
	}
	return e.Details
}

func TestSaveNormalizes(t *testing.T) {
	f := newFixture(t)
	got := f.save(t, api.MCPServerInput{
		ID: "  fs ", Command: " npx ", Args: []string{" -y ", "", "  ", "@modelcontextprotocol/server-filesystem", " /tmp "},
		Env:     []api.MCPHeader{{Name: "", Value: ""}, {Name: " A ", Value: " 1 "}},
		Enabled: true, ConnectTimeoutMs: 2500, CallTimeoutMs: 600_000,
	})
	if got.ID != "fs" || got.Command != "npx" || strings.Join(got.Args, "|") != "-y|@modelcontextprotocol/server-filesystem|/tmp" {
		t.Errorf("normalized = %+v", got)
	}
	if len(got.Env) != 1 || got.Env[0].Name != "A" || got.Env[0].Value != "1" {
		t.Errorf("env = %+v", got.Env)
	}
	if got.ConnectTimeoutMs != 2500 || got.CallTimeoutMs != 600_000 {
		t.Errorf("timeouts = %d, %d", got.ConnectTimeoutMs, got.CallTimeoutMs)
	}
	srv, err := f.svc.Resolve(t.Context(), "fs")
	if err != nil || srv.ConnectTimeout != 2500*time.Millisecond || srv.CallTimeout != mcp.MaxCallTimeout {
		t.Errorf("Resolve timeouts = %v, %v, %v", srv.ConnectTimeout, srv.CallTimeout, err)
	}
	// A URL without a transport is a streamable HTTP server.
	got = f.save(t, api.MCPServerInput{ID: "web", URL: "https://x.example/mcp"})
	if got.Transport != "http" || got.Enabled {
		t.Errorf("url-only input = %+v", got)
	}
}

func TestAddRefusesATakenIDSaveReplaces(t *testing.T) {
	f := newFixture(t)
	if _, err := f.svc.Add(t.Context(), stdioInput("a")); err != nil {
		t.Fatal(err)
	}
	if _, err := f.svc.Add(t.Context(), httpInput("a")); !errs.Is(err, errs.Conflict) {
		t.Fatalf("Add of a taken id = %v; want CONFLICT", err)
	}
	got := f.save(t, httpInput("a"))
	if got.Transport != "http" {
		t.Errorf("Save did not replace: %+v", got)
	}
	if list, _ := f.svc.List(t.Context()); len(list) != 1 {
		t.Errorf("ids are not unique: %+v", list)
	}
	// The stdio server's env secret went with the replaced definition.
	for account, v := range f.kc.Secrets() {
		if v == envSecret {
			t.Errorf("replaced definition left its secret at %s", account)
		}
	}
}

func TestRemoveTakesSecretsAndToken(t *testing.T) {
	f := newFixture(t)
	f.save(t, httpInput("github"))
	f.save(t, stdioInput("other"))
	key := mcpstore.TokenKey("", "github")
	if err := f.svc.SaveToken(key, []byte(`{"access_token":"at","refresh_token":"rt"}`)); err != nil {
		t.Fatal(err)
	}
	before := len(f.kc.Secrets())
	if err := f.svc.Remove(t.Context(), "github"); err != nil {
		t.Fatal(err)
	}
	left := f.kc.Secrets()
	if len(left) != before-2 || len(left) != 1 {
		t.Errorf("after Remove the keychain holds %v", left)
	}
	for _, v := range left {
		if v != envSecret {
			t.Errorf("Remove took another server's secret; left %v", left)
		}
	}
	if blob, err := f.svc.LoadToken(key); err != nil || blob != nil {
		t.Errorf("token after Remove = %q, %v", blob, err)
	}
	if err := f.svc.Remove(t.Context(), "github"); !errs.Is(err, errs.NotFound) {
		t.Errorf("second Remove = %v; want NOT_FOUND", err)
	}
	// Saving the same id again starts clean: no token from before.
	f.save(t, httpInput("github"))
	if blob, _ := f.svc.LoadToken(key); blob != nil {
		t.Errorf("a re-added server inherited the old token %q", blob)
	}
}

func TestSwitchesOfAppServers(t *testing.T) {
	f := newFixture(t)
	f.save(t, stdioInput("e"))
	ctx := t.Context()
	steps := []error{
		f.svc.SetEnabled(ctx, "", "e", false),
		f.svc.SetToolEnabled(ctx, "", "e", "echo", false),
		f.svc.SetToolEnabled(ctx, "", "e", "get-sum", false),
		f.svc.SetToolEnabled(ctx, "", "e", "echo", false), // idempotent
		f.svc.SetToolEnabled(ctx, "", "e", "get-sum", true),
	}
	for i, err := range steps {
		if err != nil {
			t.Fatalf("step %d: %v", i, err)
		}
	}
	srv, err := f.svc.Resolve(ctx, "e")
	if err != nil || srv.Enabled || srv.ToolEnabled("echo") || !srv.ToolEnabled("get-sum") || len(srv.DisabledTools) != 1 {
		t.Fatalf("after switching: %+v, %v", srv, err)
	}
	// An edit keeps the tool switches.
	in := stdioInput("e")
	in.Env[1].Value = ""
	f.save(t, in)
	if srv, _ := f.svc.Resolve(ctx, "e"); srv.ToolEnabled("echo") || !srv.Enabled {
		t.Errorf("after an edit: %+v", srv)
	}
	for _, err := range []error{f.svc.SetEnabled(ctx, "", "nope", true), f.svc.SetToolEnabled(ctx, "", "nope", "echo", true)} {
		if !errs.Is(err, errs.NotFound) {
			t.Errorf("switching an unknown server = %v; want NOT_FOUND", err)
		}
	}
	if err := f.svc.SetToolEnabled(ctx, "", "e", " ", false); !errs.Is(err, errs.InvalidArgument) {
		t.Errorf("an empty tool name = %v", err)
	}
}

func TestTokens(t *testing.T) {
	f := newFixture(t)
	f.project(t, "p1")
	f.save(t, httpInput("github"))
	blob := []byte("{\"access_token\":\"a\"}\n\x00 binary  ")
	cases := []struct {
		key     string
		saveErr errs.Code
	}{
		{mcpstore.TokenKey("", "github"), ""},
		{mcpstore.TokenKey("p1", "linear"), ""},
		{mcpstore.TokenKey("", "unsaved"), errs.NotFound},
		{mcpstore.TokenKey("gone", "linear"), errs.ProjectNotFound},
		{"bogus", errs.InvalidArgument},
	}
	for _, c := range cases {
		err := f.svc.SaveToken(c.key, blob)
		if errs.CodeOf(err) != c.saveErr {
			t.Errorf("SaveToken(%q) = %v; want %q", c.key, err, c.saveErr)
			continue
		}
		got, err := f.svc.LoadToken(c.key)
		if c.saveErr != "" {
			if got != nil {
				t.Errorf("LoadToken(%q) after a refused save = %q", c.key, got)
			}
			continue
		}
		if err != nil || !bytes.Equal(got, blob) {
			t.Errorf("LoadToken(%q) = %q, %v", c.key, got, err)
		}
		if err := f.svc.SaveToken(c.key, nil); err != nil {
			t.Fatal(err)
		}
		if got, _ := f.svc.LoadToken(c.key); got != nil {
			t.Errorf("token of %q after an empty save = %q", c.key, got)
		}
	}
	if n := len(f.kc.Secrets()); n != 1 { // the github header only
		t.Errorf("keychain after the token round trips = %v", f.kc.Secrets())
	}
	if bytes.Contains(f.dbBytes(t), []byte("access_token")) {
		t.Error("a token blob reached the database")
	}
}

// provider.Keys is the key store the host passes, and the names this
// package saves are the ones it lets into the keychain.
var _ mcpstore.KeyStore = (*provider.Keys)(nil)

// Without a reachable keychain the secrets go to the data directory's 0600
// key file, still never to the database.
func TestSecretsFallBackToTheKeyFile(t *testing.T) {
	f := newFixture(t)
	f.kc.Unreachable = true
	got := f.save(t, httpInput("github"))
	if !got.Headers[0].HasValue || got.Headers[0].Value != "" {
		t.Errorf("secret header as the window sees it = %+v", got.Headers[0])
	}
	srv, err := f.svc.Resolve(t.Context(), "github")
	if err != nil || srv.Headers["Authorization"] != headerSecret {
		t.Fatalf("Resolve = %+v, %v", srv, err)
	}
	if bytes.Contains(f.dbBytes(t), []byte(headerSecret)) {
		t.Error("the database holds the secret")
	}
	keyFile, err := os.ReadFile(filepath.Join(f.dir, provider.KeyFileName))
	if err != nil || !bytes.Contains(keyFile, []byte(headerSecret)) {
		t.Errorf("the key file does not hold the secret: %v", err)
	}
	if err := f.svc.Remove(t.Context(), "github"); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(f.dir, provider.KeyFileName)); !os.IsNotExist(err) {
		t.Errorf("the key file outlived the server's only secret: %v", err)
	}
}
