package desktop

import (
	"context"
	"errors"
	"slices"
	"testing"
)

// have is a lookPath that finds only names, under /usr/bin.
func have(names ...string) func(string) (string, error) {
	return func(n string) (string, error) {
		if slices.Contains(names, n) {
			return "/usr/bin/" + n, nil
		}
		return "", errors.New("not found")
	}
}

func TestRevealPlanPerOS(t *testing.T) {
	dbusSend := func(uri string) []string {
		return []string{"/usr/bin/dbus-send", "--session", "--print-reply", "--dest=org.freedesktop.FileManager1", "--type=method_call",
			"/org/freedesktop/FileManager1", "org.freedesktop.FileManager1.ShowItems", "array:string:" + uri, "string:"}
	}
	gdbus := func(uri string) []string {
		return []string{"/usr/bin/gdbus", "call", "--session", "--dest", "org.freedesktop.FileManager1", "--object-path", "/org/freedesktop/FileManager1",
			"--method", "org.freedesktop.FileManager1.ShowItems", "['" + uri + "']", "''"}
	}
	for _, tc := range []struct {
		name, goos, abs string
		tools           []string
		want            []revealCmd
	}{
		{"linux with dbus-send and gdbus", "linux", "/home/u/proj/main.go", []string{"dbus-send", "gdbus"},
			[]revealCmd{{Args: dbusSend("file:///home/u/proj/main.go")}, {Args: gdbus("file:///home/u/proj/main.go")}}},
		{"linux with gdbus only", "linux", "/p/a b.txt", []string{"gdbus"}, []revealCmd{{Args: gdbus("file:///p/a%20b.txt")}}},
		// ',' would split dbus-send's array and a quote would end the GVariant string.
		{"linux, a name with a comma and a quote", "linux", "/p/x,y's\\z.md", []string{"dbus-send", "gdbus"},
			[]revealCmd{{Args: dbusSend("file:///p/x%2Cy%27s%5Cz.md")}, {Args: gdbus("file:///p/x%2Cy%27s%5Cz.md")}}},
		{"linux without D-Bus tools: open the folder", "linux", "/p/a.txt", nil, nil},
		{"freebsd uses FileManager1 too", "freebsd", "/p/a.txt", []string{"dbus-send"}, []revealCmd{{Args: dbusSend("file:///p/a.txt")}}},
		{"macOS", "darwin", "/Users/u/p/a b.txt", nil, []revealCmd{{Args: []string{"open", "-R", "/Users/u/p/a b.txt"}}}},
		{"windows", "windows", `C:\Users\u\p\a b.txt`, nil,
			[]revealCmd{{Args: []string{"explorer.exe"}, CmdLine: `explorer.exe /select,"C:\Users\u\p\a b.txt"`, IgnoreExit: true}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := revealPlan(tc.goos, tc.abs, have(tc.tools...))
			if len(got) != len(tc.want) {
				t.Fatalf("plan = %#v\nwant %#v", got, tc.want)
			}
			for i := range got {
				if !slices.Equal(got[i].Args, tc.want[i].Args) || got[i].CmdLine != tc.want[i].CmdLine || got[i].IgnoreExit != tc.want[i].IgnoreExit {
					t.Errorf("step %d = %#v\nwant %#v", i, got[i], tc.want[i])
				}
			}
		})
	}
}

// reveal tries the plan in order and opens the folder only when every way
// failed.
func TestRevealFallsBack(t *testing.T) {
	for _, tc := range []struct {
		name     string
		tools    []string
		failing  []string // programs whose call fails
		want     string   // the way used
		wantRuns []string
	}{
		{"dbus-send answers", []string{"dbus-send", "gdbus"}, nil, "/usr/bin/dbus-send", []string{"/usr/bin/dbus-send"}},
		{"no file manager on the bus: gdbus fails too", []string{"dbus-send", "gdbus"}, []string{"/usr/bin/dbus-send", "/usr/bin/gdbus"},
			"folder", []string{"/usr/bin/dbus-send", "/usr/bin/gdbus"}},
		{"dbus-send fails, gdbus answers", []string{"dbus-send", "gdbus"}, []string{"/usr/bin/dbus-send"}, "/usr/bin/gdbus",
			[]string{"/usr/bin/dbus-send", "/usr/bin/gdbus"}},
		{"no tools", nil, nil, "folder", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var runs []string
			opened := ""
			r := revealer{goos: "linux", lookPath: have(tc.tools...),
				run: func(ctx context.Context, c revealCmd) error {
					if _, ok := ctx.Deadline(); !ok {
						t.Error("a reveal command runs without a deadline")
					}
					runs = append(runs, c.Args[0])
					if slices.Contains(tc.failing, c.Args[0]) {
						return errors.New("exit status 1")
					}
					return nil
				},
				openFolder: func(dir string) { opened = dir }}
			got := r.reveal(t.Context(), "/p/src/a.txt")
			if got != tc.want || !slices.Equal(runs, tc.wantRuns) {
				t.Errorf("reveal = %s after %v; want %s after %v", got, runs, tc.want, tc.wantRuns)
			}
			if wantOpen := map[bool]string{true: "/p/src", false: ""}[tc.want == "folder"]; opened != wantOpen {
				t.Errorf("opened folder %q, want %q", opened, wantOpen)
			}
		})
	}
}
