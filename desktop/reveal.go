package desktop

import (
	"context"
	"fmt"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
)

// revealCmd is one way of showing a file selected in the OS file manager.
type revealCmd struct {
	Args []string
	// CmdLine, on Windows, is the command line passed as is: explorer
	// parses `/select,"path"` itself, not by the C runtime's rules that
	// exec.Command's quoting follows.
	CmdLine string
	// IgnoreExit: explorer exits 1 even when it showed the file.
	IgnoreExit bool
}

// fileManager1 is the freedesktop interface file managers (Nautilus,
// Dolphin, Nemo, Thunar, Caja…) implement to open a folder with items
// selected.
const (
	fm1Dest = "org.freedesktop.FileManager1"
	fm1Path = "/org/freedesktop/FileManager1"
)

// revealPlan lists, in order of preference, the commands that show abs (a
// file) selected in goos's file manager; lookPath says which programs
// exist. An empty plan (or one whose every command fails) means: open the
// folder instead.
func revealPlan(goos, abs string, lookPath func(string) (string, error)) []revealCmd {
	switch goos {
	case "darwin":
		return []revealCmd{{Args: []string{"open", "-R", abs}}}
	case "windows":
		return []revealCmd{{Args: []string{"explorer.exe"}, CmdLine: `explorer.exe /select,"` + abs + `"`, IgnoreExit: true}}
	}
	uri := dbusFileURI(abs)
	var plan []revealCmd
	// --print-reply waits for the answer, so a missing service is an exit
	// status, not a silent success.
	if p, err := lookPath("dbus-send"); err == nil {
		plan = append(plan, revealCmd{Args: []string{p, "--session", "--print-reply", "--dest=" + fm1Dest, "--type=method_call",
			fm1Path, fm1Dest + ".ShowItems", "array:string:" + uri, "string:"}})
	}
	if p, err := lookPath("gdbus"); err == nil {
		plan = append(plan, revealCmd{Args: []string{p, "call", "--session", "--dest", fm1Dest, "--object-path", fm1Path,
			"--method", fm1Dest + ".ShowItems", "['" + uri + "']", "''"}})
	}
	return plan
}

// dbusFileURI is abs as a file URI that survives both dbus-send's array
// syntax (',' separates items) and a GVariant string literal (quotes and
// backslashes): every byte outside a plain set is percent-encoded, which
// file managers decode.
func dbusFileURI(abs string) string {
	var b strings.Builder
	b.WriteString("file://")
	p := filepath.ToSlash(abs)
	if !strings.HasPrefix(p, "/") {
		p = "/" + p
	}
	for i := 0; i < len(p); i++ {
		c := p[i]
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9', strings.IndexByte("/-_.~", c) >= 0:
			b.WriteByte(c)
		default:
			fmt.Fprintf(&b, "%%%02X", c)
		}
	}
	return b.String()
}

// revealer shows a file selected in the file manager, else opens its
// folder. Its seams (which programs exist, how a command runs, how a
// folder opens) are ours, so tests check the choices without a file
// manager.
type revealer struct {
	goos       string
	lookPath   func(string) (string, error)
	run        func(ctx context.Context, c revealCmd) error
	openFolder func(dir string)
}

// revealTimeout bounds one attempt: a D-Bus call that activates a file
// manager answers within seconds, or the next way is tried.
const revealTimeout = 5 * time.Second

// reveal shows abs (a file) selected, trying the plan in order, and opens
// its folder when no way worked. It reports which way was used.
func (r revealer) reveal(ctx context.Context, abs string) string {
	for _, c := range revealPlan(r.goos, abs, r.lookPath) {
		cctx, cancel := context.WithTimeout(ctx, revealTimeout)
		err := r.run(cctx, c)
		cancel()
		if err == nil {
			return c.Args[0]
		}
	}
	r.openFolder(filepath.Dir(abs))
	return "folder"
}

// runReveal runs c detached from the app's output, waiting for it (a
// D-Bus call returns at once; open -R and explorer hand off and exit).
func runReveal(ctx context.Context, c revealCmd) error {
	cmd := exec.CommandContext(ctx, c.Args[0], c.Args[1:]...)
	rawCmdLine(cmd, c.CmdLine)
	err := cmd.Run()
	if _, exited := err.(*exec.ExitError); exited && c.IgnoreExit {
		return nil
	}
	return err
}
