package provider_test

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/pi-desktop/pi-desktop/backend/errs"
	"github.com/pi-desktop/pi-desktop/backend/provider"
	"github.com/pi-desktop/pi-desktop/backend/provider/providertest"
)

const secret = "sk-ant-very-secret-0123456789"

func fileKeys(t *testing.T, dir string) map[string]string {
	t.Helper()
	fs := provider.NewFileKeyStore(dir)
	names, err := fs.Names()
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for _, n := range names {
		out[n], _ = fs.Get(n)
	}
	return out
}

func TestKeysUseTheKeychainWhenReachable(t *testing.T) {
	dir := t.TempDir()
	kc := providertest.NewKeychain()
	ks := provider.NewKeys(dir, kc, 0)
	var _ provider.KeyStore = ks
	name := provider.Account("p1")
	if err := ks.Set(name, " "+secret+" "); err != nil {
		t.Fatal(err)
	}
	if got := kc.Secrets()[name]; got != secret {
		t.Errorf("keychain holds %q", got)
	}
	if _, err := os.Stat(filepath.Join(dir, provider.KeyFileName)); !os.IsNotExist(err) {
		t.Errorf("a key file was written beside the keychain: %v", err)
	}
	if k, err := ks.Get(name); err != nil || k != secret {
		t.Errorf("Get = %q, %v", k, err)
	}
	if w := ks.Where(); w != provider.KeychainLocation {
		t.Errorf("Where = %q", w)
	}
	if loc, err := ks.Locate(name); err != nil || loc != provider.KeychainLocation {
		t.Errorf("Locate = %q, %v", loc, err)
	}
	if loc, err := ks.Locate(provider.Account("none")); err != nil || loc != "" {
		t.Errorf("Locate of a missing key = %q, %v", loc, err)
	}
}

func TestKeysFallBackToTheFile(t *testing.T) {
	for _, tc := range []struct {
		name string
		kc   func() provider.Keychain
	}{
		{"no keychain", func() provider.Keychain { return nil }},
		{"keychain unreachable", func() provider.Keychain { k := providertest.NewKeychain(); k.Unreachable = true; return k }},
		{"keychain does not answer", func() provider.Keychain { return hangingKeychain{} }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			ks := provider.NewKeys(dir, tc.kc(), 50*time.Millisecond)
			path := filepath.Join(dir, provider.KeyFileName)
			name := provider.Account("p1")
			if w := ks.Where(); w != path {
				t.Errorf("Where = %q, want the file %s", w, path)
			}
			if err := ks.Set(name, secret); err != nil {
				t.Fatal(err)
			}
			if got := fileKeys(t, dir)[name]; got != secret {
				t.Errorf("file holds %q", got)
			}
			if fi, err := os.Stat(path); err != nil || (runtime.GOOS != "windows" && fi.Mode().Perm() != 0o600) {
				t.Errorf("key file: %v %v", fi, err)
			}
			if loc, _ := ks.Locate(name); loc != path {
				t.Errorf("Locate = %q", loc)
			}
			if k, _ := ks.Get(name); k != secret {
				t.Errorf("Get = %q", k)
			}
			if err := ks.Set(name, ""); err != nil {
				t.Fatal(err)
			}
			if loc, _ := ks.Locate(name); loc != "" {
				t.Errorf("deleted key still located at %q", loc)
			}
			if _, err := os.Stat(path); !os.IsNotExist(err) {
				t.Errorf("an empty key file is left: %v", err)
			}
		})
	}
}

// hangingKeychain never answers, like a Secret Service stuck on a prompt.
type hangingKeychain struct{}

func (hangingKeychain) Get(string) (string, error) { select {} }
func (hangingKeychain) Set(string, string) error   { select {} }
func (hangingKeychain) Delete(string) error        { select {} }

func TestKeysMoveFileKeysIntoTheKeychain(t *testing.T) {
	dir := t.TempDir()
	old := provider.NewFileKeyStore(dir)
	for name, key := range map[string]string{provider.Account("a"): "sk-a", provider.Account("b"): "sk-b", "anthropic": "sk-legacy"} {
		if err := old.Set(name, key); err != nil {
			t.Fatal(err)
		}
	}
	kc := providertest.NewKeychain()
	ks := provider.NewKeys(dir, kc, 0)
	// The first use moves every provider key; the older API-style name stays
	// in its data directory's file (it is renamed when its model is upgraded).
	if k, err := ks.Get(provider.Account("a")); err != nil || k != "sk-a" {
		t.Fatalf("Get = %q, %v", k, err)
	}
	got := kc.Secrets()
	if got[provider.Account("a")] != "sk-a" || got[provider.Account("b")] != "sk-b" || len(got) != 2 {
		t.Errorf("keychain = %v", got)
	}
	if f := fileKeys(t, dir); len(f) != 1 || f["anthropic"] != "sk-legacy" {
		t.Errorf("file after the move = %v", f)
	}
	if loc, _ := ks.Locate("anthropic"); loc != filepath.Join(dir, provider.KeyFileName) {
		t.Errorf("legacy key located at %q", loc)
	}
	if err := ks.Set("anthropic", ""); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, provider.KeyFileName)); !os.IsNotExist(err) {
		t.Errorf("the emptied key file is left: %v", err)
	}
}

