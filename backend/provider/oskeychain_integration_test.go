//go:build keychain_integration

// The real OS keychain, run by scripts/test-keychain.sh (on Linux: a private
// D-Bus session with gnome-keyring's Secret Service). Not part of `make test`:
// it needs a keychain that answers without a person.
package provider_test

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/pi-desktop/pi-desktop/backend/provider"
)

func TestOSKeychainKeys(t *testing.T) {
	kc := provider.OSKeychain{Service: "pi-desktop-test-" + uuid.NewString()}
	dir := t.TempDir()
	name := provider.Account(uuid.NewString())
	// A key left in the file by a machine without a keychain.
	if err := provider.NewFileKeyStore(dir).Set(name, "sk-moved-"+name); err != nil {
		t.Fatal(err)
	}
	ks := provider.NewKeys(dir, kc, 10*time.Second)
	if w := ks.Where(); w != provider.KeychainLocation {
		t.Fatalf("Where = %q: no keychain answered (run scripts/test-keychain.sh)", w)
	}
	if v, err := kc.Get(name); err != nil || v != "sk-moved-"+name {
		t.Fatalf("the file's key was not moved into the keychain: %q, %v", v, err)
	}
	if _, err := os.Stat(filepath.Join(dir, provider.KeyFileName)); !os.IsNotExist(err) {
		t.Errorf("the key file is left after the move: %v", err)
	}
	if err := ks.Set(name, "sk-new"); err != nil {
		t.Fatal(err)
	}
	if v, err := ks.Get(name); err != nil || v != "sk-new" {
		t.Errorf("Get = %q, %v", v, err)
	}
	if loc, err := ks.Locate(name); err != nil || loc != provider.KeychainLocation {
		t.Errorf("Locate = %q, %v", loc, err)
	}
	if err := ks.Set(name, ""); err != nil {
		t.Fatal(err)
	}
	if _, err := kc.Get(name); err != provider.ErrKeyNotFound {
		t.Errorf("after delete: %v", err)
	}
}
