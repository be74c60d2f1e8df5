package provider_test

import (
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/pi-desktop/pi-desktop/backend/errs"
	"github.com/pi-desktop/pi-desktop/backend/provider"
	"github.com/pi-desktop/pi-desktop/backend/provider/providertest"
)

func TestFileKeyStore(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "data")
	ks := provider.NewFileKeyStore(dir)
	var _ provider.KeyStore = ks
	if ks.Where() != filepath.Join(dir, "keys.json") {
		t.Errorf("Where = %s", ks.Where())
	}
	if k, err := ks.Get("anthropic"); err != nil || k != "" {
		t.Fatalf("empty store: %q %v", k, err)
	}
	if err := ks.Set("anthropic", " sk-ant-one "); err != nil {
		t.Fatal(err)
	}
	if err := ks.Set("openai", "sk-two"); err != nil {
		t.Fatal(err)
	}
	if k, _ := ks.Get("anthropic"); k != "sk-ant-one" {
		t.Errorf("get %q", k)
	}
	// A second store on the same file sees the keys.
	if k, _ := provider.NewFileKeyStore(dir).Get("openai"); k != "sk-two" {
		t.Errorf("reopen %q", k)
	}
	fi, err := os.Stat(ks.Where())
	if err != nil {
		t.Fatal(err)
	}
	if runtime.GOOS != "windows" && fi.Mode().Perm() != 0o600 {
		t.Errorf("mode %v, want 0600", fi.Mode().Perm())
	}
	// Atomic: no temporary files are left, and the file is whole JSON.
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Errorf("files left in the data dir: %v", entries)
	}
	var doc map[string]map[string]string
	data, _ := os.ReadFile(ks.Where())
	if err := json.Unmarshal(data, &doc); err != nil || doc["keys"]["openai"] != "sk-two" {
		t.Errorf("file %s: %v", data, err)
	}
	// Removing a key.
	if err := ks.Set("openai", ""); err != nil {
		t.Fatal(err)
	}
	if k, _ := ks.Get("openai"); k != "" {
		t.Errorf("removed key still there: %q", k)
	}
	if err := ks.Set(" ", "x"); !errs.Is(err, errs.InvalidArgument) {
		t.Errorf("empty api name: %v", err)
	}
}

func TestFileKeyStoreTightensModeAndConcurrentSets(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no POSIX modes")
	}
	dir := t.TempDir()
	ks := provider.NewFileKeyStore(dir)
	if err := os.WriteFile(ks.Where(), []byte(`{"keys":{"anthropic":"a"}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	if k, err := ks.Get("anthropic"); err != nil || k != "a" {
		t.Fatalf("%q %v", k, err)
	}
	if fi, _ := os.Stat(ks.Where()); fi.Mode().Perm() != 0o600 {
		t.Errorf("mode %v not tightened", fi.Mode().Perm())
	}
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			name := string(rune('a'+i)) + "-api"
			if err := ks.Set(name, "k-"+name); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	for i := range 8 {
		name := string(rune('a'+i)) + "-api"
		if k, _ := ks.Get(name); k != "k-"+name {
			t.Errorf("%s lost: %q", name, k)
		}
	}
}

func TestFileKeyStoreCorruptDoesNotQuoteContent(t *testing.T) {
	dir := t.TempDir()
	ks := provider.NewFileKeyStore(dir)
	if err := os.WriteFile(ks.Where(), []byte(`{"keys":{"anthropic":"sk-ant-leak`), 0o600); err != nil {
		t.Fatal(err)
	}
	_, err := ks.Get("anthropic")
	if !errs.Is(err, errs.StorageCorrupt) || strings.Contains(err.Error(), "sk-ant-leak") {
		t.Errorf("%v", err)
	}
}

func TestWithStoredKey(t *testing.T) {
	ks := provider.NewFileKeyStore(t.TempDir())
	if err := ks.Set("anthropic", "stored"); err != nil {
		t.Fatal(err)
	}
	cfg, err := provider.Config{API: "anthropic", Model: "m"}.WithStoredKey(ks)
	if err != nil || cfg.APIKey != "stored" {
		t.Errorf("%v %v", cfg, err)
	}
	cfg, _ = provider.Config{API: "anthropic", Model: "m", APIKey: "env"}.WithStoredKey(ks)
	if cfg.APIKey != "env" {
		t.Error("an explicit key wins")
	}
}

func TestRetryAfterHTTPDate(t *testing.T) {
	now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	srv := providertest.NewOpenAIServer(t,
		providertest.Turn{Status: 429, Header: map[string]string{"retry-after": now.Add(7 * time.Second).Format(http.TimeFormat)}},
		providertest.Turn{Text: "ok"},
	)
	var sl providertest.Sleeps
	p := newProvider(t, srv.Config(), provider.WithSleeper(sl.Sleep), provider.WithClock(func() time.Time { return now }))
	if r := stream(t, p, provider.Request{}); r.err != nil {
		t.Fatal(r.err)
	}
	if d := sl.Durations(); len(d) != 1 || d[0] != 7*time.Second {
		t.Errorf("waits %v", d)
	}
}
