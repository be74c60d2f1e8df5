package checkpoint_test

import (
	"crypto/sha256"
	"encoding/hex"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pi-desktop/pi-desktop/backend/checkpoint"
	"github.com/pi-desktop/pi-desktop/backend/store"
	"github.com/pi-desktop/pi-desktop/backend/worktree"
	"github.com/pi-desktop/pi-desktop/internal/testhome"
)

func TestMain(m *testing.M) { os.Exit(testhome.Run(m)) }

const session = "s1"

type fixture struct {
	t    *testing.T
	ws   string
	data string
	db   *store.Store
	git  *worktree.Git
	svc  *checkpoint.Service
}

func canon(t *testing.T, p string) string {
	t.Helper()
	c, err := filepath.EvalSymlinks(p)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func newFixture(t *testing.T, opts checkpoint.Options) *fixture {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Fatal("these tests need git on PATH")
	}
	f := &fixture{t: t, ws: canon(t, t.TempDir()), data: canon(t, t.TempDir())}
	db, err := store.Open(t.Context(), filepath.Join(f.data, "pi.db"), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	f.db = db
	f.addSession(session)
	g, err := worktree.NewGit(filepath.Join(f.data, "git", "empty-hooks"))
	if err != nil {
		t.Fatal(err)
	}
	f.git = g
	f.svc = checkpoint.New(db.DB(), g, f.shadows(), opts)
	return f
}

func (f *fixture) shadows() string { return filepath.Join(f.data, "checkpoints") }

func (f *fixture) addSession(id string) {
	f.t.Helper()
	if _, err := f.db.DB().ExecContext(f.t.Context(), "INSERT INTO sessions (id, title, created_at, updated_at) VALUES (?, 't', 0, 0)", id); err != nil {
		f.t.Fatal(err)
	}
}

func (f *fixture) write(rel, content string, perm fs.FileMode) {
	f.t.Helper()
	p := filepath.Join(f.ws, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		f.t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), perm); err != nil {
		f.t.Fatal(err)
	}
	if err := os.Chmod(p, perm); err != nil {
		f.t.Fatal(err)
	}
}

func (f *fixture) read(rel string) string {
	f.t.Helper()
	b, err := os.ReadFile(filepath.Join(f.ws, filepath.FromSlash(rel)))
	if err != nil {
		f.t.Fatal(err)
	}
	return string(b)
}

// bash runs script in the workspace as the Bash tool would.
func (f *fixture) bash(script string) {
	f.t.Helper()
	cmd := exec.Command("bash", "-c", script)
	cmd.Dir = f.ws
	if out, err := cmd.CombinedOutput(); err != nil {
		f.t.Fatalf("bash %q: %v\n%s", script, err, out)
	}
}

func (f *fixture) take(kind checkpoint.Kind) checkpoint.Checkpoint {
	f.t.Helper()
	cp, err := f.svc.Take(f.t.Context(), checkpoint.Point{SessionID: session, TurnID: "t1", Kind: kind, Workspace: f.ws})
	if err != nil {
		f.t.Fatal(err)
	}
	if !cp.Captured {
		f.t.Fatalf("checkpoint %s not captured: %s", kind, cp.Reason)
	}
	return cp
}

// state describes every entry under root except .git: kind, mode bits
// and content (a link's target).
func state(t *testing.T, root string) map[string]string {
	t.Helper()
	out := map[string]string{}
	if _, err := os.Lstat(root); os.IsNotExist(err) {
		return out
	}
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		if rel == "." {
			return nil
		}
		if d.Name() == ".git" {
			return filepath.SkipDir
		}
		fi, err := os.Lstat(p)
		if err != nil {
			return err
		}
		switch {
		case fi.Mode()&fs.ModeSymlink != 0:
			target, _ := os.Readlink(p)
			out[filepath.ToSlash(rel)] = "link→" + target
		case fi.IsDir():
			out[filepath.ToSlash(rel)] = "dir"
		default:
			b, _ := os.ReadFile(p)
			out[filepath.ToSlash(rel)] = fi.Mode().Perm().String() + " " + hash(b)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func hash(b []byte) string {
	h := sha256.Sum256(b)
	return hex.EncodeToString(h[:6])
}

func diffStates(want, got map[string]string) string {
	var b strings.Builder
	for k, v := range want {
		if got[k] != v {
			b.WriteString("  " + k + ": want " + v + ", got " + got[k] + "\n")
		}
	}
	for k, v := range got {
		if _, ok := want[k]; !ok {
			b.WriteString("  " + k + ": unexpected " + v + "\n")
		}
	}
	return b.String()
}

// gitInit makes the workspace a user repository with one commit.
func (f *fixture) gitInit() {
	f.t.Helper()
	f.bash(`git init -q . && git -c user.name=u -c user.email=u@x add -A && git -c user.name=u -c user.email=u@x commit -q -m init --allow-empty`)
}

func changedPaths(files []checkpoint.FileChange) map[string]checkpoint.FileChange {
	m := map[string]checkpoint.FileChange{}
	for _, f := range files {
		m[f.Path] = f
	}
	return m
}

func mustLook(t *testing.T) string {
	t.Helper()
	p, err := exec.LookPath("git")
	if err != nil {
		t.Fatal(err)
	}
	return p
}
