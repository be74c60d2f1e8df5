package mcpstore_test

import (
	"testing"

	"github.com/pi-desktop/pi-desktop/backend/errs"
	"github.com/pi-desktop/pi-desktop/backend/mcpstore"
)

func TestTrustIsForOneDefinition(t *testing.T) {
	f := newFixture(t)
	f.project(t, "p1")
	f.project(t, "p2")
	ctx := t.Context()
	root := tree(t, map[string]string{".mcp.json": mcpJSON})
	list, err := mcpstore.ProjectServers(root)
	if err != nil {
		t.Fatal(err)
	}
	hash := list[0].Hash // everything
	changed := "sha256:" + "0000000000000000000000000000000000000000000000000000000000000000"

	if f.svc.Trusted(ctx, "p1", "everything", hash) {
		t.Fatal("trusted before Trust")
	}
	if err := f.svc.Trust(ctx, "p1", "everything", hash); err != nil {
		t.Fatal(err)
	}
	checks := []struct {
		project, id, hash string
		want              bool
	}{
		{"p1", "everything", hash, true},
		{"p1", "everything", changed, false}, // a changed definition
		{"p2", "everything", hash, false},    // another project
		{"p1", "web", hash, false},           // another server
		{"", "everything", hash, false},      // app scope never needs trust here
		{"p1", "everything", "", false},
	}
	for _, c := range checks {
		if got := f.svc.Trusted(ctx, c.project, c.id, c.hash); got != c.want {
			t.Errorf("Trusted(%q, %q, %.16s) = %v; want %v", c.project, c.id, c.hash, got, c.want)
		}
	}
	// Trusting the changed definition replaces the old trust.
	if err := f.svc.Trust(ctx, "p1", "everything", changed); err != nil {
		t.Fatal(err)
	}
	if f.svc.Trusted(ctx, "p1", "everything", hash) || !f.svc.Trusted(ctx, "p1", "everything", changed) {
		t.Error("a new trust did not replace the old one")
	}
	if err := f.svc.Untrust(ctx, "p1", "everything"); err != nil {
		t.Fatal(err)
	}
	if f.svc.Trusted(ctx, "p1", "everything", changed) {
		t.Error("trusted after Untrust")
	}
	refused := []struct {
		project, id, hash string
		code              errs.Code
	}{
		{"p1", "everything", "md5:abc", errs.InvalidArgument},
		{"p1", "", hash, errs.InvalidArgument},
		{"", "everything", hash, errs.InvalidArgument},
		{"gone", "everything", hash, errs.ProjectNotFound},
	}
	for _, c := range refused {
		if err := f.svc.Trust(ctx, c.project, c.id, c.hash); !errs.Is(err, c.code) {
			t.Errorf("Trust(%q, %q, %q) = %v; want %s", c.project, c.id, c.hash, err, c.code)
		}
	}
}

// Editing the project's file after trusting it asks again.
func TestChangedProjectFileIsUntrusted(t *testing.T) {
	f := newFixture(t)
	f.project(t, "p1")
	ctx := t.Context()
	root := tree(t, map[string]string{".agents/servers/git.json": oneServer})
	state := func() mcpstore.ProjectServer {
		t.Helper()
		list, err := f.svc.ProjectCatalog(ctx, "p1", root)
		if err != nil || len(list) != 1 {
			t.Fatalf("ProjectCatalog = %v, %v", list, err)
		}
		return list[0]
	}
	first := state()
	if first.Trusted {
		t.Fatal("trusted before Trust")
	}
	if err := f.svc.Trust(ctx, "p1", "git", first.Hash); err != nil {
		t.Fatal(err)
	}
	if !state().Trusted {
		t.Fatal("not trusted after Trust")
	}
	writeFile(t, root, ".agents/servers/git.json", `{"command": "uvx", "args": ["mcp-server-git", "--repository", "/"]}`)
	if s := state(); s.Trusted || s.Hash == first.Hash {
		t.Errorf("a changed file is trusted (%v) or kept its hash", s.Trusted)
	}
	writeFile(t, root, ".agents/servers/git.json", oneServer)
	if !state().Trusted {
		t.Error("the trusted definition, written back, is not trusted")
	}
}

