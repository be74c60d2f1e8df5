package audit_test

import (
	"strings"
	"testing"

	"github.com/pi-desktop/pi-desktop/backend/audit"
)

// TestPreviewUsesTheSharedRedactor: argument previews hide every shape
// the tool-output redactor knows, not a shorter list of their own.
func TestPreviewUsesTheSharedRedactor(t *testing.T) {
	for _, tc := range []struct{ name, args, leak string }{
		{"aws secret in a command", `{"command":"export AWS_SECRET_ACCESS_KEY=wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"}`, "wJalrXUtnFEMI"},
		{"private key body in content", `{"path":"id_rsa","content":"-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA1c3\n-----END RSA PRIVATE KEY-----\n"}`, "MIIEowIBAAKCAQEA1c3"},
		{"google key", `{"command":"curl https://maps.example.com/?key=AIzaSyA1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q"}`, "SyA1b2C3d4"},
		{"url password", `{"command":"git clone https://deploy:Tr0ub4dor3@git.example.com/r.git"}`, "Tr0ub4dor3"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if p := audit.Preview([]byte(tc.args)); strings.Contains(p, tc.leak) || !strings.Contains(p, "[REDACTED]") {
				t.Errorf("preview = %s", p)
			}
		})
	}
}
