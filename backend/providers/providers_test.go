package providers_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/pi-desktop/pi-desktop/backend/errs"
	"github.com/pi-desktop/pi-desktop/backend/provider"
	"github.com/pi-desktop/pi-desktop/backend/provider/providertest"
	"github.com/pi-desktop/pi-desktop/backend/providers"
	"github.com/pi-desktop/pi-desktop/backend/store"
)

const secret = "sk-ant-providers-secret-42"

type fixture struct {
	svc  *providers.Service
	st   *store.Store
	kc   *providertest.Keychain
	dir  string
	tick int64
}

func newFixture(t *testing.T, kc *providertest.Keychain) *fixture {
	t.Helper()
	dir := t.TempDir()
	st, err := store.Open(t.Context(), filepath.Join(dir, "pi.sqlite"), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	f := &fixture{st: st, kc: kc, dir: dir}
	var keychain provider.Keychain
	if kc != nil {
		keychain = kc
	}
	// A clock that moves, so "oldest first" is well defined.
	now := func() time.Time { f.tick++; return time.UnixMilli(1_700_000_000_000 + f.tick) }
	f.svc = providers.New(st.DB(), provider.NewKeys(dir, keychain, 0), now)
	return f
}

func (f *fixture) save(t *testing.T, p providers.Profile, key string) providers.Profile {
	t.Helper()
	got, err := f.svc.Save(t.Context(), p, key)
	if err != nil {
		t.Fatalf("Save(%+v) = %v", p, err)
	}
	return got
}

func (f *fixture) session(t *testing.T, id string) {
	t.Helper()
	if _, err := f.st.DB().ExecContext(t.Context(), "INSERT INTO sessions (id, title, created_at, updated_at) VALUES (?, 't', 0, 0)", id); err != nil {
		t.Fatal(err)
	}
}

func defaults(t *testing.T, list []providers.Profile) []string {
	t.Helper()
	var out []string
	for _, p := range list {
		if p.IsDefault {
			out = append(out, p.Name)
		}
	}
	return out
}

func TestSaveKeepsTheKeyInTheKeychain(t *testing.T) {
	f := newFixture(t, providertest.NewKeychain())
	p := f.save(t, providers.Profile{Name: "Claude", API: "anthropic", Model: "claude-sonnet-4-5"}, secret)
	if p.ID == "" || !p.IsDefault || !p.HasKey || p.KeyStorage != provider.KeychainLocation {
		t.Fatalf("saved %+v", p)
	}
	if got := f.kc.Secrets()[provider.Account(p.ID)]; got != secret {
		t.Errorf("keychain holds %q", got)
	}
	raw, _ := json.Marshal(p)
	if strings.Contains(string(raw), secret) {
		t.Errorf("the profile carries the key: %s", raw)
	}
	for _, name := range []string{"pi.sqlite", "pi.sqlite-wal", provider.KeyFileName} {
		data, _ := os.ReadFile(filepath.Join(f.dir, name))
		if strings.Contains(string(data), secret) {
			t.Errorf("the key reached %s", name)
		}
	}
	// Saving again without a key keeps it.
	p.Model = "claude-opus-4-5"
	again := f.save(t, p, "")
	if !again.HasKey || again.Model != "claude-opus-4-5" || f.kc.Secrets()[provider.Account(p.ID)] != secret {
		t.Errorf("resave = %+v", again)
	}
	cfg, err := f.svc.Config(t.Context(), again)
	if err != nil || cfg.APIKey != secret || cfg.Model != "claude-opus-4-5" {
		t.Errorf("Config = %v, %v", cfg, err)
	}
}

func TestSaveFallsBackToTheKeyFile(t *testing.T) {
	kc := providertest.NewKeychain()
	kc.Unreachable = true
	f := newFixture(t, kc)
	p := f.save(t, providers.Profile{API: "openai", Model: "gpt-5"}, secret)
	want := filepath.Join(f.dir, provider.KeyFileName)
	if p.KeyStorage != want || !p.HasKey || f.svc.KeyStorage() != want {
		t.Errorf("KeyStorage = %q (store %q), want %q", p.KeyStorage, f.svc.KeyStorage(), want)
	}
	if p.Name != "gpt-5" {
		t.Errorf("an unnamed provider is named after its model, got %q", p.Name)
	}
}

func TestSaveValidates(t *testing.T) {
	f := newFixture(t, providertest.NewKeychain())
	f.save(t, providers.Profile{Name: "Taken", API: "openai-compatible", BaseURL: "http://localhost:11434/v1", Model: "llama3.1:8b"}, "")
	bad := func(v float64) *float64 { return &v }
	for _, tc := range []struct {
		name  string
		in    providers.Profile
		key   string
		code  errs.Code
		field string
	}{
		{"unknown api", providers.Profile{API: "gemini", Model: "m"}, "k", errs.InvalidArgument, "api"},
		{"no model", providers.Profile{API: "anthropic"}, "k", errs.ModelNotConfigured, "model"},
		{"no key", providers.Profile{API: "anthropic", Model: "m"}, "", errs.ModelNotConfigured, ""},
		{"compatible without base URL", providers.Profile{API: "openai-compatible", Model: "m"}, "", errs.ModelNotConfigured, "baseUrl"},
		{"not a URL", providers.Profile{API: "openai-compatible", BaseURL: "localhost:11434", Model: "m"}, "", errs.InvalidArgument, "baseUrl"},
		{"key in the URL", providers.Profile{API: "openai-compatible", BaseURL: "http://u:sk-x@host/v1", Model: "m"}, "", errs.InvalidArgument, "baseUrl"},
		{"negative context", providers.Profile{API: "openai", Model: "m", ContextWindow: -1}, "k", errs.InvalidArgument, "contextWindow"},
		{"negative output", providers.Profile{API: "openai", Model: "m", MaxOutputTokens: -5}, "k", errs.InvalidArgument, "maxOutputTokens"},
		{"temperature too high", providers.Profile{API: "openai", Model: "m", Temperature: bad(2.5)}, "k", errs.InvalidArgument, "temperature"},
		{"name taken (any case)", providers.Profile{Name: "taken", API: "openai", Model: "m"}, "k", errs.Conflict, "name"},
		{"unknown id", providers.Profile{ID: "nope", API: "openai", Model: "m"}, "k", errs.NotFound, "id"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := f.svc.Save(t.Context(), tc.in, tc.key)
			if !errs.Is(err, tc.code) {
				t.Fatalf("Save = %v, want %s", err, tc.code)
			}
			if tc.field != "" && errs.As(err).Details["field"] != tc.field {
				t.Errorf("details %v, want field %s", errs.As(err).Details, tc.field)
			}
		})
	}
	list, _ := f.svc.List(t.Context())
	if len(list) != 1 || len(f.kc.Secrets()) != 0 {
		t.Errorf("a refused save left something behind: %d providers, keychain %v", len(list), f.kc.Secrets())
	}
}

