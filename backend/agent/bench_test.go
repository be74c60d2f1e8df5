package agent

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/pi-desktop/pi-desktop/backend/provider"
	dbstore "github.com/pi-desktop/pi-desktop/backend/store"
	"github.com/pi-desktop/pi-desktop/backend/tools"
)

// longSession stores a session of 5,000 messages the way turns store them:
// 1,250 turns of a prompt, two tool-calling responses (one Read each, with
// a 2 KB result) and a closing answer of about 1 KB.
func longSession(tb testing.TB) *store {
	tb.Helper()
	ctx := context.Background()
	st, err := dbstore.Open(ctx, filepath.Join(tb.TempDir(), "pi.sqlite"), dbstore.Options{})
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { _ = st.Close() })
	db := st.DB()
	// Setup only: one connection without fsync, so 11,000 writes take
	// seconds; the load below runs with the store's own settings.
	db.SetMaxOpenConns(1)
	if _, err := db.ExecContext(ctx, "PRAGMA synchronous=OFF"); err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { db.SetMaxOpenConns(0) })
	if _, err := db.ExecContext(ctx, `INSERT INTO sessions (id, title, created_at, updated_at) VALUES (?, 'long', 1, 1)`, sid); err != nil {
		tb.Fatal(err)
	}
	s := &store{db: db, now: func() time.Time { return time.UnixMilli(1_700_000_000_000) }}
	answer := strings.Repeat("The handler checks the token, then the session. ", 20)
	content := strings.Repeat("   42|\tif err := check(token); err != nil { return err }\n", 36)
	for t := range 1250 {
		turn := fmt.Sprintf("t%04d", t)
		if _, err := s.beginTurn(ctx, Turn{ID: turn, SessionID: sid, Prompt: "Why does login fail for user " + turn + "? Look at the handler and the session store.", CreatedAt: int64(t)}, turn+"-p"); err != nil {
			tb.Fatal(err)
		}
		for k := range 2 {
			id := fmt.Sprintf("%s-m%d", turn, k)
			args := json.RawMessage(fmt.Sprintf(`{"path":"src/file%d.go"}`, k))
			m := Message{ID: id, SessionID: sid, TurnID: turn, Role: provider.RoleAssistant, Kind: KindModel, StopReason: string(provider.StopToolUse),
				Content: []provider.Block{{Type: provider.BlockText, Text: "Let me read it."}, {Type: provider.BlockToolUse, ToolUseID: id + "-u", ToolName: "Read", Input: args}}}
			if _, err := s.insertMessage(ctx, m); err != nil {
				tb.Fatal(err)
			}
			c := &prepared{id: id + "-c", toolUseID: id + "-u", tool: "Read", sessionID: sid, turnID: turn, messageID: id, args: args}
			if err := s.prepareCalls(ctx, id, []*prepared{c}); err != nil {
				tb.Fatal(err)
			}
			c.finish(CallDone, tools.Result{OK: true, Root: "workspace", Path: fmt.Sprintf("src/file%d.go", k), Content: content})
			if err := s.finishCall(ctx, c); err != nil {
				tb.Fatal(err)
			}
		}
		m := Message{ID: turn + "-a", SessionID: sid, TurnID: turn, Role: provider.RoleAssistant, Kind: KindModel, StopReason: string(provider.StopEndTurn),
			Content: []provider.Block{{Type: provider.BlockText, Text: answer}}}
		if _, err := s.insertMessage(ctx, m); err != nil {
			tb.Fatal(err)
		}
		if err := s.finishTurn(ctx, turn, TurnDone, "", ""); err != nil {
			tb.Fatal(err)
		}
	}
	return s
}

// BenchmarkLoadTranscript5000 is what opening a long session costs on the
// Go side: the Transcript bound method loads everything at once ("load"),
// and Wails then encodes it as JSON for the window ("json").
func BenchmarkLoadTranscript5000(b *testing.B) {
	s := longSession(b)
	if _, err := s.db.ExecContext(context.Background(), "PRAGMA synchronous=NORMAL"); err != nil {
		b.Fatal(err)
	}
	s.db.SetMaxOpenConns(0)
	ctx := context.Background()
	var tr Transcript
	b.Run("load", func(b *testing.B) {
		for b.Loop() {
			var err error
			if tr, err = s.load(ctx, sid); err != nil {
				b.Fatal(err)
			}
		}
		if len(tr.Messages) != 5000 || len(tr.Turns) != 1250 {
			b.Fatalf("%d messages, %d turns", len(tr.Messages), len(tr.Turns))
		}
	})
	b.Run("json", func(b *testing.B) {
		var size int
		for b.Loop() {
			out, err := json.Marshal(tr)
			if err != nil {
				b.Fatal(err)
			}
			size = len(out)
		}
		b.ReportMetric(float64(size)/(1<<20), "MiB")
	})
}
