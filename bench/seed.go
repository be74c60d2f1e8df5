package main

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"

	"github.com/pi-desktop/pi-desktop/backend/api"
	"github.com/pi-desktop/pi-desktop/backend/hostcore"
	"github.com/pi-desktop/pi-desktop/backend/provider"
	"github.com/pi-desktop/pi-desktop/backend/tools"
	"github.com/pi-desktop/pi-desktop/platform/paths"

	_ "modernc.org/sqlite"
)

// seedLongSession creates a project on workspace and one session holding
// messages transcript messages in the data dir, shaped like real work: each
// turn is a prompt, an assistant message with Markdown, a code block and a
// Read call with its result, and a closing assistant answer. Running that
// many real turns would take minutes for the same rows, so the rows are
// inserted in one transaction; the agent's own loader then reads them back,
// which fails loudly if the schema drifts from what is written here.
func seedLongSession(dataDir, workspace string, messages int) (sessionID, lastText string, err error) {
	ctx := context.Background()
	core, err := hostcore.New(ctx, hostcore.Config{DataDir: dataDir, Version: "bench"})
	if err != nil {
		return "", "", err
	}
	p, err := core.AddProject(ctx, workspace)
	if err == nil {
		var s api.Session
		s, err = core.CreateSession(ctx, api.CreateSessionInput{ProjectID: p.ID, Title: longSessionTitle})
		if err == nil {
			err = core.Close()
			if err == nil {
				lastText, err = insertTranscript(ctx, paths.Layout{Root: dataDir}.Database(), s.ID, messages)
			}
			if err != nil {
				return "", "", err
			}
			return s.ID, lastText, verifySeed(ctx, dataDir, s.ID, messages)
		}
	}
	core.Close()
	return "", "", err
}

// longSessionTitle names the seeded session in the sidebar.
const longSessionTitle = "Long session"

func verifySeed(ctx context.Context, dataDir, sessionID string, want int) error {
	core, err := hostcore.New(ctx, hostcore.Config{DataDir: dataDir, Version: "bench"})
	if err != nil {
		return err
	}
	defer core.Close()
	tr, err := core.Transcript(ctx, sessionID)
	if err != nil {
		return fmt.Errorf("the seeded transcript does not load: %w", err)
	}
	calls := 0
	for _, m := range tr.Messages {
		calls += len(m.ToolCalls)
	}
	if len(tr.Messages) != want || calls == 0 {
		return fmt.Errorf("the seeded transcript loads %d messages and %d tool calls, want %d messages: update bench/seed.go to the schema", len(tr.Messages), calls, want)
	}
	return nil
}

// insertTranscript writes the rows and returns the last message's first
// line as the window shows it (Markdown code marks removed).
func insertTranscript(ctx context.Context, dbFile, sessionID string, messages int) (lastText string, err error) {
	u := url.URL{Scheme: "file", Path: filepath.ToSlash(dbFile), RawQuery: "_pragma=busy_timeout(5000)&_pragma=foreign_keys(1)"}
	db, err := sql.Open("sqlite", u.String())
	if err != nil {
		return "", err
	}
	defer db.Close()
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return "", err
	}
	defer tx.Rollback()
	ms := int64(1_700_000_000_000)
	block := func(b ...provider.Block) string { j, _ := json.Marshal(b); return string(j) }
	msg := func(id, turn, role, kind, content string) error {
		ms++
		var b []provider.Block
		_ = json.Unmarshal([]byte(content), &b)
		lastText = strings.ReplaceAll(strings.SplitN(b[0].Text, "\n", 2)[0], "`", "")
		_, err := tx.ExecContext(ctx, `INSERT INTO agent_messages (id, session_id, turn_id, role, kind, content, stop_reason, created_at, updated_at)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`, id, sessionID, turn, role, kind, content, map[string]string{"user": "", "assistant": "end_turn"}[role], ms, ms)
		return err
	}
	for i, n := 0, 0; n < messages; i++ {
		turn := fmt.Sprintf("bench-turn-%05d", i)
		prompt := fmt.Sprintf("Step %d: look at internal/pkg%d/file.go and explain what `Handle%d` does.", i, i%37, i)
		if _, err := tx.ExecContext(ctx, `INSERT INTO agent_turns (id, session_id, prompt, state, created_at, updated_at, ended_at) VALUES (?, ?, ?, 'done', ?, ?, ?)`,
			turn, sessionID, prompt, ms, ms, ms+3); err != nil {
			return "", err
		}
		if err := msg(turn+"-u", turn, "user", "prompt", block(provider.Block{Type: provider.BlockText, Text: prompt})); err != nil {
			return "", err
		}
		n++
		if n == messages {
			break
		}
		path := fmt.Sprintf("internal/pkg%d/file.go", i%37)
		args, _ := json.Marshal(map[string]any{"path": path})
		text := fmt.Sprintf("I'll read `%s` first.\n\n- the handler is registered in `init`\n- it **validates** its input\n\n```go\nfunc Handle%d(w http.ResponseWriter, r *http.Request) {\n\tif r.Method != http.MethodGet {\n\t\thttp.Error(w, \"method\", 405)\n\t}\n}\n```", path, i)
		callMsg := turn + "-a1"
		if err := msg(callMsg, turn, "assistant", "model", block(provider.Block{Type: provider.BlockText, Text: text},
			provider.Block{Type: provider.BlockToolUse, ToolUseID: "toolu_" + turn, ToolName: "Read", Input: args})); err != nil {
			return "", err
		}
		content := strings.Repeat(fmt.Sprintf("%d:ab|\tline of code %d\n", i%500+1, i), 40)
		res, _ := json.Marshal(tools.Result{OK: true, Path: path, Content: content})
		if _, err := tx.ExecContext(ctx, `INSERT INTO agent_tool_calls (id, session_id, turn_id, message_id, tool_use_id, position, tool, args, state, result, model_text, created_at, started_at, finished_at)
			VALUES (?, ?, ?, ?, ?, 0, 'Read', ?, 'done', ?, ?, ?, ?, ?)`, "call-"+turn, sessionID, turn, callMsg, "toolu_"+turn, string(args), string(res), content, ms, ms, ms+2); err != nil {
			return "", err
		}
		n++
		if n == messages {
			break
		}
		answer := fmt.Sprintf("`Handle%d` rejects anything but GET with a 405 and otherwise falls through. Nothing else in `%s` calls it.", i, path)
		if err := msg(turn+"-a2", turn, "assistant", "model", block(provider.Block{Type: provider.BlockText, Text: answer})); err != nil {
			return "", err
		}
		n++
	}
	return lastText, tx.Commit()
}

// seededDataDir prepares a data dir with one long session for the app and
// render sections, in a temp dir the caller removes.
func seededDataDir(messages int) (dir, sessionID, lastText string, err error) {
	dir, err = os.MkdirTemp("", "pi-bench-long-")
	if err != nil {
		return "", "", "", err
	}
	ws := filepath.Join(dir, "workspace")
	if err := os.MkdirAll(ws, 0o755); err != nil {
		return "", "", "", err
	}
	sessionID, lastText, err = seedLongSession(filepath.Join(dir, "data"), ws, messages)
	if err != nil {
		os.RemoveAll(dir)
		return "", "", "", err
	}
	return dir, sessionID, lastText, nil
}