func TestSaveNormalizes(t *testing.T) {
	f := newFixture(t, providertest.NewKeychain())
	temp := 0.7
	p := f.save(t, providers.Profile{Name: "  GPT  ", API: " OpenAI ", Model: " gpt-5 ", Thinking: true, Temperature: &temp, ContextWindow: 400000}, "k")
	if p.Name != "GPT" || p.API != "openai" || p.Model != "gpt-5" || p.Thinking || p.Temperature == nil || *p.Temperature != 0.7 || p.ContextWindow != 400000 {
		t.Errorf("saved %+v (thinking is Anthropic only)", p)
	}
	c := f.save(t, providers.Profile{API: "anthropic", Model: "claude", Thinking: true, MaxOutputTokens: 32000}, "k")
	if !c.Thinking || c.Temperature != nil || c.MaxOutputTokens != 32000 {
		t.Errorf("saved %+v", c)
	}
}

func TestOneDefault(t *testing.T) {
	f := newFixture(t, providertest.NewKeychain())
	a := f.save(t, providers.Profile{Name: "A", API: "openai", Model: "a"}, "k")
	b := f.save(t, providers.Profile{Name: "B", API: "openai", Model: "b"}, "k")
	list, _ := f.svc.List(t.Context())
	if got := defaults(t, list); len(got) != 1 || got[0] != "A" {
		t.Fatalf("defaults %v: the first provider is the default", got)
	}
	b.IsDefault = true
	f.save(t, b, "")
	list, _ = f.svc.List(t.Context())
	if got := defaults(t, list); len(got) != 1 || got[0] != "B" {
		t.Errorf("defaults %v after saving B as default", got)
	}
	// Saving the default without the flag keeps it the default.
	b.IsDefault = false
	f.save(t, b, "")
	if err := f.svc.SetDefault(t.Context(), a.ID); err != nil {
		t.Fatal(err)
	}
	d, ok, err := f.svc.Default(t.Context())
	if err != nil || !ok || d.ID != a.ID {
		t.Errorf("Default = %+v %v %v", d, ok, err)
	}
	if err := f.svc.SetDefault(t.Context(), "nope"); !errs.Is(err, errs.NotFound) {
		t.Errorf("SetDefault(unknown) = %v", err)
	}
}

