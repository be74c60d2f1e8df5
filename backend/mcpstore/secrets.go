package mcpstore

import (
	"crypto/sha256"
	"encoding/hex"
	"regexp"

	"github.com/google/uuid"

	"github.com/pi-desktop/pi-desktop/backend/provider"
)

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
	return provider.MCPAccountPrefix + secretID + "/" + kind + "/" + name
}

// tokenAccount is where a server's OAuth token blob is kept.
func tokenAccount(secretID string) string {
	return provider.MCPAccountPrefix + secretID + "/oauth"
}