func TestKeysMoveWaitsForAKeychainThatRefused(t *testing.T) {
	dir := t.TempDir()
	kc := providertest.NewKeychain()
	kc.FailSet = true
	ks := provider.NewKeys(dir, kc, 0)
	name := provider.Account("p")
	// A keychain that refuses the write: the key goes to the file, and
	// Locate says so instead of claiming the keychain.
	if err := ks.Set(name, secret); err != nil {
		t.Fatal(err)
	}
	if loc, _ := ks.Locate(name); loc != filepath.Join(dir, provider.KeyFileName) {
		t.Errorf("Locate = %q, want the file", loc)
	}
	// Once it accepts writes, the next read moves the key.
	kc.FailSet = false
	if k, err := ks.Get(name); err != nil || k != secret {
		t.Fatalf("Get = %q, %v", k, err)
	}
	if kc.Secrets()[name] != secret || len(fileKeys(t, dir)) != 0 {
		t.Errorf("keychain %v, file %v", kc.Secrets(), fileKeys(t, dir))
	}
	if loc, _ := ks.Locate(name); loc != provider.KeychainLocation {
		t.Errorf("Locate after the move = %q", loc)
	}
}

func TestKeysDeleteRemovesBothCopies(t *testing.T) {
	dir := t.TempDir()
	name := provider.Account("p")
	// A stale file copy beside a keychain entry (a crash between the two
	// writes of a move).
	if err := provider.NewFileKeyStore(dir).Set(name, "sk-stale"); err != nil {
		t.Fatal(err)
	}
	kc := providertest.NewKeychain()
	if err := kc.Set(name, secret); err != nil {
		t.Fatal(err)
	}
	kc.FailSet = true // the stale copy cannot be moved over the keychain's
	ks := provider.NewKeys(dir, kc, 0)
	if k, _ := ks.Get(name); k != secret {
		t.Errorf("Get = %q: the keychain's key wins", k)
	}
	if err := ks.Set(name, ""); err != nil {
		t.Fatal(err)
	}
	if len(kc.Secrets()) != 0 || len(fileKeys(t, dir)) != 0 {
		t.Errorf("after delete: keychain %v, file %v", kc.Secrets(), fileKeys(t, dir))
	}
	if k, _ := ks.Get(name); k != "" {
		t.Errorf("deleted key still read: %q", k)
	}
}

func TestKeysKeychainErrorsDoNotQuoteTheKey(t *testing.T) {
	kc := providertest.NewKeychain()
	ks := provider.NewKeys(t.TempDir(), kc, 0)
	name := provider.Account("p")
	if err := ks.Set(name, secret); err != nil {
		t.Fatal(err)
	}
	kc.Unreachable = true // locked after the probe
	_, err := ks.Get(name)
	if !errs.Is(err, errs.StorageUnavailable) || strings.Contains(errs.ToPayload(err).Message, secret) {
		t.Errorf("Get on a locked keychain = %v", err)
	}
	if !strings.Contains(errs.ToPayload(err).Message, "keychain") {
		t.Errorf("message does not name the keychain: %q", errs.ToPayload(err).Message)
	}
	if _, err := ks.Locate(name); !errs.Is(err, errs.StorageUnavailable) {
		t.Errorf("Locate on a locked keychain = %v", err)
	}
}

func TestSystemKeychainCanBeTurnedOff(t *testing.T) {
	off := func(v string) func(string) string {
		return func(k string) string {
			if k == provider.EnvKeychain {
				return v
			}
			return ""
		}
	}
	if provider.SystemKeychain(off("off")) != nil || provider.SystemKeychain(off(" OFF ")) != nil {
		t.Error("PI_DESKTOP_KEYCHAIN=off still returns a keychain")
	}
	if kc, ok := provider.SystemKeychain(off("")).(provider.OSKeychain); !ok || kc.Service != provider.KeychainService {
		t.Errorf("default keychain = %#v", kc)
	}
}

func TestKeysLocateReadsTheKeychainOnce(t *testing.T) {
	kc := providertest.NewKeychain()
	ks := provider.NewKeys(t.TempDir(), kc, 0)
	name := provider.Account("p")
	if err := ks.Set(name, secret); err != nil {
		t.Fatal(err)
	}
	before := kc.Calls()
	for range 3 {
		if loc, err := ks.Locate(name); err != nil || loc != provider.KeychainLocation {
			t.Fatalf("Locate = %q, %v", loc, err)
		}
	}
	if n := kc.Calls() - before; n != 1 {
		t.Errorf("three Locates made %d keychain calls, want 1", n)
	}
	// A change through the store is seen at once.
	if err := ks.Set(name, ""); err != nil {
		t.Fatal(err)
	}
	if loc, _ := ks.Locate(name); loc != "" {
		t.Errorf("Locate after delete = %q", loc)
	}
}

// MCP server secrets are named by a random id per server, so they may live
// in the keychain like provider keys; other names stay in the file.
func TestKeysKeepMCPSecretsInTheKeychain(t *testing.T) {
	dir := t.TempDir()
	kc := providertest.NewKeychain()
	ks := provider.NewKeys(dir, kc, 0)
	name := provider.MCPAccountPrefix + "0190-abc/header/Authorization"
	for n, v := range map[string]string{name: "Bearer tok", "mcp-not-prefixed": "x"} {
		if err := ks.Set(n, v); err != nil {
			t.Fatal(err)
		}
	}
	if got := kc.Secrets(); len(got) != 1 || got[name] != "Bearer tok" {
		t.Errorf("keychain = %v", got)
	}
	if f := fileKeys(t, dir); len(f) != 1 || f["mcp-not-prefixed"] != "x" {
		t.Errorf("file = %v", f)
	}
	if loc, err := ks.Locate(name); err != nil || loc != provider.KeychainLocation {
		t.Errorf("Locate = %q, %v", loc, err)
	}
}