func TestRemove(t *testing.T) {
	f := newFixture(t, providertest.NewKeychain())
	a := f.save(t, providers.Profile{Name: "A", API: "anthropic", Model: "a"}, "sk-a")
	b := f.save(t, providers.Profile{Name: "B", API: "openai", Model: "b"}, "sk-b")
	c := f.save(t, providers.Profile{Name: "C", API: "openai", Model: "c"}, "sk-c")
	f.session(t, "s1")
	f.session(t, "s2")
	if err := f.svc.SetSessionChoice(t.Context(), "s1", a.ID); err != nil {
		t.Fatal(err)
	}
	if err := f.svc.SetSessionChoice(t.Context(), "s2", c.ID); err != nil {
		t.Fatal(err)
	}
	if err := f.svc.Remove(t.Context(), a.ID); err != nil {
		t.Fatal(err)
	}
	// Its key is gone, the oldest remaining provider is the default, and its
	// session follows the default again; other choices are kept.
	if _, ok := f.kc.Secrets()[provider.Account(a.ID)]; ok || len(f.kc.Secrets()) != 2 {
		t.Errorf("keychain after remove: %v", f.kc.Secrets())
	}
	list, _ := f.svc.List(t.Context())
	if got := defaults(t, list); len(list) != 2 || len(got) != 1 || got[0] != "B" {
		t.Errorf("after removing the default: %d providers, defaults %v", len(list), got)
	}
	if id, _ := f.svc.SessionChoice(t.Context(), "s1"); id != "" {
		t.Errorf("s1 still chooses the removed provider %q", id)
	}
	if p, ok, _ := f.svc.ForSession(t.Context(), "s1"); !ok || p.ID != b.ID {
		t.Errorf("s1 uses %+v", p)
	}
	if p, _, _ := f.svc.ForSession(t.Context(), "s2"); p.ID != c.ID {
		t.Errorf("s2 uses %+v", p)
	}
	if err := f.svc.Remove(t.Context(), a.ID); !errs.Is(err, errs.NotFound) {
		t.Errorf("second remove = %v", err)
	}
	for _, p := range list {
		_ = f.svc.Remove(t.Context(), p.ID)
	}
	if _, ok, err := f.svc.Default(t.Context()); ok || err != nil {
		t.Errorf("Default with none saved: %v %v", ok, err)
	}
	if len(f.kc.Secrets()) != 0 {
		t.Errorf("keys left: %v", f.kc.Secrets())
	}
}

func TestSessionChoice(t *testing.T) {
	f := newFixture(t, providertest.NewKeychain())
	f.session(t, "s")
	if _, ok, err := f.svc.ForSession(t.Context(), "s"); ok || err != nil {
		t.Errorf("nothing saved: %v %v", ok, err)
	}
	a := f.save(t, providers.Profile{Name: "A", API: "openai", Model: "a"}, "k")
	b := f.save(t, providers.Profile{Name: "B", API: "openai", Model: "b"}, "k")
	if p, _, _ := f.svc.ForSession(t.Context(), "s"); p.ID != a.ID {
		t.Errorf("a session that never chose uses the default, got %s", p.Name)
	}
	if err := f.svc.SetSessionChoice(t.Context(), "s", b.ID); err != nil {
		t.Fatal(err)
	}
	if p, _, _ := f.svc.ForSession(t.Context(), "s"); p.ID != b.ID {
		t.Errorf("chosen B, uses %s", p.Name)
	}
	if err := f.svc.SetSessionChoice(t.Context(), "s", "nope"); !errs.Is(err, errs.NotFound) {
		t.Errorf("unknown provider = %v", err)
	}
	if err := f.svc.SetSessionChoice(t.Context(), "s", ""); err != nil {
		t.Fatal(err)
	}
	if id, _ := f.svc.SessionChoice(t.Context(), "s"); id != "" {
		t.Errorf("reset choice = %q", id)
	}
	// A deleted session takes its choice with it.
	_ = f.svc.SetSessionChoice(t.Context(), "s", b.ID)
	if _, err := f.st.DB().ExecContext(t.Context(), "DELETE FROM sessions WHERE id = 's'"); err != nil {
		t.Fatal(err)
	}
	var n int
	_ = f.st.DB().QueryRowContext(t.Context(), "SELECT count(*) FROM session_providers").Scan(&n)
	if n != 0 {
		t.Errorf("%d choices left after the session was deleted", n)
	}
}

