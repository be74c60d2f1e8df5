package names

import (
	"testing"
)

func TestEscape(t *testing.T) {
	for _, tc := range []struct{ name, in, want string }{
		{"plain", "src/main.go", "src/main.go"},
		{"unicode kept", "docs/café 日本 🎉.md", "docs/café 日本 🎉.md"},
		{"newline forges a header", "a\n[secret.txt#ABCD] x", `a\n[secret.txt#ABCD] x`},
		{"cr tab", "a\rb\tc", `a\rb\tc`},
		{"esc", "a\x1b[31mred", `a\x1b[31mred`},
		{"del and nul", "a\x7fb\x00", `a\x7fb\x00`},
		{"backslash", `a\nb`, `a\\nb`},
		{"bidi override", "invoice\u202eexe.txt", `invoice\u202eexe.txt`},
		{"isolates", "a\u2066b\u2069", `a\u2066b\u2069`},
		{"zero width", "pass\u200bwd\ufeff", `pass\u200bwd\ufeff`},
		{"line separator", "a\u2028b", `a\u2028b`},
		{"c1 control", "a\u0085b", `a\u0085b`},
		{"invalid utf8", "a\xffb", `a\xffb`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := Escape(tc.in)
			if got != tc.want {
				t.Fatalf("Escape(%q) = %q, want %q", tc.in, got, tc.want)
			}
			back, ok := Unescape(got)
			if got != tc.in && (!ok || back != tc.in) {
				t.Errorf("Unescape(%q) = %q, %v; want %q", got, back, ok, tc.in)
			}
		})
	}
}

func TestUnescapeRejectsForeignBackslashes(t *testing.T) {
	for _, s := range []string{`a\qb`, `a\`, `a\x1`, `a\u12`, `a\xzz`, "plain"} {
		if got, ok := Unescape(s); ok || got != s {
			t.Errorf("Unescape(%q) = %q, %v; want it literal", s, got, ok)
		}
	}
}

func TestCleanNameDoesNotAllocate(t *testing.T) {
	if n := testing.AllocsPerRun(50, func() { _ = Escape("backend/names/names_test.go") }); n != 0 {
		t.Errorf("Escape allocated %.0f times for a clean name", n)
	}
}

// FuzzEscape: the escape never shows a control, bidi or zero-width
// character and always reverses.
func FuzzEscape(f *testing.F) {
	for _, s := range []string{"a\nb", `a\b`, "x\u202ey", "\xff", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		e := Escape(s)
		for _, r := range e {
			if r < 0x20 || r == 0x7f || unsafeRune(r) {
				t.Fatalf("Escape(%q) = %q shows %U", s, e, r)
			}
		}
		if back, ok := Unescape(e); e != s && (!ok || back != s) {
			t.Fatalf("Unescape(Escape(%q)) = %q, %v", s, back, ok)
		}
	})
}
