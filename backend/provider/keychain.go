package provider

import (
	"errors"
	"strings"

	"github.com/zalando/go-keyring"
)

// Keychain is the operating system's credential store (macOS Keychain,
// Windows Credential Manager, the Secret Service on Linux). OSKeychain is the
// real one; tests use an in-memory fake (providertest.Keychain).
type Keychain interface {
	// Get returns the secret of account, or ErrKeyNotFound.
	Get(account string) (string, error)
	// Set creates or replaces the secret of account.
	Set(account, secret string) error
	// Delete removes account's secret, or returns ErrKeyNotFound.
	Delete(account string) error
}

// ErrKeyNotFound is a Keychain's answer for an account it does not hold.
var ErrKeyNotFound = errors.New("no secret is saved for this account")

// KeychainService is the service name under which the keys are saved.
const KeychainService = "pi-desktop"

// EnvKeychain set to "off" keeps the keys in the key file even where a
// keychain is reachable (headless machines, scripted setups).
const EnvKeychain = "PI_DESKTOP_KEYCHAIN"

// SystemKeychain returns the OS keychain, or nil when EnvKeychain is "off".
func SystemKeychain(getenv func(string) string) Keychain {
	if strings.EqualFold(strings.TrimSpace(getenv(EnvKeychain)), "off") {
		return nil
	}
	return OSKeychain{Service: KeychainService}
}

// OSKeychain is the system credential store through go-keyring.
type OSKeychain struct {
	Service string
}

// Get reads account's secret.
func (k OSKeychain) Get(account string) (string, error) {
	v, err := keyring.Get(k.Service, account)
	return v, notFound(err)
}

// Set saves account's secret.
func (k OSKeychain) Set(account, secret string) error {
	return keyring.Set(k.Service, account, secret)
}

// Delete removes account's secret.
func (k OSKeychain) Delete(account string) error {
	return notFound(keyring.Delete(k.Service, account))
}

func notFound(err error) error {
	if errors.Is(err, keyring.ErrNotFound) {
		return ErrKeyNotFound
	}
	return err
}