func TestUpgradeLegacyModel(t *testing.T) {
	f := newFixture(t, providertest.NewKeychain())
	legacy := `{"API":"anthropic","BaseURL":"","Model":"claude-x","ContextWindow":100000,"MaxOutputTokens":0,"Temperature":null,"Thinking":true,"ThinkingBudget":0}`
	if _, err := f.st.DB().ExecContext(t.Context(), "INSERT INTO settings (key, value) VALUES ('model', ?)", legacy); err != nil {
		t.Fatal(err)
	}
	if err := provider.NewFileKeyStore(f.dir).Set("anthropic", secret); err != nil {
		t.Fatal(err)
	}
	if err := f.svc.UpgradeLegacy(t.Context()); err != nil {
		t.Fatal(err)
	}
	list, err := f.svc.List(t.Context())
	if err != nil || len(list) != 1 {
		t.Fatalf("List = %v, %v", list, err)
	}
	p := list[0]
	if p.Name != "claude-x" || p.API != "anthropic" || p.ContextWindow != 100000 || !p.Thinking || !p.IsDefault || p.KeyStorage != provider.KeychainLocation {
		t.Errorf("upgraded %+v", p)
	}
	if f.kc.Secrets()[provider.Account(p.ID)] != secret {
		t.Errorf("keychain %v", f.kc.Secrets())
	}
	if _, err := os.Stat(filepath.Join(f.dir, provider.KeyFileName)); !os.IsNotExist(err) {
		t.Errorf("the old key file is left: %v", err)
	}
	var n int
	_ = f.st.DB().QueryRowContext(t.Context(), "SELECT count(*) FROM settings WHERE key = 'model'").Scan(&n)
	if n != 0 {
		t.Error("the old model row is left")
	}
	if err := f.svc.UpgradeLegacy(t.Context()); err != nil {
		t.Fatal(err)
	}
	if list, _ := f.svc.List(t.Context()); len(list) != 1 {
		t.Errorf("a second upgrade added providers: %d", len(list))
	}
}

func TestTestConnection(t *testing.T) {
	f := newFixture(t, providertest.NewKeychain())
	srv := providertest.NewAnthropicServer(t,
		providertest.Turn{Text: "pong"},
		providertest.Turn{Status: 401},
		providertest.Turn{Text: "pong"},
	)
	saved := f.save(t, providers.Profile{Name: "Fake", API: "anthropic", BaseURL: srv.URL, Model: providertest.Model}, providertest.Key)
	// A saved provider is tested with its saved key.
	if err := f.svc.Test(t.Context(), saved, "", time.Second); err != nil {
		t.Fatalf("Test(saved) = %v", err)
	}
	// A draft is tested with the key typed into the form.
	draft := saved
	draft.ID = ""
	if err := f.svc.Test(t.Context(), draft, "sk-wrong", time.Second); !errs.Is(err, errs.ProviderUnauthorized) {
		t.Errorf("Test(wrong key) = %v", err)
	}
	if err := f.svc.Test(t.Context(), draft, providertest.Key, time.Second); err != nil {
		t.Errorf("Test(draft) = %v", err)
	}
	if err := f.svc.Test(t.Context(), draft, "", time.Second); !errs.Is(err, errs.ModelNotConfigured) {
		t.Errorf("Test(draft without a key) = %v", err)
	}
	reqs := srv.Requests()
	if len(reqs) != 3 {
		t.Fatalf("%d requests", len(reqs))
	}
	key := func(r providertest.Request) string {
		if k := r.Header.Get("X-Api-Key"); k != "" {
			return k
		}
		return strings.TrimPrefix(r.Header.Get("Authorization"), "Bearer ")
	}
	if got := key(reqs[0]); got != providertest.Key {
		t.Errorf("saved key not used: %q", got)
	}
	if got := key(reqs[1]); got != "sk-wrong" {
		t.Errorf("typed key not used: %q", got)
	}
}
