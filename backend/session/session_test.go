package session_test

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/pi-desktop/pi-desktop/backend/api"
	"github.com/pi-desktop/pi-desktop/backend/errs"
	"github.com/pi-desktop/pi-desktop/backend/session"
	"github.com/pi-desktop/pi-desktop/backend/store"
	"github.com/pi-desktop/pi-desktop/platform/paths"
)

type fixture struct {
	layout paths.Layout
	store  *store.Store
	svc    *session.Service
	clock  *time.Time
}

func newFixture(t *testing.T) *fixture {
	t.Helper()
	layout := paths.Layout{Root: filepath.Join(t.TempDir(), "data")}
	if err := layout.Ensure(); err != nil {
		t.Fatal(err)
	}
	f := &fixture{layout: layout}
	now := time.Date(2026, 11, 1, 12, 0, 0, 0, time.UTC)
	f.clock = &now
	f.reopen(t)
	return f
}

// reopen closes and reopens the database, as an app restart would.
func (f *fixture) reopen(t *testing.T) {
	t.Helper()
	if f.store != nil {
		f.store.Close()
	}
	st, err := store.Open(t.Context(), f.layout.Database(), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	f.store = st
	f.svc = session.New(st.DB(), f.layout, func() time.Time {
		*f.clock = f.clock.Add(time.Second) // strictly increasing, like a real clock
		return *f.clock
	})
}

func projectDir(t *testing.T, name string) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), name)
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	return dir
}

func TestAddProjectCanonicalAndIdempotent(t *testing.T) {
	f := newFixture(t)
	dir := projectDir(t, "proj")
	link := filepath.Join(t.TempDir(), "link")
	if err := os.Symlink(dir, link); err != nil {
		t.Fatal(err)
	}
	p, err := f.svc.AddProject(t.Context(), link+string(filepath.Separator)+".")
	if err != nil {
		t.Fatal(err)
	}
	canon, _ := filepath.EvalSymlinks(dir)
	if p.Path != canon || p.Name != "proj" {
		t.Errorf("project = %+v; want canonical path %s", p, canon)
	}
	again, err := f.svc.AddProject(t.Context(), dir)
	if err != nil || again.ID != p.ID {
		t.Errorf("adding the same folder again = %+v, %v; want the existing project", again, err)
	}
	tests := []struct {
		name, path string
		code       errs.Code
	}{
		{"empty", "  ", errs.InvalidArgument},
		{"missing", filepath.Join(dir, "nope"), errs.NotFound},
		{"file", writeFile(t, filepath.Join(dir, "f.txt")), errs.InvalidArgument},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := f.svc.AddProject(t.Context(), tt.path); !errs.Is(err, tt.code) {
				t.Errorf("AddProject(%q) = %v; want %s", tt.path, err, tt.code)
			}
		})
	}
}

