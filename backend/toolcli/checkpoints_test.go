package toolcli_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pi-desktop/pi-desktop/backend/toolcli"
)

// runRaw runs a script and returns its output lines as raw JSON.
func (f fixture) runRaw(t *testing.T, script string) (int, []json.RawMessage) {
	t.Helper()
	var out bytes.Buffer
	code := toolcli.Run(t.Context(), []string{"--workspace", f.workspace, "--script", "-"}, toolcli.Env{
		Stdin: strings.NewReader(script), Stdout: &out, Stderr: io.Discard,
		ResolveDataDir: func(string) (string, error) { return f.data, nil },
	})
	var lines []json.RawMessage
	for l := range strings.SplitSeq(strings.TrimSpace(out.String()), "\n") {
		lines = append(lines, json.RawMessage(l))
	}
	return code, lines
}

type cpLine struct {
	OK          bool   `json:"ok"`
	Code        string `json:"code"`
	Message     string `json:"message"`
	Checkpoints []struct {
		ID           string `json:"id"`
		Kind         string `json:"kind"`
		Captured     bool   `json:"captured"`
		FilesChanged int    `json:"filesChanged"`
		TurnID       string `json:"turnId"`
	} `json:"checkpoints"`
	Plan struct {
		Files []struct {
			Path     string `json:"path"`
			Action   string `json:"action"`
			Conflict bool   `json:"conflict"`
			Diff     string `json:"diff"`
		} `json:"files"`
		Conflicts int `json:"conflicts"`
	} `json:"plan"`
	Restore struct {
		Before   struct{ ID string } `json:"before"`
		Restored []struct{ Path string }
		Skipped  []struct {
			Path     string `json:"path"`
			Conflict bool   `json:"conflict"`
		} `json:"skipped"`
	} `json:"restore"`
}

func decode(t *testing.T, raw json.RawMessage) cpLine {
	t.Helper()
	var l cpLine
	if err := json.Unmarshal(raw, &l); err != nil {
		t.Fatalf("%v: %s", err, raw)
	}
	return l
}

// TestCheckpointOps: a script's Bash call is one turn's checkpoints
// (before-first-mutation, after-bash, end-of-turn); a later run lists them,
// previews a restore with its conflicts, restores keeping the conflict, and
// overwrites it on request.
func TestCheckpointOps(t *testing.T) {
	f := newFixture(t)
	code, lines := f.runRaw(t, `{"tool":"Bash","args":{"command":"echo gamma >> notes.txt; echo made > made.txt"},"approve":"once"}`+"\n")
	if code != 0 || !decode(t, lines[0]).OK {
		t.Fatalf("exit %d: %s", code, lines)
	}
	_, lines = f.runRaw(t, `{"op":"checkpoints"}`+"\n")
	list := decode(t, lines[0]).Checkpoints
	var kinds []string
	for _, cp := range list {
		kinds = append(kinds, cp.Kind)
		if !cp.Captured {
			t.Errorf("not captured: %+v", cp)
		}
	}
	if strings.Join(kinds, ",") != "end-of-turn,after-bash,before-first-mutation" || list[0].TurnID != list[2].TurnID {
		t.Fatalf("checkpoints = %+v", list)
	}
	first := list[2].ID

	// The user edits made.txt after the turn.
	if err := os.WriteFile(filepath.Join(f.workspace, "made.txt"), []byte("mine\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, lines = f.runRaw(t, fmt.Sprintf(`{"op":"restore","checkpointId":%q,"preview":true}`+"\n"+`{"op":"restore","checkpointId":%q}`+"\n", first, first))
	if code != 0 {
		t.Fatalf("exit %d: %s", code, lines)
	}
	plan := decode(t, lines[0]).Plan
	if len(plan.Files) != 2 || plan.Conflicts != 1 {
		t.Fatalf("plan = %+v", plan)
	}
	for _, pf := range plan.Files {
		if pf.Path == "notes.txt" && !strings.Contains(pf.Diff, "-gamma") {
			t.Errorf("notes.txt diff = %q", pf.Diff)
		}
	}
	res := decode(t, lines[1])
	if len(res.Restore.Skipped) != 1 || res.Restore.Skipped[0].Path != "made.txt" || !res.Restore.Skipped[0].Conflict {
		t.Errorf("restore = %s", lines[1])
	}
	if b, _ := os.ReadFile(filepath.Join(f.workspace, "notes.txt")); string(b) != "alpha\nbeta\n" {
		t.Errorf("notes.txt = %q", b)
	}
	if b, _ := os.ReadFile(filepath.Join(f.workspace, "made.txt")); string(b) != "mine\n" {
		t.Errorf("made.txt = %q: the user's edit was overwritten", b)
	}
	if !strings.Contains(res.Message, res.Restore.Before.ID) {
		t.Errorf("message %q does not say how to undo", res.Message)
	}

	// Overwrite is chosen per file: a list naming another path keeps it.
	_, lines = f.runRaw(t, fmt.Sprintf(`{"op":"restore","checkpointId":%q,"overwrite":["notes.txt"]}`+"\n", first))
	if l := decode(t, lines[0]); !l.OK || len(l.Restore.Skipped) != 1 || l.Restore.Skipped[0].Path != "made.txt" {
		t.Fatalf("overwrite of another path: %s", lines[0])
	}
	_, lines = f.runRaw(t, fmt.Sprintf(`{"op":"restore","checkpointId":%q,"overwrite":["made.txt"]}`+"\n", first))
	if l := decode(t, lines[0]); !l.OK {
		t.Fatalf("overwrite: %s", lines[0])
	}
	if _, err := os.Lstat(filepath.Join(f.workspace, "made.txt")); !os.IsNotExist(err) {
		t.Errorf("made.txt survived an overwriting restore: %v", err)
	}

	code, lines = f.runRaw(t, `{"op":"restore"}`+"\n"+`{"op":"restore","checkpointId":"cp_nope","preview":true}`+"\n")
	if code != 1 || decode(t, lines[0]).Code != "INVALID_ARGUMENT" || decode(t, lines[1]).Code != "CHECKPOINT_NOT_FOUND" {
		t.Errorf("exit %d: %s", code, lines)
	}
}
