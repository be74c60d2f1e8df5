package cmdrule

import (
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"github.com/pi-desktop/pi-desktop/backend/api"
	"github.com/pi-desktop/pi-desktop/backend/errs"
	"github.com/pi-desktop/pi-desktop/backend/session"
	"github.com/pi-desktop/pi-desktop/backend/store"
	"github.com/pi-desktop/pi-desktop/platform/paths"
)

type storeFixture struct {
	rules    *Store
	sessions *session.Service
	st       *store.Store
}

func openStore(t *testing.T) storeFixture {
	t.Helper()
	dir := t.TempDir()
	st, err := store.Open(t.Context(), filepath.Join(dir, "pi.sqlite"), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = st.Close() })
	clock := time.UnixMilli(1_700_000_000_000)
	now := func() time.Time { clock = clock.Add(time.Millisecond); return clock }
	return storeFixture{rules: NewStore(st.DB(), now), sessions: session.New(st.DB(), paths.Layout{Root: dir}, nil), st: st}
}

func (f storeFixture) project(t *testing.T) api.Project {
	t.Helper()
	p, err := f.sessions.AddProject(t.Context(), t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func (f storeFixture) session(t *testing.T, projectID string) api.Session {
	t.Helper()
	s, err := f.sessions.Create(t.Context(), api.CreateSessionInput{ProjectID: projectID})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func (f storeFixture) add(t *testing.T, r Rule) Rule {
	t.Helper()
	got, err := f.rules.Add(t.Context(), r)
	if err != nil {
		t.Fatalf("add %v: %v", r, err)
	}
	return got
}

func words(rules []Rule) []string {
	out := []string{}
	for _, r := range rules {
		out = append(out, r.String())
	}
	return out
}

func TestStoreInEffect(t *testing.T) {
	f := openStore(t)
	p1, p2 := f.project(t), f.project(t)
	s1, s2, tmp := f.session(t, p1.ID), f.session(t, p2.ID), f.session(t, "")
	f.add(t, Rule{Decision: Allow, Program: "git", Args: []string{"status"}, Scope: ScopeGlobal})
	f.add(t, Rule{Decision: Deny, Program: "rm", Args: []string{"-rf"}, Scope: ScopeProject, ProjectID: p1.ID})
	f.add(t, Rule{Decision: Allow, Program: "go", Args: []string{"test"}, Scope: ScopeSession, SessionID: s1.ID})
	f.add(t, Rule{Decision: Ask, Program: "npm", Scope: ScopeProject, ProjectID: p2.ID})
	f.add(t, Rule{Decision: Allow, Program: "ls", Scope: ScopeSession, SessionID: tmp.ID})

	cases := []struct {
		session string
		want    []string
	}{
		{s1.ID, []string{"allow git status (global)", "deny rm -rf (project)", "allow go test (session)"}},
		{s2.ID, []string{"allow git status (global)", "ask npm (project)"}},
		{tmp.ID, []string{"allow git status (global)", "allow ls (session)"}},
	}
	for _, tc := range cases {
		got, err := f.rules.InEffect(t.Context(), tc.session)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(words(got), tc.want) {
			t.Errorf("in effect: %q, want %q", words(got), tc.want)
		}
	}
	if _, err := f.rules.InEffect(t.Context(), "nope"); !errs.Is(err, errs.SessionNotFound) {
		t.Errorf("unknown session: %v", err)
	}
	proj, err := f.rules.ForProject(t.Context(), p1.ID)
	if err != nil || !reflect.DeepEqual(words(proj), []string{"allow git status (global)", "deny rm -rf (project)"}) {
		t.Errorf("for project: %q, %v", words(proj), err)
	}
	all, err := f.rules.List(t.Context())
	if err != nil || len(all) != 5 {
		t.Errorf("list: %d rules, %v", len(all), err)
	}
}

func TestStoreAddRoundTripAndDuplicates(t *testing.T) {
	f := openStore(t)
	r := f.add(t, Rule{Decision: Allow, Program: "npm", Args: []string{"run", "test"}, Scope: ScopeGlobal, Note: "  the suite  "})
	if r.ID == "" || r.CreatedAt == 0 || r.Note != "the suite" {
		t.Fatalf("added %+v", r)
	}
	got, err := f.rules.Get(t.Context(), r.ID)
	if err != nil || !reflect.DeepEqual(got, r) {
		t.Fatalf("get %+v, %v; want %+v", got, err, r)
	}
	again := f.add(t, Rule{Decision: Allow, Program: "npm", Args: []string{"run", "test"}, Scope: ScopeGlobal})
	if again.ID != r.ID {
		t.Errorf("the same rule saved twice: %s and %s", r.ID, again.ID)
	}
	other := f.add(t, Rule{Decision: Allow, Program: "npm", Args: []string{"run"}, Scope: ScopeGlobal})
	if other.ID == r.ID {
		t.Errorf("a shorter prefix is another rule")
	}
}

func TestStoreRemove(t *testing.T) {
	f := openStore(t)
	r := f.add(t, Rule{Decision: Deny, Program: "curl", Scope: ScopeGlobal})
	if err := f.rules.Remove(t.Context(), r.ID); err != nil {
		t.Fatal(err)
	}
	if err := f.rules.Remove(t.Context(), r.ID); !errs.Is(err, errs.RuleNotFound) {
		t.Errorf("second remove: %v", err)
	}
	if _, err := f.rules.Get(t.Context(), r.ID); !errs.Is(err, errs.RuleNotFound) {
		t.Errorf("get removed: %v", err)
	}
}

func TestStoreRulesGoWithTheirProjectAndSession(t *testing.T) {
	f := openStore(t)
	p := f.project(t)
	s := f.session(t, p.ID)
	f.add(t, Rule{Decision: Allow, Program: "make", Scope: ScopeProject, ProjectID: p.ID})
	f.add(t, Rule{Decision: Allow, Program: "ls", Scope: ScopeSession, SessionID: s.ID})
	if err := f.sessions.RemoveProject(t.Context(), p.ID); err != nil {
		t.Fatal(err)
	}
	if all, _ := f.rules.List(t.Context()); len(all) != 0 {
		t.Errorf("rules left after removing their project: %q", words(all))
	}
}

func TestStoreAddRefuses(t *testing.T) {
	f := openStore(t)
	cases := []struct {
		rule Rule
		code errs.Code
	}{
		{Rule{Decision: "maybe", Program: "git", Scope: ScopeGlobal}, errs.RuleInvalid},
		{Rule{Decision: Allow, Program: "", Scope: ScopeGlobal}, errs.RuleInvalid},
		{Rule{Decision: Allow, Program: "git", Scope: "forever"}, errs.RuleInvalid},
		{Rule{Decision: Allow, Program: "git", Scope: ScopeProject}, errs.RuleInvalid},
		{Rule{Decision: Allow, Program: "git", Scope: ScopeGlobal, ProjectID: "p"}, errs.RuleInvalid},
		{Rule{Decision: Allow, Program: "git", Scope: ScopeSession}, errs.RuleInvalid},
		{Rule{Decision: Allow, Program: "git status", Scope: ScopeGlobal}, errs.RuleInvalid},
		{Rule{Decision: Allow, Program: "git", Args: []string{""}, Scope: ScopeGlobal}, errs.RuleInvalid},
		{Rule{Decision: Allow, Program: "git", Args: []string{"a\nb"}, Scope: ScopeGlobal}, errs.RuleInvalid},
		{Rule{Decision: Allow, Program: "-rf", Scope: ScopeGlobal}, errs.RuleInvalid},
		{Rule{Decision: Allow, Program: "sudo", Scope: ScopeGlobal}, errs.RuleInvalid},
		{Rule{Decision: Allow, Program: "eval", Scope: ScopeGlobal}, errs.RuleInvalid},
		{Rule{Decision: Allow, Program: "git", Scope: ScopeProject, ProjectID: "gone"}, errs.ProjectNotFound},
		{Rule{Decision: Allow, Program: "git", Scope: ScopeSession, SessionID: "gone"}, errs.SessionNotFound},
	}
	for _, tc := range cases {
		if _, err := f.rules.Add(t.Context(), tc.rule); !errs.Is(err, tc.code) {
			t.Errorf("%+v: %v, want %s", tc.rule, err, tc.code)
		}
	}
	// A deny for a program that always asks is still a rule worth having.
	f.add(t, Rule{Decision: Deny, Program: "sudo", Scope: ScopeGlobal})
}

// TestStoreDamagedWordsFailClosed: a row whose args no longer parse drops
// an allow and widens a deny to the whole program.
func TestStoreDamagedWordsFailClosed(t *testing.T) {
	f := openStore(t)
	a := f.add(t, Rule{Decision: Allow, Program: "git", Args: []string{"status"}, Scope: ScopeGlobal})
	d := f.add(t, Rule{Decision: Deny, Program: "rm", Args: []string{"-rf"}, Scope: ScopeGlobal})
	if _, err := f.st.DB().ExecContext(t.Context(), "UPDATE command_rules SET args = 'not json'"); err != nil {
		t.Fatal(err)
	}
	got, err := f.rules.List(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(words(got), []string{"deny rm (global)"}) || got[0].ID != d.ID {
		t.Errorf("rules %q (allow %s should be gone)", words(got), a.ID)
	}
}