func writeFile(t *testing.T, p string) string {
	t.Helper()
	if err := os.WriteFile(p, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestBindingPersistsAcrossReopen(t *testing.T) {
	f := newFixture(t)
	a, _ := f.svc.AddProject(t.Context(), projectDir(t, "a"))
	b, _ := f.svc.AddProject(t.Context(), projectDir(t, "b"))
	sa, err := f.svc.Create(t.Context(), api.CreateSessionInput{ProjectID: a.ID, Title: "in a"})
	if err != nil {
		t.Fatal(err)
	}
	sb, _ := f.svc.Create(t.Context(), api.CreateSessionInput{ProjectID: b.ID})

	f.reopen(t)
	for _, c := range []struct {
		id   string
		want string
	}{{sa.ID, a.Path}, {sb.ID, b.Path}} {
		bind, err := f.svc.Bind(t.Context(), c.id)
		if err != nil {
			t.Fatal(err)
		}
		if bind.Workspace != c.want || bind.Temporary {
			t.Errorf("session %s bound to %s (temporary=%v); want %s", c.id, bind.Workspace, bind.Temporary, c.want)
		}
		if bind.Scratch != filepath.Join(f.layout.Scratch(), c.id) {
			t.Errorf("scratch = %s", bind.Scratch)
		}
	}
	got, err := f.svc.Get(t.Context(), sa.ID)
	if err != nil || got != sa {
		t.Errorf("after reopen Get = %+v, %v; want %+v", got, err, sa)
	}
	if got.OperatingMode != api.ModeAgent || got.PermissionMode != api.PermissionInherit {
		t.Errorf("defaults = %s/%s; want agent/inherit", got.OperatingMode, got.PermissionMode)
	}
}

func TestTemporarySessionRootIsItsScratch(t *testing.T) {
	f := newFixture(t)
	// A visible project must not leak into a temporary session.
	if _, err := f.svc.AddProject(t.Context(), projectDir(t, "visible")); err != nil {
		t.Fatal(err)
	}
	tmp, err := f.svc.Create(t.Context(), api.CreateSessionInput{})
	if err != nil {
		t.Fatal(err)
	}
	if tmp.ProjectID != "" || tmp.Title == "" {
		t.Fatalf("temporary session = %+v", tmp)
	}
	bind, err := f.svc.Bind(t.Context(), tmp.ID)
	if err != nil {
		t.Fatal(err)
	}
	want := filepath.Join(f.layout.Scratch(), tmp.ID)
	if !bind.Temporary || bind.Workspace != want || bind.Scratch != want {
		t.Errorf("binding = %+v; want workspace = scratch = %s", bind, want)
	}
	if _, err := os.Stat(want); !os.IsNotExist(err) {
		t.Error("scratch must be created lazily, not at session creation")
	}
	dir, err := f.svc.EnsureScratch(t.Context(), tmp.ID)
	if err != nil || dir != want {
		t.Fatalf("EnsureScratch = %s, %v", dir, err)
	}
	if fi, err := os.Stat(want); err != nil || !fi.IsDir() {
		t.Errorf("scratch not created: %v", err)
	}
	list, _ := f.svc.List(t.Context(), "", false)
	if len(list) != 1 || list[0].ID != tmp.ID {
		t.Errorf("temporary list = %+v", list)
	}
	if _, err := f.svc.Configure(t.Context(), tmp.ID, api.SessionConfig{OperatingMode: api.ModePlan}); !errs.Is(err, errs.WorkspaceRequired) {
		t.Errorf("plan mode in a temporary session: %v; want WORKSPACE_REQUIRED", err)
	}
}

func TestListNewestFirstAndArchive(t *testing.T) {
	f := newFixture(t)
	p, _ := f.svc.AddProject(t.Context(), projectDir(t, "p"))
	var ids []string
	for _, title := range []string{"one", "two", "three"} {
		s, err := f.svc.Create(t.Context(), api.CreateSessionInput{ProjectID: p.ID, Title: title})
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, s.ID)
	}
	list, _ := f.svc.List(t.Context(), p.ID, false)
	if len(list) != 3 || list[0].Title != "three" || list[2].Title != "one" {
		t.Fatalf("list not newest first: %+v", list)
	}
	archived, err := f.svc.SetArchived(t.Context(), ids[1], true)
	if err != nil || archived.ArchivedAt == 0 {
		t.Fatalf("archive = %+v, %v", archived, err)
	}
	live, _ := f.svc.List(t.Context(), p.ID, false)
	arch, _ := f.svc.List(t.Context(), p.ID, true)
	if len(live) != 2 || len(arch) != 1 || arch[0].ID != ids[1] {
		t.Errorf("live=%d archived=%+v", len(live), arch)
	}
	restored, err := f.svc.SetArchived(t.Context(), ids[1], false)
	if err != nil || restored.ArchivedAt != 0 {
		t.Errorf("restore = %+v, %v", restored, err)
	}
}

func TestRenameAndConfigureValidation(t *testing.T) {
	f := newFixture(t)
	p, _ := f.svc.AddProject(t.Context(), projectDir(t, "p"))
	s, _ := f.svc.Create(t.Context(), api.CreateSessionInput{ProjectID: p.ID})
	got, err := f.svc.Rename(t.Context(), s.ID, "  Fix the parser  ")
	if err != nil || got.Title != "Fix the parser" || got.UpdatedAt <= s.UpdatedAt {
		t.Errorf("rename = %+v, %v", got, err)
	}
	bad := []struct {
		name string
		call func() error
		code errs.Code
	}{
		{"empty title", func() error { _, err := f.svc.Rename(t.Context(), s.ID, " "); return err }, errs.InvalidArgument},
		{"multi-line title", func() error { _, err := f.svc.Rename(t.Context(), s.ID, "a\nb"); return err }, errs.InvalidArgument},
		{"unknown session", func() error { _, err := f.svc.Rename(t.Context(), "nope", "x"); return err }, errs.SessionNotFound},
		{"bad mode", func() error {
			_, err := f.svc.Configure(t.Context(), s.ID, api.SessionConfig{OperatingMode: "yolo"})
			return err
		}, errs.InvalidArgument},
		{"bad permission", func() error {
			_, err := f.svc.Configure(t.Context(), s.ID, api.SessionConfig{PermissionMode: "always"})
			return err
		}, errs.InvalidArgument},
		{"unknown project", func() error {
			_, err := f.svc.Create(t.Context(), api.CreateSessionInput{ProjectID: "nope"})
			return err
		}, errs.ProjectNotFound},
	}
	for _, tt := range bad {
		t.Run(tt.name, func(t *testing.T) {
			if err := tt.call(); !errs.Is(err, tt.code) {
				t.Errorf("got %v; want %s", err, tt.code)
			}
		})
	}
	cfg, err := f.svc.Configure(t.Context(), s.ID, api.SessionConfig{OperatingMode: api.ModePlan, PermissionMode: api.PermissionAuto})
	if err != nil || cfg.OperatingMode != api.ModePlan || cfg.PermissionMode != api.PermissionAuto {
		t.Errorf("configure = %+v, %v", cfg, err)
	}
}

func TestDeleteRemovesItsFoldersOnly(t *testing.T) {
	f := newFixture(t)
	proj := projectDir(t, "p")
	keep := writeFile(t, filepath.Join(proj, "main.go"))
	p, _ := f.svc.AddProject(t.Context(), proj)
	s, _ := f.svc.Create(t.Context(), api.CreateSessionInput{ProjectID: p.ID})
	other, _ := f.svc.Create(t.Context(), api.CreateSessionInput{ProjectID: p.ID})
	for _, base := range []string{f.layout.Scratch(), f.layout.Visualizations(), f.layout.Reviews()} {
		for _, id := range []string{s.ID, other.ID} {
			mkdirWithFile(t, filepath.Join(base, id))
		}
	}
	if err := f.svc.Delete(t.Context(), s.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := f.svc.Get(t.Context(), s.ID); !errs.Is(err, errs.SessionNotFound) {
		t.Errorf("deleted session still found: %v", err)
	}
	for _, base := range []string{f.layout.Scratch(), f.layout.Visualizations(), f.layout.Reviews()} {
		if _, err := os.Lstat(filepath.Join(base, s.ID)); !os.IsNotExist(err) {
			t.Errorf("%s/%s survived delete", base, s.ID)
		}
		if _, err := os.Stat(filepath.Join(base, other.ID, "f")); err != nil {
			t.Errorf("another session's folder was touched: %v", err)
		}
	}
	if _, err := os.Stat(keep); err != nil {
		t.Errorf("project file removed: %v", err)
	}
	if err := f.svc.Delete(t.Context(), s.ID); !errs.Is(err, errs.SessionNotFound) {
		t.Errorf("second delete = %v; want SESSION_NOT_FOUND", err)
	}
}

func TestDeleteDoesNotFollowPlantedLink(t *testing.T) {
	f := newFixture(t)
	p, _ := f.svc.AddProject(t.Context(), projectDir(t, "p"))
	s, _ := f.svc.Create(t.Context(), api.CreateSessionInput{ProjectID: p.ID})
	victim := projectDir(t, "victim")
	precious := writeFile(t, filepath.Join(victim, "precious"))
	if err := os.Symlink(victim, filepath.Join(f.layout.Scratch(), s.ID)); err != nil {
		t.Fatal(err)
	}
	if err := f.svc.Delete(t.Context(), s.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(precious); err != nil {
		t.Errorf("delete followed a link in place of the scratch folder: %v", err)
	}
	if _, err := os.Lstat(filepath.Join(f.layout.Scratch(), s.ID)); !os.IsNotExist(err) {
		t.Error("the planted link itself should be gone")
	}
}

func TestRemoveProjectDeletesSessionsNotFiles(t *testing.T) {
	f := newFixture(t)
	proj := projectDir(t, "p")
	keep := writeFile(t, filepath.Join(proj, "README"))
	p, _ := f.svc.AddProject(t.Context(), proj)
	s, _ := f.svc.Create(t.Context(), api.CreateSessionInput{ProjectID: p.ID})
	mkdirWithFile(t, filepath.Join(f.layout.Scratch(), s.ID))
	if err := f.svc.RemoveProject(t.Context(), p.ID); err != nil {
		t.Fatal(err)
	}
	if list, _ := f.svc.ListProjects(t.Context()); len(list) != 0 {
		t.Errorf("projects after remove: %+v", list)
	}
	if _, err := f.svc.Get(t.Context(), s.ID); !errs.Is(err, errs.SessionNotFound) {
		t.Errorf("session of removed project: %v", err)
	}
	if _, err := os.Stat(keep); err != nil {
		t.Errorf("project files touched: %v", err)
	}
}

func TestStorageErrorIsNotNotFound(t *testing.T) {
	f := newFixture(t)
	p, _ := f.svc.AddProject(t.Context(), projectDir(t, "p"))
	s, _ := f.svc.Create(t.Context(), api.CreateSessionInput{ProjectID: p.ID})
	f.store.Close()
	for name, call := range map[string]func() error{
		"get":  func() error { _, err := f.svc.Get(t.Context(), s.ID); return err },
		"bind": func() error { _, err := f.svc.Bind(t.Context(), s.ID); return err },
		"list": func() error { _, err := f.svc.List(t.Context(), p.ID, false); return err },
	} {
		if err := call(); !errs.Is(err, errs.StorageUnavailable) {
			t.Errorf("%s on a closed database = %v; want STORAGE_UNAVAILABLE, never not-found", name, err)
		}
	}
}

func mkdirWithFile(t *testing.T, dir string) {
	t.Helper()
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(dir, "f"))
}
