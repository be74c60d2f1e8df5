package mcpstore

import (
	"crypto/sha256"
	"encoding/hex"
	"regexp"

	"github.com/google/uuid"
)

// KeyStore keeps secret values by name (provider.Keys: the OS keychain
// where one is reachable, else the data directory's 0600 key file). It is
// declared here so this package does not pull in the model clients.
type KeyStore interface {
	// Get returns name's value ("" with a nil error when none is saved).
	Get(name string) (string, error)
	// Set saves name's value; "" removes it.
	Set(name, value string) error
	// Locate says where name's value is ("" when none is saved).
	Locate(name string) (string, error)
}

// accountPrefix starts every name this package saves; provider.Keys lets
// names with it (accountPrefix) reach the OS keychain.
const accountPrefix = "mcp/"

// Kinds of secret, as they appear in account names.
const (
	kindHeader = "header"
	kindEnv    = "env"
)

func newSecretID() string { return uuid.Must(uuid.NewV7()).String() }

// plainName is a name safe to show as-is in an account name (Keychain
// Access, Credential Manager); anything else is hashed, so an env name with
// '/' or a long one cannot reshape or overflow the account name.
var plainName = regexp.MustCompile(`^[A-Za-z0-9_.-]{1,64}$`)

// secretAccount is the key-store name of one secret value of a server:
// "mcp/<secretId>/header/Authorization", "mcp/<secretId>/env/GITHUB_TOKEN".
func secretAccount(secretID, kind, name string) string {
	if !plainName.MatchString(name) {
		sum := sha256.Sum256([]byte(name))
		name = "~" + hex.EncodeToString(sum[:8])
	}
	return accountPrefix + secretID + "/" + kind + "/" + name
}

// tokenAccount is where a server's OAuth token blob is kept.
func tokenAccount(secretID string) string {
	return accountPrefix + secretID + "/oauth"
}
