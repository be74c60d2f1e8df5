// Package golden compares a test's output with a file under testdata/ and,
// when the test binary runs with -update, rewrites the file instead.
//
// Golden files hold model-facing text and reviewed tables: a change to one is
// a change to what the model reads, so it is made on purpose with -update and
// read in the diff, never by hand.
package golden

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// update is registered once per test binary: importing this package is the
// only way a test package gets the -update flag.
var update = flag.Bool("update", false, "rewrite golden files with the output the tests produce")

// Assert fails t unless got equals the file at path. With -update it writes
// got to path (creating the folder) and passes.
//
// Carriage returns in the file are ignored, so a checkout that turned line
// ends into CRLF still compares equal.
func Assert[T ~string | ~[]byte](t testing.TB, path string, got T) {
	t.Helper()
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -run '%s' -update to create it)", err, t.Name())
	}
	want = bytes.ReplaceAll(want, []byte("\r\n"), []byte("\n"))
	if !bytes.Equal(want, []byte(got)) {
		t.Errorf("%s differs from its golden file (-want +got; rerun with -update if the change is intended):\n%s",
			path, cmp.Diff(string(want), string(got)))
	}
}
