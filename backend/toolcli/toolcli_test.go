package toolcli_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pi-desktop/pi-desktop/backend/hostcore"
	"github.com/pi-desktop/pi-desktop/backend/toolcli"
)

type result struct {
	OK       bool           `json:"ok"`
	Code     string         `json:"code"`
	Message  string         `json:"message"`
	Decision string         `json:"decision"`
	Root     string         `json:"root"`
	Content  string         `json:"content"`
	Tag      string         `json:"tag"`
	TraceID  string         `json:"traceId"`
	Details  map[string]any `json:"details"`
}

type fixture struct {
	data, workspace string
}

func newFixture(t *testing.T) fixture {
	t.Helper()
	f := fixture{data: filepath.Join(t.TempDir(), "data"), workspace: t.TempDir()}
	if err := os.WriteFile(filepath.Join(f.workspace, "notes.txt"), []byte("alpha\nbeta\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return f
}

func (f fixture) run(t *testing.T, stdin io.Reader, args ...string) (int, []result, string) {
	t.Helper()
	var out, errOut bytes.Buffer
	code := toolcli.Run(t.Context(), args, toolcli.Env{
		Stdin: stdin, Stdout: &out, Stderr: &errOut,
		ResolveDataDir: func(string) (string, error) { return f.data, nil },
	})
	var results []result
	sc := bufio.NewScanner(&out)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var r result
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			t.Fatalf("output line is not JSON: %q", sc.Text())
		}
		results = append(results, r)
	}
	return code, results, errOut.String()
}

func TestScriptRunsInOrderAndFailsClosed(t *testing.T) {
	f := newFixture(t)
	script := strings.Join([]string{
		`{"tool":"Read","args":{"path":"notes.txt"}}`,
		`{"tool":"Write","args":{"path":"new.txt","content":"x\n"}}`,
		`{"tool":"Write","args":{"path":"new.txt","content":"x\n"},"approve":"once"}`,
		`not json`,
		`{"tool":"Glob","args":{"pattern":"*.txt"}}`,
	}, "\n")
	code, res, stderr := f.run(t, strings.NewReader(script), "--workspace", f.workspace, "--script", "-")
	if code != 1 || len(res) != 5 {
		t.Fatalf("exit %d, %d results, stderr %s", code, len(res), stderr)
	}
	if !res[0].OK || !strings.HasPrefix(res[0].Content, "[notes.txt#") || res[0].Tag == "" || res[0].TraceID == "" {
		t.Errorf("Read = %+v", res[0])
	}
	if res[1].OK || res[1].Code != "TOOL_DENIED" || res[1].Decision != "denied" {
		t.Errorf("Write without approve = %+v; want denied (fail closed)", res[1])
	}
	if !res[2].OK || res[2].Decision != "allow-once" {
		t.Errorf("approved Write = %+v", res[2])
	}
	if res[3].OK || res[3].Code != "INVALID_ARGUMENT" {
		t.Errorf("bad line = %+v", res[3])
	}
	if !res[4].OK || !strings.Contains(res[4].Content, "new.txt") || !strings.Contains(res[4].Content, "notes.txt") {
		t.Errorf("Glob = %+v", res[4])
	}
}

// A driver can pick its next line from the previous result: here it reuses
// the tag a Read returned to overwrite the file.
func TestInteractiveDriver(t *testing.T) {
	f := newFixture(t)
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	done := make(chan int, 1)
	go func() {
		code := toolcli.Run(t.Context(), []string{"--workspace", f.workspace, "--script", "-", "--mode", "accept-edits"}, toolcli.Env{
			Stdin: inR, Stdout: outW, Stderr: io.Discard,
			ResolveDataDir: func(string) (string, error) { return f.data, nil },
		})
		outW.Close()
		done <- code
	}()
	lines := bufio.NewScanner(outR)
	next := func() result {
		if !lines.Scan() {
			t.Fatal("no result line")
		}
		var r result
		if err := json.Unmarshal(lines.Bytes(), &r); err != nil {
			t.Fatal(err)
		}
		return r
	}
	fmt.Fprintln(inW, `{"tool":"Read","args":{"path":"notes.txt"}}`)
	read := next()
	fmt.Fprintf(inW, `{"tool":"Write","args":{"path":"notes.txt","content":"gamma\n","tag":%q}}`+"\n", read.Tag)
	if w := next(); !w.OK || w.Tag == read.Tag {
		t.Errorf("Write with the read tag = %+v", w)
	}
	inW.Close()
	if code := <-done; code != 0 {
		t.Errorf("exit %d", code)
	}
	if b, _ := os.ReadFile(filepath.Join(f.workspace, "notes.txt")); string(b) != "gamma\n" {
		t.Errorf("file = %q", b)
	}
}

