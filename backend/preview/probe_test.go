package preview_test

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/pi-desktop/pi-desktop/backend/preview"
)

func TestProbeStaysOnTheMachine(t *testing.T) {
	var outside int
	far := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { outside++ }))
	defer far.Close()
	dev := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/":
			_, _ = w.Write([]byte("<title>Dev</title>"))
		case "/away":
			// Another name for the same machine stands in for a remote host.
			http.Redirect(w, r, strings.Replace(far.URL, "127.0.0.1", "[::1]", 1)+"/x", http.StatusFound)
		case "/local":
			http.Redirect(w, r, "/", http.StatusFound)
		}
	}))
	defer dev.Close()
	status, head, err := preview.Probe(t.Context(), dev.URL+"/local", 2*time.Second)
	if err != nil || status != 200 || string(head) != "<title>Dev</title>" {
		t.Fatalf("local redirect: %d %q %v", status, head, err)
	}
	status, _, err = preview.Probe(t.Context(), dev.URL+"/away", 2*time.Second)
	if err != nil || status != http.StatusFound || outside != 0 {
		t.Fatalf("redirect away: %d %v, outside requests %d", status, err, outside)
	}
	if _, _, err := preview.Probe(t.Context(), "http://127.0.0.1:1/", time.Second); err == nil {
		t.Fatal("a closed port answered")
	}
}
