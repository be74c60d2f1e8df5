package hostcore_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/pi-desktop/pi-desktop/backend/api"
	"github.com/pi-desktop/pi-desktop/backend/errs"
	"github.com/pi-desktop/pi-desktop/backend/hostcore"
	"github.com/pi-desktop/pi-desktop/backend/provider"
	"github.com/pi-desktop/pi-desktop/backend/provider/providertest"
	"github.com/pi-desktop/pi-desktop/backend/providers"
	"github.com/pi-desktop/pi-desktop/backend/store"
	"github.com/pi-desktop/pi-desktop/platform/paths"
)

func providerHost(t *testing.T, kc provider.Keychain) (*hostcore.Core, string) {
	t.Helper()
	t.Setenv(provider.EnvProvider, "")
	dir := t.TempDir()
	core, err := hostcore.New(t.Context(), hostcore.Config{DataDir: dir, RgPath: "-", Keychain: kc})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { core.Close() })
	return core, dir
}

func tempSession(t *testing.T, core *hostcore.Core) api.Session {
	t.Helper()
	s, err := core.CreateSession(t.Context(), api.CreateSessionInput{})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// noSecret fails when the key appears in any file of the data directory
// other than the key file itself.
func noSecret(t *testing.T, dir, secret string) {
	t.Helper()
	_ = filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || d.Name() == provider.KeyFileName {
			return nil
		}
		if data, _ := os.ReadFile(path); strings.Contains(string(data), secret) {
			t.Errorf("the API key reached %s", path)
		}
		return nil
	})
}

func TestProvidersNeverShowTheKey(t *testing.T) {
	const secret = "sk-hostcore-secret-0987654321"
	kc := providertest.NewKeychain()
	core, dir := providerHost(t, kc)
	p, err := core.SaveProvider(t.Context(), providers.Profile{Name: "Claude", API: "anthropic", Model: "claude-x"}, secret)
	if err != nil {
		t.Fatal(err)
	}
	list, err := core.ListProviders(t.Context())
	if err != nil || len(list.Providers) != 1 || list.KeyStorage != provider.KeychainLocation || list.Environment != nil {
		t.Fatalf("ListProviders = %+v, %v", list, err)
	}
	if got := list.Providers[0]; !got.HasKey || got.KeyStorage != provider.KeychainLocation || got.ID != p.ID {
		t.Errorf("listed %+v", got)
	}
	// Nothing the frontend can receive carries the key.
	for name, v := range map[string]any{"list": list, "saved": p} {
		raw, _ := json.Marshal(v)
		if strings.Contains(string(raw), secret) {
			t.Errorf("%s carries the key: %s", name, raw)
		}
	}
	res := core.TestProvider(t.Context(), providers.Profile{ID: p.ID, API: "openai-compatible", BaseURL: "http://127.0.0.1:1/v1", Model: "m"}, "", time.Second)
	if res.OK || strings.Contains(res.Message, secret) {
		t.Errorf("test result %+v", res)
	}
	if kc.Secrets()[provider.Account(p.ID)] != secret {
		t.Errorf("keychain %v", kc.Secrets())
	}
	core.Close()
	noSecret(t, dir, secret) // database, WAL, log file
	if _, err := os.Stat(filepath.Join(dir, provider.KeyFileName)); !os.IsNotExist(err) {
		t.Errorf("a key file exists beside a reachable keychain: %v", err)
	}
}

func TestProvidersFallBackToTheKeyFile(t *testing.T) {
	kc := providertest.NewKeychain()
	kc.Unreachable = true
	core, dir := providerHost(t, kc)
	p, err := core.SaveProvider(t.Context(), providers.Profile{API: "openai", Model: "gpt-5"}, "sk-file")
	if err != nil {
		t.Fatal(err)
	}
	want := filepath.Join(dir, provider.KeyFileName)
	if p.KeyStorage != want {
		t.Errorf("KeyStorage = %q, want %q", p.KeyStorage, want)
	}
	if list, _ := core.ListProviders(t.Context()); list.KeyStorage != want {
		t.Errorf("ListProviders.KeyStorage = %q", list.KeyStorage)
	}
}

func TestSessionsUseTheirChosenProvider(t *testing.T) {
	kc := providertest.NewKeychain()
	core, _ := providerHost(t, kc)
	a := providertest.NewAnthropicServer(t, providertest.Turn{Text: "from A", Times: -1})
	b := providertest.NewOpenAIServer(t, providertest.Turn{Text: "from B", Times: -1})
	pa, err := core.SaveProvider(t.Context(), providers.Profile{Name: "A", API: "anthropic", BaseURL: a.URL, Model: "model-a"}, "sk-a")
	if err != nil {
		t.Fatal(err)
	}
	pb, err := core.SaveProvider(t.Context(), providers.Profile{Name: "B", API: "openai", BaseURL: b.URL + "/v1", Model: "model-b"}, "sk-b")
	if err != nil {
		t.Fatal(err)
	}
	s1, s2 := tempSession(t, core), tempSession(t, core)
	if err := core.SetSessionProvider(t.Context(), s2.ID, pb.ID); err != nil {
		t.Fatal(err)
	}
	run := func(s api.Session, want string) {
		t.Helper()
		res, err := core.RunTurn(t.Context(), s.ID, "hello")
		if err != nil || !strings.Contains(res.Text, want) {
			t.Errorf("turn in %s = %+v, %v; want %q", s.ID, res, err, want)
		}
	}
	run(s1, "from A") // the default
	run(s2, "from B") // its choice
	if got := b.Requests()[0].Header.Get("Authorization"); got != "Bearer sk-b" {
		t.Errorf("B got %q", got)
	}
	if got := a.Requests()[0].JSON()["model"]; got != "model-a" {
		t.Errorf("A got model %v", got)
	}
	if id, _ := core.SessionProvider(t.Context(), s2.ID); id != pb.ID {
		t.Errorf("SessionProvider = %q", id)
	}
	// A new default moves the sessions that never chose.
	if err := core.SetDefaultProvider(t.Context(), pb.ID); err != nil {
		t.Fatal(err)
	}
	run(s1, "from B")
	// Removing the chosen provider sends its session back to the default.
	if err := core.SetDefaultProvider(t.Context(), pa.ID); err != nil {
		t.Fatal(err)
	}
	if err := core.RemoveProvider(t.Context(), pb.ID); err != nil {
		t.Fatal(err)
	}
	run(s2, "from A")
	if err := core.SetSessionProvider(t.Context(), "no-such-session", pa.ID); !errs.Is(err, errs.SessionNotFound) {
		t.Errorf("unknown session = %v", err)
	}
	if err := core.SetSessionProvider(t.Context(), s1.ID, "no-such-provider"); !errs.Is(err, errs.NotFound) {
		t.Errorf("unknown provider = %v", err)
	}
}

