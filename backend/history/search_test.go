package history_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/pi-desktop/pi-desktop/backend/api"
	"github.com/pi-desktop/pi-desktop/backend/errs"
	"github.com/pi-desktop/pi-desktop/backend/history"
	"github.com/pi-desktop/pi-desktop/backend/store"
)

func seed(t *testing.T) *transcript {
	db := openDB(t)
	tr := &transcript{t: t, db: db, now: 1_700_000_000_000}
	tr.project("p1", "shop", "/work/shop")
	tr.session("s1", "p1", "Fix the config loader")
	tr.turn("t1", "s1", "why does parseConfig fail?")
	tr.prompt("m1", "s1", "t1", "why does parseConfig fail on an empty file?")
	tr.answer("m2", "s1", "t1", "Reading the loader. ", "The bug is in loadSettings: it returns nil on EOF.")
	tr.call("c1", "s1", "t1", "m2", 0, "Read", `{"path":"config/loader.go"}`, `{"ok":true}`, "1#AB func loadSettings(r io.Reader) (*Settings, error) {")
	tr.session("s2", "p1", "Release notes")
	tr.turn("t2", "s2", "write the changelog")
	tr.prompt("m3", "s2", "t2", "Write the CHANGELOG for v2.3")
	tr.answer("m4", "s2", "t2", "Done: CHANGELOG.md lists the loader fix.")
	return tr
}

func hitKeys(hits []api.SearchHit) []string {
	var out []string
	for _, h := range hits {
		out = append(out, h.SessionID+"/"+h.MessageID+"/"+h.Kind)
	}
	return out
}

func TestSearchFindsMessagesAndToolCalls(t *testing.T) {
	tr := seed(t)
	tests := []struct {
		name, query string
		want        []string
	}{
		{"part of a word, case-insensitive", "ARSECONF", []string{"s1/m1/message"}},
		{"a code fragment in a tool result", "loadSettings(r io", []string{"s1/m2/tool_call"}},
		{"tool arguments", "config/loader.go", []string{"s1/m2/tool_call"}},
		{"newest first across sessions", "loader", []string{"s2/m4/message", "s1/m2/tool_call", "s1/m2/message"}},
		{"every term must appear", "loader changelog", []string{"s2/m4/message"}},
		{"a short term filters the hits", "loader v2", nil},
		{"a short term that is there", "changelog v2", []string{"s2/m3/message"}},
		{"a streamed answer is indexed whole", "nil on EOF", []string{"s1/m2/message"}},
		{"quotes are text", `"empty file"`, nil},
		{"FTS syntax is text", "loader OR zzz", nil},
		{"no match", "kubernetes", nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			hits, err := history.Search(t.Context(), tr.db, tc.query, 0)
			if err != nil {
				t.Fatal(err)
			}
			if got := hitKeys(hits); strings.Join(got, ",") != strings.Join(tc.want, ",") {
				t.Errorf("Search(%q) = %v, want %v", tc.query, got, tc.want)
			}
		})
	}
}

func TestSearchHitCarriesSessionAndHighlightedSnippet(t *testing.T) {
	tr := seed(t)
	hits, err := history.Search(t.Context(), tr.db, "parseconfig", 10)
	if err != nil {
		t.Fatal(err)
	}
	if len(hits) != 1 {
		t.Fatalf("hits = %v", hitKeys(hits))
	}
	h := hits[0]
	if h.SessionTitle != "Fix the config loader" || h.ProjectID != "p1" || h.CreatedAt == 0 {
		t.Errorf("hit = %+v", h)
	}
	var matched, whole string
	for _, s := range h.Snippet {
		whole += s.Text
		if s.Match {
			matched += s.Text
		}
	}
	if matched != "parseConfig" || whole != "why does parseConfig fail on an empty file?" {
		t.Errorf("snippet matched %q in %q", matched, whole)
	}
}

