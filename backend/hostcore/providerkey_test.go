package hostcore_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pi-desktop/pi-desktop/backend/errs"
	"github.com/pi-desktop/pi-desktop/backend/hostcore"
	"github.com/pi-desktop/pi-desktop/backend/providers"
)

func TestSavedProviderKeepsTheKeyPrivate(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("PI_DESKTOP_PROVIDER", "")
	core, err := hostcore.New(t.Context(), hostcore.Config{DataDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	defer core.Close()
	if _, err := core.SaveProvider(t.Context(), providers.Profile{API: "anthropic", IsDefault: true}, ""); !errs.Is(err, errs.ModelNotConfigured) {
		t.Errorf("no model = %v; want MODEL_NOT_CONFIGURED", err)
	}
	got, err := core.SaveProvider(t.Context(), providers.Profile{API: "anthropic", Model: "claude-x", IsDefault: true}, "sk-ant-secret-123456789")
	if err != nil || !got.HasKey || got.Model != "claude-x" || got.KeyStorage == "" {
		t.Fatalf("saved = %+v, %v", got, err)
	}
	// The key is in a private file, not in the database.
	db, _ := os.ReadFile(filepath.Join(dir, "pi.sqlite"))
	if strings.Contains(string(db), "secret-123456789") {
		t.Error("the API key reached the database")
	}
	fi, err := os.Stat(got.KeyStorage)
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("key file %s: %v %v", got.KeyStorage, fi, err)
	}
	// Saving again without a key keeps it.
	got.Model = "claude-y"
	if again, err := core.SaveProvider(t.Context(), got, ""); err != nil || !again.HasKey {
		t.Errorf("resave = %+v, %v", again, err)
	}
}
