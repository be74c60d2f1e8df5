package redact

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pi-desktop/pi-desktop/internal/golden"
)

// TestCorpus redacts testdata/secrets.txt against its golden output and
// checks that no secret of the corpus survives.
func TestCorpus(t *testing.T) {
	in, err := os.ReadFile(filepath.Join("testdata", "secrets.txt"))
	if err != nil {
		t.Fatal(err)
	}
	got := String(string(in))
	golden.Assert(t, filepath.Join("testdata", "secrets.golden"), got)
	for _, secret := range []string{
		"Ab3dEf9hIjKlMnOpQrSt", "Zx9Yw8Vu7Ts6", "T3BlbkFJabcdef", "IOSFODNN7EXAMPLE", "wJalrXUtnFEMI", "hunter2",
		"1234567890abcdefghij", "51Habcdef", "horse battery", "AbCdEfGhIjKl", "SyA1b2C3d4", "11ABCDEFG0123",
		"Y34FZKBOKMUTVV7A", "S3cr3t!pass", "abc123def456", `"xyz"`, "Y34FZKBOKMUTVV7B", "9drTJvcXLB89",
		"AQoEXAMPLEH4aoAH0g", "tok_9f8e7d6c5b4a", "letmein", "pa55word", "eyJhbGciOiJIUzI1NiJ9.", "9f8e7d6c5b4a3f2e1d0c",
		"Tr0ub4dor3", "16C7e42F292c", "abcDEF123", "Sup3rS3cret", "MIIEowIBAAKCAQEA", "Proc-Type", "c29tZSBtb3Jl",
		"MIIEvQIBADANBgkqhkiG9w0BAQEFAASC", "b3BlbnNzaC1rZXktdjE",
	} {
		if strings.Contains(got, secret) {
			t.Errorf("secret %q survived redaction", secret)
		}
	}
}

// TestLookalikes: code, prose and public material shaped like secrets
// must come out unchanged (the false positives we promise to avoid).
func TestLookalikes(t *testing.T) {
	in, err := os.ReadFile(filepath.Join("testdata", "lookalikes.txt"))
	if err != nil {
		t.Fatal(err)
	}
	got := String(string(in))
	if got == string(in) {
		return
	}
	gl, wl := strings.Split(got, "\n"), strings.Split(string(in), "\n")
	for i := range min(len(gl), len(wl)) {
		if gl[i] != wl[i] {
			t.Errorf("line %d changed:\n  in:  %s\n  out: %s", i+1, wl[i], gl[i])
		}
	}
}

func TestString(t *testing.T) {
	for _, tc := range []struct{ name, in, want string }{
		{"empty", "", ""},
		{"anthropic key in prose", "key is sk-ant-api03-abcDEF123456789012345 ok", "key is [REDACTED] ok"},
		{"aws id bounded", "id=AKIAIOSFODNN7EXAMPLE.", "id=[REDACTED]."},
		{"aws id too long", "AKIAIOSFODNN7EXAMPLEX", "AKIAIOSFODNN7EXAMPLEX"},
		{"env quoted single", "API_TOKEN='abc'", "API_TOKEN='[REDACTED]'"},
		{"yaml value", "  password: hunter2\nnext: 1", "  password: [REDACTED]\nnext: 1"},
		{"code variable is a false positive we accept", "password = userInput", "password = [REDACTED]"},
		{"call stays", "password = getPassword()", "password = getPassword()"},
		{"comparison stays", "token == expected", "token == expected"},
		{"go short decl literal", `secret := "s3"`, `secret := "[REDACTED]"`},
		{"unterminated quote to end of line", "password = \"abc\nnext", "password = \"[REDACTED]\nnext"},
		{"url userinfo", "https://u:p4ss@h/x", "https://u:[REDACTED]@h/x"},
		{"pem without end hides the rest", "-----BEGIN EC PRIVATE KEY-----\nMHcCAQEE\nmore", "-----BEGIN EC PRIVATE KEY-----\n[REDACTED]\n"},
		{"pem end without begin hides the head", "MHcCAQEE\nmore\n-----END EC PRIVATE KEY-----\nafter", "[REDACTED]\n-----END EC PRIVATE KEY-----\nafter"},
		{"jwt", "t=eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0In0.sig_nature-1", "t=[REDACTED]"},
		{"overlapping rules merge", "OPENAI_API_KEY=sk-abcDEF1234567890abcdef", "OPENAI_API_KEY=[REDACTED]"},
		{"env value equal to its name is still a value", "PASSWORD=password", "PASSWORD=[REDACTED]"},
		{"prose after a colon stays", "it is a secret: this file", "it is a secret: this file"},
		{"multibyte around", "é token=ab£c é", "é token=[REDACTED] é"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := String(tc.in); got != tc.want {
				t.Errorf("String(%q)\n got %q\nwant %q", tc.in, got, tc.want)
			}
		})
	}
}

// TestCleanTextDoesNotAllocate: output without secrets (most of it) is
// returned as is.
func TestCleanTextDoesNotAllocate(t *testing.T) {
	in := strings.Repeat("func main() { x := a.b(c); fmt.Println(\"ok\") } // max_tokens: 4096\n", 200)
	if n := testing.AllocsPerRun(20, func() { _ = String(in) }); n != 0 {
		t.Errorf("String allocated %.0f times on clean text", n)
	}
}

// TestStream: chunks cut anywhere give the same text as redacting it
// whole, and a private key's body never shows, whatever the cuts.
func TestStream(t *testing.T) {
	in, err := os.ReadFile(filepath.Join("testdata", "secrets.txt"))
	if err != nil {
		t.Fatal(err)
	}
	whole := String(string(in))
	for _, size := range []int{1, 2, 3, 7, 64, 1000, len(in)} {
		var s Stream
		var b strings.Builder
		for i := 0; i < len(in); i += size {
			b.WriteString(s.Write(string(in[min(i, len(in)):min(i+size, len(in))])))
		}
		b.WriteString(s.Flush())
		if b.String() != whole {
			t.Errorf("chunks of %d bytes:\n got %q\nwant %q", size, b.String(), whole)
		}
	}
	// A key whose END arrives much later, in separate writes.
	var s Stream
	got := s.Write("-----BEGIN PRIVATE KEY-----\nAAAA\n") + s.Write("BBBB\n") + s.Write("CCCC\n-----END PRIVATE KEY-----\ntoken=abc\n") + s.Flush()
	want := "-----BEGIN PRIVATE KEY-----\n[REDACTED]\n-----END PRIVATE KEY-----\ntoken=[REDACTED]\n"
	if got != want {
		t.Errorf("key across writes:\n got %q\nwant %q", got, want)
	}
}

func TestStreamHoldsAtMostMaxHold(t *testing.T) {
	var s Stream
	line := strings.Repeat("x", MaxHold-1)
	if out := s.Write(line); out != "" {
		t.Fatalf("a partial line under MaxHold was shown: %d bytes", len(out))
	}
	if out := s.Write("yy"); len(out) != MaxHold+1 {
		t.Fatalf("a partial line over MaxHold was held back: shown %d bytes", len(out))
	}
	if len(s.pend) != 0 {
		t.Fatalf("still holding %d bytes", len(s.pend))
	}
}