func TestSingleCallAndSessionReuse(t *testing.T) {
	f := newFixture(t)
	for range 2 {
		code, res, stderr := f.run(t, nil, "Read", "--workspace", f.workspace, "--args", `{"path":"notes.txt","limit":1}`)
		if code != 0 || len(res) != 1 || !res[0].OK {
			t.Fatalf("exit %d %+v %s", code, res, stderr)
		}
	}
	code, res, _ := f.run(t, nil, "Write", "--workspace", f.workspace, "--operating-mode", "plan", "--args", `{"path":"p.txt","content":"x"}`, "--approve", "once")
	if code != 1 || res[0].Code != "WRITE_DISABLED_IN_PLAN" {
		t.Errorf("plan Write = %d %+v", code, res)
	}
	core, err := hostcore.New(t.Context(), hostcore.Config{DataDir: f.data})
	if err != nil {
		t.Fatal(err)
	}
	defer core.Close()
	projects, _ := core.ListProjects(t.Context())
	if len(projects) != 1 {
		t.Fatalf("projects = %+v", projects)
	}
	sessions, _ := core.ListSessions(t.Context(), projects[0].ID, false)
	if len(sessions) != 1 || sessions[0].Title != toolcli.SessionTitle {
		t.Errorf("sessions = %+v; want one reused CLI session", sessions)
	}
	rows, _ := core.AuditRows(t.Context(), sessions[0].ID)
	if len(rows) != 3 {
		t.Errorf("audit rows = %d, want 3", len(rows))
	}
}

func TestUsageErrors(t *testing.T) {
	f := newFixture(t)
	tests := [][]string{
		{"--script", "-"},
		{"--workspace", f.workspace},
		{"--workspace", f.workspace, "--script", "-", "--mode", "yolo"},
		{"--workspace", f.workspace, "--bogus"},
		{"Read", "--workspace", f.workspace, "--args", "{nope"},
		{"Read", "--workspace", f.workspace, "--script", "-"},
	}
	for _, args := range tests {
		code, _, stderr := f.run(t, strings.NewReader(""), args...)
		if code != 2 || !strings.Contains(stderr, "Usage:") {
			t.Errorf("%v: exit %d, stderr %q", args, code, stderr)
		}
	}
}

// One run's --mode auto must not loosen the next run.
func TestModeIsPerRun(t *testing.T) {
	f := newFixture(t)
	code, res, _ := f.run(t, nil, "Write", "--workspace", f.workspace, "--mode", "auto", "--args", `{"path":"a.txt","content":"x"}`)
	if code != 0 || !res[0].OK || res[0].Decision != "allow" {
		t.Fatalf("auto run = %d %+v", code, res)
	}
	code, res, _ = f.run(t, nil, "Write", "--workspace", f.workspace, "--args", `{"path":"b.txt","content":"x"}`)
	if code != 1 || res[0].OK || res[0].Code != "TOOL_DENIED" {
		t.Errorf("next run without --mode = %+v; want a card, denied for lack of approve", res)
	}
	if _, err := os.Stat(filepath.Join(f.workspace, "b.txt")); !os.IsNotExist(err) {
		t.Error("the second run wrote without approval")
	}
}

func TestRollbackOp(t *testing.T) {
	f := newFixture(t)
	type change struct {
		SnapshotID string `json:"snapshotId"`
		Status     string `json:"status"`
		State      string `json:"state"`
	}
	var out bytes.Buffer
	script := `{"tool":"Write","args":{"path":"made.txt","content":"new\n"},"approve":"once"}` + "\n"
	toolcli.Run(t.Context(), []string{"--workspace", f.workspace, "--script", "-"}, toolcli.Env{
		Stdin: strings.NewReader(script), Stdout: &out, Stderr: io.Discard,
		ResolveDataDir: func(string) (string, error) { return f.data, nil },
	})
	var written struct {
		OK     bool     `json:"ok"`
		Review []change `json:"review"`
	}
	if err := json.Unmarshal(out.Bytes(), &written); err != nil || !written.OK || len(written.Review) != 1 || written.Review[0].Status != "added" {
		t.Fatalf("Write result %s", out.String())
	}
	id := written.Review[0].SnapshotID
	lines := fmt.Sprintf(`{"op":"rollback","changeId":%q}`+"\n"+`{"op":"rollback","changeId":%q}`+"\n"+`{"op":"reviews"}`, id, id)
	code, res, _ := f.run(t, strings.NewReader(lines), "--workspace", f.workspace, "--script", "-")
	if code != 1 || len(res) != 3 { // the second rollback fails
		t.Fatalf("exit %d, %+v", code, res)
	}
	if !res[0].OK {
		t.Errorf("rollback = %+v", res[0])
	}
	if _, err := os.Stat(filepath.Join(f.workspace, "made.txt")); !os.IsNotExist(err) {
		t.Error("rolling back a created file did not remove it")
	}
	if res[1].OK || res[1].Code != "CONFLICT" {
		t.Errorf("second rollback = %+v; want CONFLICT", res[1])
	}
	if !res[2].OK {
		t.Errorf("reviews = %+v", res[2])
	}
}
