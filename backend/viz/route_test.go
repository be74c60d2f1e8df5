package viz

import (
	"net/url"
	"strings"
	"testing"
)

func TestParseRoute(t *testing.T) {
	tests := []struct {
		path string
		want Route
		ok   bool
	}{
		{"/_viz/0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b/chart", Route{"0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b", "chart.html"}, true},
		{"/_viz/s1/sales.v2", Route{"s1", "sales.v2.html"}, true},
		{"/_viz/s1/index", Route{"s1", "index.html"}, true},
		{"/_viz/s1/Umsätze 2024", Route{"s1", "Umsätze 2024.html"}, true},
		{"/_viz/s1/chart.html", Route{"s1", "chart.html.html"}, true}, // a name, never a path
		{"/_viz/s1/", Route{}, false},
		{"/_viz/s1", Route{}, false},
		{"/_viz//chart", Route{}, false},
		{"/_viz/s1/a/b", Route{}, false},
		{"/_viz/s1/..", Route{}, false},
		{"/_viz/s1/../s2/chart", Route{}, false},
		{"/_viz/../s1/chart", Route{}, false},
		{"/_viz/s.1/chart", Route{}, false},
		{"/_viz/s1/.hidden", Route{}, false},
		{"/_viz/s1/a\\b", Route{}, false},
		{"/_viz/s1/c:evil", Route{}, false},
		{"/_viz/s1/a\x00b", Route{}, false},
		{"/_viz/s1/a\nb", Route{}, false},
		{"/_viz/s1/trailing.", Route{}, false},
		{"/_viz/s1/con", Route{}, false},
		{"/_viz/s1/Nul.data", Route{}, false},
		{"/_viz/s1/console", Route{"s1", "console.html"}, true},
		{"/_viz/s1/trailing ", Route{}, false},
		{"/_viz/s1/" + strings.Repeat("a", 251), Route{}, false},
		{"/_viz/s1/" + strings.Repeat("a", 250), Route{"s1", strings.Repeat("a", 250) + ".html"}, true},
		{"/_viz/s1/\xff", Route{}, false},
		{"/viz/s1/chart", Route{}, false},
		{"/_VIZ/s1/chart", Route{}, false},
		{"/index.html", Route{}, false},
	}
	for _, tt := range tests {
		got, ok := ParseRoute(tt.path)
		if ok != tt.ok || got != tt.want {
			t.Errorf("ParseRoute(%q) = %+v, %v; want %+v, %v", tt.path, got, ok, tt.want, tt.ok)
		}
	}
}

func TestPathRoundTrip(t *testing.T) {
	for _, file := range []string{"chart.html", "a b#%&.html", "Umsätze.html", "x.y.z.html"} {
		p := Path("s1", file)
		if strings.ContainsAny(p, " #?&ä") {
			t.Errorf("Path(%q) = %q is not escaped", file, p)
		}
		u, err := url.Parse(p)
		if err != nil {
			t.Fatalf("Path(%q) = %q: %v", file, p, err)
		}
		if got, ok := ParseRoute(u.Path); !ok || got != (Route{"s1", file}) {
			t.Errorf("ParseRoute(Path(%q)) = %+v, %v", file, got, ok)
		}
	}
}

// FuzzParseRoute: whatever the URL, a route names one session id of safe
// characters and one file name that cannot leave the folder.
func FuzzParseRoute(f *testing.F) {
	for _, s := range []string{"/_viz/s1/chart", "/_viz/s1/../x", "/_viz/a/b/c", "/_viz/s1/%2e%2e", "/_viz/s1/..\\..\\x", "/_viz/s1/.html", "/_viz/s1/a:b"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, p string) {
		r, ok := ParseRoute(p)
		if !ok {
			if r != (Route{}) {
				t.Fatalf("rejected %q but returned %+v", p, r)
			}
			return
		}
		if !validSession(r.Session) || strings.ContainsAny(r.Session, "./\\") {
			t.Fatalf("session %q from %q", r.Session, p)
		}
		if !ValidFileName(r.File) || strings.ContainsAny(r.File, "/\\:\x00") || strings.HasPrefix(r.File, ".") || !strings.HasSuffix(r.File, ".html") {
			t.Fatalf("file %q from %q", r.File, p)
		}
		if p != Prefix+r.Session+"/"+strings.TrimSuffix(r.File, ".html") {
			t.Fatalf("route %+v does not spell %q", r, p)
		}
		// Path and ParseRoute agree on every accepted route.
		u, err := url.Parse(Path(r.Session, r.File))
		if err != nil {
			t.Fatal(err)
		}
		if back, ok := ParseRoute(u.Path); !ok || back != r {
			t.Fatalf("round trip of %+v gave %+v, %v", r, back, ok)
		}
	})
}
