package agent

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/pi-desktop/pi-desktop/backend/errs"
	"github.com/pi-desktop/pi-desktop/backend/provider"
	"github.com/pi-desktop/pi-desktop/backend/tools"
)

// seedTurns writes n turns t00..t(n-1) into session, each a prompt and an
// assistant message with one finished Read call: three rows a turn, two of
// them messages.
func seedTurns(t *testing.T, f *fixture, session string, n int) {
	t.Helper()
	ctx := t.Context()
	st := f.a.st
	for i := range n {
		turn := fmt.Sprintf("%s-t%02d", session, i)
		if _, err := st.beginTurn(ctx, Turn{ID: turn, SessionID: session, Prompt: "prompt " + turn, CreatedAt: int64(10 + i)}, turn+"-m0"); err != nil {
			t.Fatal(err)
		}
		msg := turn + "-m1"
		content := []provider.Block{{Type: provider.BlockToolUse, ToolUseID: "tu_" + turn, ToolName: "Read", Input: json.RawMessage(`{"path":"a"}`)}}
		if _, err := st.insertMessage(ctx, Message{ID: msg, SessionID: session, TurnID: turn, Role: provider.RoleAssistant, Kind: KindModel,
			Content: content, StopReason: "tool_use", CreatedAt: int64(10 + i)}); err != nil {
			t.Fatal(err)
		}
		c := &prepared{id: "c-" + turn, toolUseID: "tu_" + turn, tool: "Read", sessionID: session, turnID: turn, args: json.RawMessage(`{"path":"a"}`)}
		if err := st.prepareCalls(ctx, msg, []*prepared{c}); err != nil {
			t.Fatal(err)
		}
		c.state, c.result, c.modelText = CallDone, tools.Result{OK: true, Content: "body of " + turn}, "body of "+turn
		if err := st.finishCall(ctx, c); err != nil {
			t.Fatal(err)
		}
		if err := st.finishTurn(ctx, turn, TurnDone, "", ""); err != nil {
			t.Fatal(err)
		}
	}
}

func pageTurnIDs(p Page) []string {
	ids := []string{}
	for _, t := range p.Turns {
		ids = append(ids, t.ID)
	}
	return ids
}

func TestLoadPage(t *testing.T) {
	f := newFixture(t)
	other := "other-session"
	if _, err := f.db.ExecContext(t.Context(), `INSERT INTO sessions (id, title, created_at, updated_at) VALUES (?, 'other', 1, 1)`, other); err != nil {
		t.Fatal(err)
	}
	seedTurns(t, f, sid, 5)
	seedTurns(t, f, other, 2)
	id := func(i int) string { return fmt.Sprintf("%s-t%02d", sid, i) }

	tests := []struct {
		name     string
		q        PageQuery
		want     []string
		wantMore bool
	}{
		{"newest whole turns until the limit", PageQuery{Limit: 3}, []string{id(3), id(4)}, true},
		{"a limit inside one turn still gives the whole turn", PageQuery{Limit: 1}, []string{id(4)}, true},
		{"older than a turn", PageQuery{Before: id(3), Limit: 4}, []string{id(1), id(2)}, true},
		{"the oldest page says there is no more", PageQuery{Before: id(1), Limit: 4}, []string{id(0)}, false},
		{"before the first turn is empty", PageQuery{Before: id(0), Limit: 4}, []string{}, false},
		{"a limit above the session gives all of it", PageQuery{Limit: 100}, []string{id(0), id(1), id(2), id(3), id(4)}, false},
		{"since a turn gives everything from it, ignoring the limit", PageQuery{Since: id(1), Limit: 1}, []string{id(1), id(2), id(3), id(4)}, true},
		{"a zero limit is one turn", PageQuery{}, []string{id(4)}, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p, err := f.a.LoadPage(t.Context(), sid, tc.q)
			if err != nil {
				t.Fatal(err)
			}
			if got := pageTurnIDs(p); fmt.Sprint(got) != fmt.Sprint(tc.want) || p.More != tc.wantMore {
				t.Fatalf("turns = %v more = %v, want %v more = %v", got, p.More, tc.want, tc.wantMore)
			}
			// Every message of the page's turns, in seq order, with its call; nothing else.
			if len(p.Messages) != 2*len(tc.want) {
				t.Fatalf("messages = %d, want %d", len(p.Messages), 2*len(tc.want))
			}
			for i, m := range p.Messages {
				if m.SessionID != sid || m.TurnID != tc.want[i/2] || (i > 0 && m.Seq <= p.Messages[i-1].Seq) {
					t.Errorf("message %d = %s of %s (seq %d)", i, m.ID, m.TurnID, m.Seq)
				}
				if i%2 == 1 && (len(m.ToolCalls) != 1 || m.ToolCalls[0].ModelText != "body of "+m.TurnID || len(m.ToolCalls[0].Result) == 0) {
					t.Errorf("calls of %s = %+v", m.ID, m.ToolCalls)
				}
			}
		})
	}

	// The whole transcript read page by page is the transcript Load returns.
	full := f.load()
	var turns []Turn
	var msgs []Message
	q := PageQuery{Limit: 4}
	for {
		p, err := f.a.LoadPage(t.Context(), sid, q)
		if err != nil {
			t.Fatal(err)
		}
		turns, msgs = append(p.Turns, turns...), append(p.Messages, msgs...)
		if !p.More {
			break
		}
		q.Before = p.Turns[0].ID
	}
	if !jsonEqual(turns, full.Turns) || !jsonEqual(msgs, full.Messages) {
		t.Errorf("pages differ from Load:\n got %s\nwant %s", must(json.Marshal(msgs)), must(json.Marshal(full.Messages)))
	}
}

func TestLoadPageStaysInItsSession(t *testing.T) {
	f := newFixture(t)
	other := "other-session"
	if _, err := f.db.ExecContext(t.Context(), `INSERT INTO sessions (id, title, created_at, updated_at) VALUES (?, 'other', 1, 1)`, other); err != nil {
		t.Fatal(err)
	}
	seedTurns(t, f, sid, 1)
	seedTurns(t, f, other, 2)
	foreign := other + "-t01"
	for _, q := range []PageQuery{{Before: foreign, Limit: 10}, {Since: foreign}, {Before: "no-such-turn", Limit: 10}} {
		p, err := f.a.LoadPage(t.Context(), sid, q)
		if errs.CodeOf(err) != errs.NotFound || len(p.Messages) != 0 {
			t.Errorf("%+v: %d messages, err %v; want NOT_FOUND and nothing", q, len(p.Messages), err)
		}
	}
	p, err := f.a.LoadPage(t.Context(), "no-such-session", PageQuery{Limit: 10})
	if err != nil || len(p.Turns) != 0 || len(p.Messages) != 0 || p.More {
		t.Errorf("unknown session = %+v, %v; want an empty page", p, err)
	}
}
