package providertest

import (
	"errors"
	"maps"
	"sync"

	"github.com/pi-desktop/pi-desktop/backend/provider"
)

// ErrLocked is what an Unreachable Keychain answers, like a Secret Service
// that is not running.
var ErrLocked = errors.New("providertest: the keychain is not reachable")

// Keychain is an in-memory provider.Keychain. Unreachable makes every call
// fail (the fallback case); FailSet makes only Set fail (a keychain that
// refuses a write).
type Keychain struct {
	mu          sync.Mutex
	secrets     map[string]string
	Unreachable bool
	FailSet     bool
	calls       int
}

var _ provider.Keychain = (*Keychain)(nil)

// NewKeychain returns an empty, reachable keychain.
func NewKeychain() *Keychain { return &Keychain{secrets: map[string]string{}} }

// Get implements provider.Keychain.
func (k *Keychain) Get(account string) (string, error) {
	k.mu.Lock()
	defer k.mu.Unlock()
	k.calls++
	if k.Unreachable {
		return "", ErrLocked
	}
	v, ok := k.secrets[account]
	if !ok {
		return "", provider.ErrKeyNotFound
	}
	return v, nil
}

// Set implements provider.Keychain.
func (k *Keychain) Set(account, secret string) error {
	k.mu.Lock()
	defer k.mu.Unlock()
	k.calls++
	if k.Unreachable || k.FailSet {
		return ErrLocked
	}
	k.secrets[account] = secret
	return nil
}

// Delete implements provider.Keychain.
func (k *Keychain) Delete(account string) error {
	k.mu.Lock()
	defer k.mu.Unlock()
	k.calls++
	if k.Unreachable {
		return ErrLocked
	}
	if _, ok := k.secrets[account]; !ok {
		return provider.ErrKeyNotFound
	}
	delete(k.secrets, account)
	return nil
}

// Secrets returns a copy of what the keychain holds.
func (k *Keychain) Secrets() map[string]string {
	k.mu.Lock()
	defer k.mu.Unlock()
	return maps.Clone(k.secrets)
}

// Calls counts the calls made so far.
func (k *Keychain) Calls() int {
	k.mu.Lock()
	defer k.mu.Unlock()
	return k.calls
}
