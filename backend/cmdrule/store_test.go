package cmdrule

import (
	"path/filepath"
	"reflect"
	"strings"
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

func TestStoreUpdate(t *testing.T) {
	f := openStore(t)
	p := f.project(t)
	s := f.session(t, p.ID)
	r := f.add(t, Rule{Decision: Allow, Program: "git", Args: []string{"status"}, Scope: ScopeGlobal, Note: "read only"})
	cases := []struct {
		name string
		edit Rule
		want string
	}{
		{"decision", Rule{Decision: Deny, Program: "git", Args: []string{"status"}, Scope: ScopeGlobal}, "deny git status (global)"},
		{"words", Rule{Decision: Allow, Program: "git", Args: []string{"diff", "--stat"}, Scope: ScopeGlobal}, "allow git diff --stat (global)"},
		{"no words", Rule{Decision: Ask, Program: "npm", Scope: ScopeGlobal}, "ask npm (global)"},
		{"to a project", Rule{Decision: Allow, Program: "make", Scope: ScopeProject, ProjectID: p.ID}, "allow make (project)"},
		{"to a session", Rule{Decision: Allow, Program: "make", Scope: ScopeSession, SessionID: s.ID}, "allow make (session)"},
		{"back to global", Rule{Decision: Allow, Program: "make", Scope: ScopeGlobal, Note: "  built  "}, "allow make (global)"},
	}
	for _, tc := range cases {
		tc.edit.ID = r.ID
		got, err := f.rules.Update(t.Context(), tc.edit)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		saved, err := f.rules.Get(t.Context(), r.ID)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(saved, got) || got.String() != tc.want || got.CreatedAt != r.CreatedAt {
			t.Errorf("%s: returned %+v, saved %+v; want %s created at %d", tc.name, got, saved, tc.want, r.CreatedAt)
		}
		if got.ProjectID != tc.edit.ProjectID || got.SessionID != tc.edit.SessionID {
			t.Errorf("%s: owner %q/%q, want %q/%q", tc.name, got.ProjectID, got.SessionID, tc.edit.ProjectID, tc.edit.SessionID)
		}
	}
	if got, _ := f.rules.Get(t.Context(), r.ID); got.Note != "built" || len(got.Args) != 0 || got.Args == nil {
		t.Errorf("note %q and words %#v: want the note trimmed and no words as []", got.Note, got.Args)
	}
	if all, _ := f.rules.List(t.Context()); len(all) != 1 {
		t.Errorf("an edit saved a second rule: %q", words(all))
	}
}

func TestStoreUpdateRefuses(t *testing.T) {
	f := openStore(t)
	r := f.add(t, Rule{Decision: Allow, Program: "git", Args: []string{"status"}, Scope: ScopeGlobal})
	other := f.add(t, Rule{Decision: Deny, Program: "rm", Args: []string{"-rf"}, Scope: ScopeGlobal})
	cases := []struct {
		name  string
		rule  Rule
		code  errs.Code
		field string
	}{
		{"unknown id", Rule{ID: "nope", Decision: Allow, Program: "git", Scope: ScopeGlobal}, errs.RuleNotFound, ""},
		{"bad decision", Rule{ID: r.ID, Decision: "maybe", Program: "git", Scope: ScopeGlobal}, errs.RuleInvalid, "decision"},
		{"no program", Rule{ID: r.ID, Decision: Allow, Scope: ScopeGlobal}, errs.RuleInvalid, "program"},
		{"spaced word", Rule{ID: r.ID, Decision: Allow, Program: "git", Args: []string{"a b"}, Scope: ScopeGlobal}, errs.RuleInvalid, "args"},
		{"project without one", Rule{ID: r.ID, Decision: Allow, Program: "git", Scope: ScopeProject}, errs.RuleInvalid, "scope"},
		{"allow what always asks", Rule{ID: r.ID, Decision: Allow, Program: "sudo", Scope: ScopeGlobal}, errs.RuleInvalid, "program"},
		{"long note", Rule{ID: r.ID, Decision: Allow, Program: "git", Scope: ScopeGlobal, Note: strings.Repeat("n", maxNoteLen+1)}, errs.RuleInvalid, "note"},
		{"gone project", Rule{ID: r.ID, Decision: Allow, Program: "git", Scope: ScopeProject, ProjectID: "gone"}, errs.ProjectNotFound, ""},
		{"gone session", Rule{ID: r.ID, Decision: Allow, Program: "git", Scope: ScopeSession, SessionID: "gone"}, errs.SessionNotFound, ""},
		{"equal to another", Rule{ID: r.ID, Decision: Deny, Program: "rm", Args: []string{"-rf"}, Scope: ScopeGlobal}, errs.Conflict, ""},
	}
	for _, tc := range cases {
		_, err := f.rules.Update(t.Context(), tc.rule)
		if !errs.Is(err, tc.code) {
			t.Errorf("%s: %v, want %s", tc.name, err, tc.code)
			continue
		}
		p := errs.ToPayload(err)
		if tc.field != "" && p.Details["field"] != tc.field {
			t.Errorf("%s: field %v, want %s", tc.name, p.Details["field"], tc.field)
		}
		if tc.code == errs.Conflict && p.Details["id"] != other.ID {
			t.Errorf("%s: names %v, want the other rule %s", tc.name, p.Details["id"], other.ID)
		}
	}
	if got, _ := f.rules.Get(t.Context(), r.ID); !reflect.DeepEqual(got, r) {
		t.Errorf("a refused edit changed the rule: %+v, want %+v", got, r)
	}
	// Saving a rule unchanged is no conflict with itself.
	if _, err := f.rules.Update(t.Context(), r); err != nil {
		t.Errorf("unchanged: %v", err)
	}
}
