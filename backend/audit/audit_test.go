package audit_test

import (
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/pi-desktop/pi-desktop/backend/audit"
	"github.com/pi-desktop/pi-desktop/backend/store"
)

func TestWriterLosesNothingOnClose(t *testing.T) {
	st, err := store.Open(t.Context(), filepath.Join(t.TempDir(), "pi.sqlite"), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	var failures []error
	w := audit.NewWriter(st.DB(), func(err error) { failures = append(failures, err) })
	const workers, each = 8, 300 // more than the queue holds, so some writes go synchronous
	var wg sync.WaitGroup
	for g := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range each {
				w.Record(audit.Row{TraceID: fmt.Sprintf("%d-%d", g, i), SessionID: "s", Tool: "Read", ArgsHash: "h", ArgsPreview: "p", Decision: "allow", OK: true})
			}
		}()
	}
	wg.Wait()
	w.Flush()
	mid, err := audit.List(t.Context(), st.DB(), "s")
	if err != nil || len(mid) != workers*each {
		t.Fatalf("after Flush: %d rows, %v; want %d", len(mid), err, workers*each)
	}
	w.Record(audit.Row{TraceID: "last", SessionID: "s", Tool: "Write", ArgsHash: "h", Decision: "denied"})
	w.Close()
	w.Record(audit.Row{TraceID: "after-close", SessionID: "s", Tool: "Write", ArgsHash: "h", Decision: "deny"})
	rows, err := audit.List(t.Context(), st.DB(), "s")
	if err != nil || len(rows) != workers*each+2 {
		t.Fatalf("after Close: %d rows, %v", len(rows), err)
	}
	if len(failures) > 0 {
		t.Errorf("write failures: %v", failures)
	}
}

func TestPreviewRedactsAndBounds(t *testing.T) {
	args := `{"command":"curl -H 'Authorization: Bearer abcdefghijklmnop1234' https://x","apiKey":"hunter2hunter2","content":"` + strings.Repeat("x", 5000) + `","path":"a.go","env":{"DB_PASSWORD":"swordfish42","list":["ghp_abcdefghijklmnopqrstuvwx"]}}`
	p := audit.Preview([]byte(args))
	for _, leak := range []string{"abcdefghijklmnop1234", "hunter2", "swordfish42", "ghp_abcdefghij"} {
		if strings.Contains(p, leak) {
			t.Errorf("preview leaks %q: %s", leak, p)
		}
	}
	if len(p) > audit.PreviewMaxBytes || !strings.Contains(p, `path="a.go"`) || !strings.Contains(p, "(5000 chars)") {
		t.Errorf("preview = %s", p)
	}
	if audit.Hash([]byte(args)) == audit.Hash([]byte(args+" ")) {
		t.Error("hash does not distinguish arguments")
	}
}

// A row may leave its preview and hash to the writer: they are derived
// from the bytes it names, redacted as Preview redacts, and a row that set
// its own keeps them.
func TestWriterDerivesPreviewAndHash(t *testing.T) {
	st, err := store.Open(t.Context(), filepath.Join(t.TempDir(), "pi.sqlite"), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	w := audit.NewWriter(st.DB(), func(err error) { t.Error(err) })
	raw := []byte(`{"path":"a.go","apiKey":"hunter2hunter2"}`)
	canonical := []byte(`{"path":"b.go"}`)
	w.Record(audit.Row{TraceID: "derived", SessionID: "s", Tool: "Read", PreviewOf: raw, HashOf: canonical})
	w.Record(audit.Row{TraceID: "own", SessionID: "s", Tool: "Read", ArgsPreview: "mine", ArgsHash: "h", PreviewOf: raw, HashOf: canonical})
	w.Record(audit.Row{TraceID: "empty", SessionID: "s", Tool: "Read", HashOf: []byte{}})
	w.Close()
	rows, err := audit.List(t.Context(), st.DB(), "s")
	if err != nil || len(rows) != 3 {
		t.Fatalf("%d rows, %v", len(rows), err)
	}
	if got := rows[0]; got.ArgsPreview != audit.Preview(raw) || got.ArgsHash != audit.Hash(canonical) || strings.Contains(got.ArgsPreview, "hunter2") {
		t.Errorf("derived row = %+v", got)
	}
	if got := rows[1]; got.ArgsPreview != "mine" || got.ArgsHash != "h" {
		t.Errorf("a row's own preview and hash were replaced: %+v", got)
	}
	if got := rows[2]; got.ArgsHash != audit.Hash(nil) || got.ArgsHash == "" {
		t.Errorf("no arguments: hash %q", got.ArgsHash)
	}
}