func TestProjectSwitches(t *testing.T) {
	f := newFixture(t)
	f.project(t, "p1")
	f.project(t, "p2")
	ctx := t.Context()
	root := tree(t, map[string]string{".mcp.json": mcpJSON})
	read := func(project string) []mcpstore.ProjectServer {
		t.Helper()
		list, err := mcpstore.ProjectServers(root)
		if err != nil {
			t.Fatal(err)
		}
		if list, err = f.svc.WithProjectState(ctx, project, list); err != nil {
			t.Fatal(err)
		}
		return list
	}
	if l := read("p1"); !l[0].Server.Enabled || !l[1].Server.Enabled {
		t.Fatal("a project server without settings is not enabled")
	}
	for _, err := range []error{
		f.svc.SetEnabled(ctx, "p1", "web", false),
		f.svc.SetToolEnabled(ctx, "p1", "everything", "echo", false),
		f.svc.SetToolEnabled(ctx, "p1", "everything", "add", false),
		f.svc.SetToolEnabled(ctx, "p1", "everything", "add", true),
	} {
		if err != nil {
			t.Fatal(err)
		}
	}
	l := read("p1")
	if !l[0].Server.Enabled || l[0].Server.ToolEnabled("echo") || !l[0].Server.ToolEnabled("add") || l[1].Server.Enabled {
		t.Errorf("p1 = %+v / %+v", l[0].Server, l[1].Server)
	}
	// The tool switch did not reset the enabled switch and vice versa.
	if err := f.svc.SetEnabled(ctx, "p1", "everything", false); err != nil {
		t.Fatal(err)
	}
	if l := read("p1"); l[0].Server.Enabled || l[0].Server.ToolEnabled("echo") {
		t.Errorf("after disabling: %+v", l[0].Server)
	}
	if l := read("p2"); !l[0].Server.Enabled || !l[0].Server.ToolEnabled("echo") || !l[1].Server.Enabled {
		t.Error("another project's switches leaked")
	}
	if err := f.svc.SetEnabled(ctx, "gone", "web", false); !errs.Is(err, errs.ProjectNotFound) {
		t.Errorf("switching in a missing project = %v", err)
	}
}

func TestForgetProject(t *testing.T) {
	f := newFixture(t)
	f.project(t, "p1")
	ctx := t.Context()
	key := mcpstore.TokenKey("p1", "web")
	if err := f.svc.SaveToken(key, []byte("tok")); err != nil {
		t.Fatal(err)
	}
	hash := "sha256:" + "1111111111111111111111111111111111111111111111111111111111111111"
	if err := f.svc.Trust(ctx, "p1", "web", hash); err != nil {
		t.Fatal(err)
	}
	if err := f.svc.SetEnabled(ctx, "p1", "web", false); err != nil {
		t.Fatal(err)
	}
	if err := f.svc.ForgetProject(ctx, "p1"); err != nil {
		t.Fatal(err)
	}
	if len(f.kc.Secrets()) != 0 || f.svc.Trusted(ctx, "p1", "web", hash) {
		t.Errorf("after ForgetProject: keychain %v, trusted %v", f.kc.Secrets(), f.svc.Trusted(ctx, "p1", "web", hash))
	}
	if blob, _ := f.svc.LoadToken(key); blob != nil {
		t.Errorf("token after ForgetProject = %q", blob)
	}
}

// Removing a project's row forgets its trust and switches with it, so a
// project added again at the same path asks again.
func TestRemovedProjectForgetsTrust(t *testing.T) {
	f := newFixture(t)
	f.project(t, "p1")
	ctx := t.Context()
	hash := "sha256:" + "2222222222222222222222222222222222222222222222222222222222222222"
	if err := f.svc.Trust(ctx, "p1", "web", hash); err != nil {
		t.Fatal(err)
	}
	if err := f.svc.SetEnabled(ctx, "p1", "web", false); err != nil {
		t.Fatal(err)
	}
	if _, err := f.st.DB().ExecContext(ctx, "DELETE FROM projects WHERE id = 'p1'"); err != nil {
		t.Fatal(err)
	}
	f.project(t, "p1")
	if f.svc.Trusted(ctx, "p1", "web", hash) {
		t.Error("trust survived the project's removal")
	}
	var n int
	if err := f.st.DB().QueryRowContext(ctx, "SELECT count(*) FROM mcp_project_servers").Scan(&n); err != nil || n != 0 {
		t.Errorf("project server rows left: %d, %v", n, err)
	}
}
