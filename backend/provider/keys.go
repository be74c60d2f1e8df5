package provider

import (
	"errors"
	"strings"
	"sync"
	"time"

	"github.com/pi-desktop/pi-desktop/backend/errs"
)

// KeychainLocation is what Where and Locate say for a key in the OS keychain.
const KeychainLocation = "keychain"

// accountPrefix and MCPAccountPrefix mark the names that may live in the OS
// keychain: the keys of saved provider configurations and the secrets of MCP
// servers, both named by ids unique across data directories. Any other name
// (the API-style names of older versions) stays in its data directory's
// file, so two data directories cannot share one keychain entry.
const (
	accountPrefix    = "provider/"
	MCPAccountPrefix = "mcp/"
)

func keychainName(name string) bool {
	return strings.HasPrefix(name, accountPrefix) || strings.HasPrefix(name, MCPAccountPrefix)
}

// Account is the key name of the saved provider configuration id.
func Account(id string) string { return accountPrefix + id }

// DefaultProbeTimeout bounds the first keychain call, which tells whether a
// keychain is reachable at all (a Secret Service that never answers must not
// hang the app).
const DefaultProbeTimeout = 5 * time.Second

// probeAccount is read (never written) to tell whether the keychain answers.
const probeAccount = "probe"

// Keys keeps API keys in the OS keychain where one is reachable, else in the
// 0600 key file of the data directory, and says truthfully which holds a
// key. The first use probes the keychain; when it answers, keys still in the
// file move into it (and the file goes away once empty).
type Keys struct {
	kc      Keychain // nil: the file only
	file    *FileKeyStore
	timeout time.Duration

	once  sync.Once
	ready bool // the keychain answered the probe
	mu    sync.Mutex
	// found remembers where Locate saw a key, so listing providers does not
	// read every secret again (each read may be a subprocess or a prompt);
	// every Set through this store updates it.
	found sync.Map // name → location ("" = none)
}

// NewKeys returns the key store of dataDir; kc nil keeps every key in the
// file. probeTimeout 0 is DefaultProbeTimeout.
func NewKeys(dataDir string, kc Keychain, probeTimeout time.Duration) *Keys {
	if probeTimeout <= 0 {
		probeTimeout = DefaultProbeTimeout
	}
	return &Keys{kc: kc, file: NewFileKeyStore(dataDir), timeout: probeTimeout}
}

// keychain returns the keychain when it is reachable, probing (and moving
// the file's keys into it) on first use.
func (k *Keys) keychain() Keychain {
	k.once.Do(func() {
		if k.kc == nil || !probe(k.kc, k.timeout) {
			return
		}
		k.ready = true
		k.mu.Lock()
		defer k.mu.Unlock()
		names, err := k.file.Names()
		if err != nil {
			return // an unreadable file keeps its keys where they are
		}
		for _, n := range names {
			_ = k.moveLocked(n)
		}
	})
	if k.ready {
		return k.kc
	}
	return nil
}

func probe(kc Keychain, timeout time.Duration) bool {
	done := make(chan error, 1)
	go func() {
		_, err := kc.Get(probeAccount)
		done <- err
	}()
	t := time.NewTimer(timeout)
	defer t.Stop()
	select {
	case err := <-done:
		return err == nil || errors.Is(err, ErrKeyNotFound)
	case <-t.C:
		return false
	}
}

// moveLocked moves name's key from the file into the keychain; the file
// copy is removed only once the keychain holds it.
func (k *Keys) moveLocked(name string) error {
	if !keychainName(name) {
		return nil
	}
	v, err := k.file.Get(name)
	if err != nil || v == "" {
		return err
	}
	if err := k.kc.Set(name, v); err != nil {
		return err
	}
	return k.file.Set(name, "")
}

// Get returns name's key ("" when none is saved).
func (k *Keys) Get(name string) (string, error) {
	if err := checkAPIName(name); err != nil {
		return "", err
	}
	if kc := k.keychain(); kc != nil && keychainName(name) {
		v, err := kc.Get(name)
		switch {
		case err == nil:
			return v, nil
		case !errors.Is(err, ErrKeyNotFound):
			return "", keychainError(err, "read")
		}
		// Not in the keychain: a key that could not be moved yet.
		k.mu.Lock()
		defer k.mu.Unlock()
		v, err = k.file.Get(name)
		if err == nil && v != "" && k.moveLocked(name) == nil {
			k.found.Delete(name)
		}
		return v, err
	}
	return k.file.Get(name)
}

// Set saves name's key; an empty key removes it from both stores. When the
// keychain refuses a key, it goes to the file (Locate says so).
func (k *Keys) Set(name, key string) error {
	if err := checkAPIName(name); err != nil {
		return err
	}
	key = strings.TrimSpace(key)
	kc := k.keychain()
	k.mu.Lock()
	defer k.mu.Unlock()
	k.found.Delete(name)
	if kc == nil || !keychainName(name) {
		return k.file.Set(name, key)
	}
	if key == "" {
		if err := kc.Delete(name); err != nil && !errors.Is(err, ErrKeyNotFound) {
			return keychainError(err, "remove")
		}
		return k.file.Set(name, "")
	}
	if err := kc.Set(name, key); err != nil {
		return k.file.Set(name, key)
	}
	return k.file.Set(name, "") // no stale copy beside the keychain's
}

// Where is KeychainLocation when the keychain is reachable, else the key
// file's path.
func (k *Keys) Where() string {
	if k.keychain() != nil {
		return KeychainLocation
	}
	return k.file.Where()
}

// Locate says where name's key is: KeychainLocation, the file's path, or ""
// when none is saved.
func (k *Keys) Locate(name string) (string, error) {
	if err := checkAPIName(name); err != nil {
		return "", err
	}
	if v, ok := k.found.Load(name); ok {
		return v.(string), nil
	}
	kc := k.keychain()
	k.mu.Lock() // a Set cannot slip between the look and the note
	defer k.mu.Unlock()
	where, err := k.locate(kc, name)
	if err == nil {
		k.found.Store(name, where)
	}
	return where, err
}

func (k *Keys) locate(kc Keychain, name string) (string, error) {
	if kc != nil && keychainName(name) {
		_, err := kc.Get(name)
		switch {
		case err == nil:
			return KeychainLocation, nil
		case !errors.Is(err, ErrKeyNotFound):
			return "", keychainError(err, "read")
		}
	}
	return k.file.Locate(name)
}

// keychainError never quotes the keychain's error text (kept as the cause,
// for the log only).
func keychainError(err error, verb string) error {
	return errs.Wrap(err, errs.StorageUnavailable, "could not %s the API key in the OS keychain; unlock the keychain and try again, or set %s=off to keep keys in a private file", verb, EnvKeychain)
}