func TestEnvironmentModelWhileNoneIsSaved(t *testing.T) {
	srv := providertest.NewOpenAIServer(t, providertest.Turn{Text: "from the environment"})
	core, _ := providerHost(t, nil)
	t.Setenv(provider.EnvProvider, "openai-compatible")
	t.Setenv(provider.EnvModel, "env-model")
	t.Setenv(provider.EnvBaseURL, srv.URL+"/v1")
	t.Setenv(provider.EnvOpenAIKey, "sk-env")
	list, err := core.ListProviders(t.Context())
	if err != nil || list.Environment == nil || list.Environment.Model != "env-model" || !list.Environment.HasKey {
		t.Fatalf("ListProviders = %+v, %v", list, err)
	}
	raw, _ := json.Marshal(list)
	if strings.Contains(string(raw), "sk-env") {
		t.Errorf("the environment's key reached the list: %s", raw)
	}
	s := tempSession(t, core)
	if res, err := core.RunTurn(t.Context(), s.ID, "hi"); err != nil || !strings.Contains(res.Text, "from the environment") {
		t.Fatalf("turn = %+v, %v", res, err)
	}
	if got := srv.Requests()[0].Header.Get("Authorization"); got != "Bearer sk-env" {
		t.Errorf("auth %q", got)
	}
	if got, _ := core.Session(t.Context(), s.ID); got.Title != "hi" {
		t.Errorf("the first prompt did not title the session: %q", got.Title)
	}
	// A saved provider takes over from the environment.
	if _, err := core.SaveProvider(t.Context(), providers.Profile{API: "openai-compatible", BaseURL: "http://127.0.0.1:1/v1", Model: "saved"}, ""); err != nil {
		t.Fatal(err)
	}
	if list, _ := core.ListProviders(t.Context()); list.Environment != nil {
		t.Error("the environment is still offered beside a saved provider")
	}
}

func TestNothingConfiguredIsModelNotConfigured(t *testing.T) {
	core, _ := providerHost(t, nil)
	s := tempSession(t, core)
	if err := core.StartTurn(t.Context(), s.ID, "hi"); !errs.Is(err, errs.ModelNotConfigured) {
		t.Errorf("StartTurn = %v, want MODEL_NOT_CONFIGURED", err)
	}
}

func TestOldModelSettingBecomesTheDefaultProvider(t *testing.T) {
	t.Setenv(provider.EnvProvider, "")
	dir := t.TempDir()
	// An older version saved one model, and its key under the API's name.
	writeLegacy(t, dir, `{"API":"anthropic","Model":"claude-old","ContextWindow":0}`, "sk-legacy")

	kc := providertest.NewKeychain()
	core, err := hostcore.New(t.Context(), hostcore.Config{DataDir: dir, RgPath: "-", Keychain: kc})
	if err != nil {
		t.Fatal(err)
	}
	defer core.Close()
	list := mustList(t, core)
	if len(list) != 1 || list[0].Model != "claude-old" || !list[0].IsDefault || list[0].KeyStorage != provider.KeychainLocation {
		t.Fatalf("after the upgrade: %+v", list)
	}
	if kc.Secrets()[provider.Account(list[0].ID)] != "sk-legacy" {
		t.Errorf("keychain %v", kc.Secrets())
	}
	if _, err := os.Stat(filepath.Join(dir, provider.KeyFileName)); !os.IsNotExist(err) {
		t.Errorf("the old key file is left: %v", err)
	}
}

func mustList(t *testing.T, core *hostcore.Core) []providers.Profile {
	t.Helper()
	l, err := core.ListProviders(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	return l.Providers
}

// writeLegacy stores the single model setting and key file of an older
// version into the data directory dir.
func writeLegacy(t *testing.T, dir, model, key string) {
	t.Helper()
	st, err := store.Open(t.Context(), paths.Layout{Root: dir}.Database(), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if _, err := st.DB().ExecContext(t.Context(), "INSERT INTO settings (key, value) VALUES ('model', ?)", model); err != nil {
		t.Fatal(err)
	}
	if err := provider.NewFileKeyStore(dir).Set("anthropic", key); err != nil {
		t.Fatal(err)
	}
}