func TestSearchSnippetIsAWindowAroundTheMatch(t *testing.T) {
	db := openDB(t)
	tr := &transcript{t: t, db: db}
	tr.project("p1", "x", "/x")
	tr.session("s1", "p1", "long")
	tr.turn("t1", "s1", "p")
	long := strings.Repeat("filler words here\n", 40) + "the needle is here " + strings.Repeat("and more text after ", 40)
	tr.prompt("m1", "s1", "t1", long)
	hits, err := history.Search(t.Context(), db, "needle", 1)
	if err != nil || len(hits) != 1 {
		t.Fatalf("hits %v, err %v", hits, err)
	}
	var whole string
	for _, s := range hits[0].Snippet {
		whole += s.Text
	}
	if !strings.HasPrefix(whole, "…") || !strings.HasSuffix(whole, "…") || len(whole) > 320 || strings.Contains(whole, "\n") {
		t.Errorf("snippet %q: want a one-line window with ellipses", whole)
	}
	if !strings.Contains(whole, "the needle is here") {
		t.Errorf("snippet %q lost the match", whole)
	}
}

func TestSearchRefusesQueriesTooShortToLookUp(t *testing.T) {
	tr := seed(t)
	for _, q := range []string{"", "  ", "go", "a b c"} {
		_, err := history.Search(t.Context(), tr.db, q, 0)
		if errs.CodeOf(err) != errs.InvalidArgument {
			t.Errorf("Search(%q) err = %v, want INVALID_ARGUMENT", q, err)
		}
	}
}

func TestSearchIndexFollowsTheTranscript(t *testing.T) {
	tr := seed(t)
	// A running answer is not indexed until it finishes.
	tr.exec(`INSERT INTO agent_messages (id, session_id, turn_id, role, kind, content, created_at, updated_at)
		VALUES ('m9', 's2', 't2', 'assistant', 'model', ?, 1, 1)`, blocks("half-written zebra"))
	if n := tr.count(`SELECT count(*) FROM search_docs WHERE ref_id = 'm9'`); n != 0 {
		t.Errorf("a streaming message was indexed")
	}
	tr.exec(`UPDATE agent_messages SET stop_reason = 'end_turn' WHERE id = 'm9'`)
	if hits, _ := history.Search(t.Context(), tr.db, "zebra", 0); len(hits) != 1 {
		t.Errorf("finished message not found: %v", hitKeys(hits))
	}
	// Deleting a session (its transcript goes by cascade) removes its rows
	// from the index.
	tr.exec(`DELETE FROM sessions WHERE id = 's1'`)
	if hits, _ := history.Search(t.Context(), tr.db, "parseconfig", 0); len(hits) != 0 {
		t.Errorf("deleted session still found: %v", hitKeys(hits))
	}
	if n := tr.count(`SELECT count(*) FROM search_docs WHERE session_id = 's1'`); n != 0 {
		t.Errorf("%d index rows left for a deleted session", n)
	}
	// The FTS index agrees with its content table.
	tr.exec(`INSERT INTO search_index (search_index, rank) VALUES ('integrity-check', 1)`)
}

func TestSearchIndexIsBackFilledForExistingSessions(t *testing.T) {
	file := filepath.Join(t.TempDir(), "pi.sqlite")
	old, err := store.Open(t.Context(), file, store.Options{Migrations: migrationsBefore(t, migrationNamed(t, "search"))})
	if err != nil {
		t.Fatal(err)
	}
	tr := &transcript{t: t, db: old.DB()}
	tr.project("p1", "x", "/x")
	tr.session("s1", "p1", "old work")
	tr.turn("t1", "s1", "p")
	tr.prompt("m1", "s1", "t1", "the quokka migration")
	tr.answer("m2", "s1", "t1", "streaming ", "still")
	tr.call("c1", "s1", "t1", "m2", 0, "Bash", `{"command":"grep -r wombat ."}`, `{"ok":true}`, "no wombat")
	if err := old.Close(); err != nil {
		t.Fatal(err)
	}
	st, err := store.Open(t.Context(), file, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	for q, want := range map[string]string{"quokka": "s1/m1/message", "wombat": "s1/m2/tool_call", "streaming still": "s1/m2/message"} {
		hits, err := history.Search(t.Context(), st.DB(), q, 0)
		if err != nil || strings.Join(hitKeys(hits), ",") != want {
			t.Errorf("after back-fill Search(%q) = %v (%v), want %s", q, hitKeys(hits), err, want)
		}
	}
}
