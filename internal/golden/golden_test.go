package golden

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// recorder is a testing.TB that notes failures instead of failing the real
// test, so Assert's own failures can be asserted.
type recorder struct {
	testing.TB
	failed bool
	msg    string
}

func (r *recorder) Helper() {}

func (r *recorder) Errorf(format string, args ...any) {
	r.failed = true
	r.msg = fmt.Sprintf(format, args...)
}

func (r *recorder) Fatalf(format string, args ...any) {
	r.Errorf(format, args...)
	runtime.Goexit()
}

func (r *recorder) Fatal(args ...any) {
	r.Errorf("%s", fmt.Sprint(args...))
	runtime.Goexit()
}

// run calls Assert on its own goroutine, as the testing package would, so a
// Fatal ends only that call.
func run(t *testing.T, path, got string) *recorder {
	r := &recorder{TB: t}
	done := make(chan struct{})
	go func() {
		defer close(done)
		Assert(r, path, got)
	}()
	<-done
	return r
}

func TestAssert(t *testing.T) {
	tests := []struct {
		name     string
		file     string
		noFile   bool
		got      string
		wantFail string // substring of the failure; "" = passes
	}{
		{"equal", "a\nb\n", false, "a\nb\n", ""},
		{"empty", "", false, "", ""},
		{"CRLF checkout", "a\r\nb\r\n", false, "a\nb\n", ""},
		{"differs", "a\nb\n", false, "a\nc\n", "differs from its golden file"},
		{"CR in output is not ignored", "a\nb\n", false, "a\r\nb\n", "differs"},
		{"missing file", "", true, "a\n", "-update to create it"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "x.golden")
			if !tt.noFile {
				if err := os.WriteFile(path, []byte(tt.file), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			r := run(t, path, tt.got)
			switch {
			case tt.wantFail == "" && r.failed:
				t.Errorf("Assert failed: %s", r.msg)
			case tt.wantFail != "" && !r.failed:
				t.Errorf("Assert passed; want a failure containing %q", tt.wantFail)
			case tt.wantFail != "" && !strings.Contains(r.msg, tt.wantFail):
				t.Errorf("failure %q does not contain %q", r.msg, tt.wantFail)
			}
		})
	}
}

func TestAssertUpdateWrites(t *testing.T) {
	*update = true
	t.Cleanup(func() { *update = false })
	path := filepath.Join(t.TempDir(), "nested", "x.golden")
	if r := run(t, path, "fresh\n"); r.failed {
		t.Fatalf("Assert with -update failed: %s", r.msg)
	}
	b, err := os.ReadFile(path)
	if err != nil || string(b) != "fresh\n" {
		t.Fatalf("file = %q, %v; want %q", b, err, "fresh\n")
	}
}
