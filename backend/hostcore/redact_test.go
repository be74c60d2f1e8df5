package hostcore_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/pi-desktop/pi-desktop/backend/api"
	"github.com/pi-desktop/pi-desktop/backend/hostcore"
	"github.com/pi-desktop/pi-desktop/backend/tools"
)

// outputSink records live Bash output events.
type outputSink struct {
	mu   sync.Mutex
	text map[string]*strings.Builder // by stream
}

func (s *outputSink) Emit(event string, payload any) {
	if event != tools.EventToolOutput {
		return
	}
	ev := payload.(map[string]any)
	s.mu.Lock()
	defer s.mu.Unlock()
	b := s.text[ev["stream"].(string)]
	if b == nil {
		b = &strings.Builder{}
		s.text[ev["stream"].(string)] = b
	}
	b.WriteString(ev["text"].(string))
}

func (s *outputSink) stream(name string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	if b := s.text[name]; b != nil {
		return b.String()
	}
	return ""
}

// TestBashOutputShownRedacted: live output events and a background
// task's output preview hide secrets, even one split across writes and a
// key block spread over several; the result the model reads in its turn
// stays exact (the agent redacts what it stores).
func TestBashOutputShownRedacted(t *testing.T) {
	t.Setenv("HOME", t.TempDir())
	root := t.TempDir()
	project := filepath.Join(root, "proj")
	if err := os.MkdirAll(project, 0o755); err != nil {
		t.Fatal(err)
	}
	sink := &outputSink{text: map[string]*strings.Builder{}}
	core, err := hostcore.New(t.Context(), hostcore.Config{DataDir: filepath.Join(root, "data"), Sink: sink, RgPath: "-"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { core.Close() })
	p, err := core.AddProject(t.Context(), project)
	if err != nil {
		t.Fatal(err)
	}
	s, err := core.CreateSession(t.Context(), api.CreateSessionInput{ProjectID: p.ID})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := core.ConfigureSession(t.Context(), s.ID, api.SessionConfig{PermissionMode: "auto"}); err != nil {
		t.Fatal(err)
	}
	const secret = "hunter2xyz"
	script := `printf 'DB_PASS'; sleep 0.2; printf 'WORD=` + secret + `\n'; ` +
		`printf -- '-----BEGIN RSA PRIVATE KEY-----\nMIIEkeybody1\n'; sleep 0.2; printf 'MIIEkeybody2\n-----END RSA PRIVATE KEY-----\n'; ` +
		`printf 'token=` + secret + `' >&2`
	raw, _ := json.Marshal(map[string]any{"command": script})
	res := core.Execute(t.Context(), hostcore.ToolRequest{SessionID: s.ID, TurnID: "turn", ToolCallID: "c1", Tool: "Bash", Args: raw})
	if !res.OK || !strings.Contains(res.Content, "DB_PASSWORD="+secret) || !strings.Contains(res.Content, "MIIEkeybody2") {
		t.Fatalf("the live result must be exact: %+v", res)
	}
	out, errOut := sink.stream("stdout"), sink.stream("stderr")
	for _, leak := range []string{secret, "MIIEkeybody"} {
		if strings.Contains(out+errOut, leak) {
			t.Errorf("live output shows %q:\nstdout %q\nstderr %q", leak, out, errOut)
		}
	}
	if !strings.Contains(out, "DB_PASSWORD=[REDACTED]\n") || !strings.Contains(out, "-----END RSA PRIVATE KEY-----") || errOut != "token=[REDACTED]" {
		t.Errorf("live output: stdout %q stderr %q", out, errOut)
	}

	raw, _ = json.Marshal(map[string]any{"command": "echo GITHUB_TOKEN=ghp_0123456789abcdefghijABCDEFGHIJ; sleep 1000", "runInBackground": true})
	res = core.Execute(t.Context(), hostcore.ToolRequest{SessionID: s.ID, TurnID: "turn", ToolCallID: "c2", Tool: "Bash", Args: raw})
	id, _ := res.Fields["backgroundTaskId"].(string)
	if id == "" {
		t.Fatalf("background = %+v", res)
	}
	t.Cleanup(func() { _ = core.StopTask(s.ID, id) })
	deadline := time.Now().Add(10 * time.Second)
	for {
		o, err := core.TaskOutput(s.ID, id)
		if err == nil && strings.Contains(o.Stdout.Text, "GITHUB_TOKEN=") {
			if o.Stdout.Text != "GITHUB_TOKEN=[REDACTED]\n" {
				t.Errorf("task output = %q", o.Stdout.Text)
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("no output: %+v %v", o, err)
		}
		time.Sleep(50 * time.Millisecond)
	}
}
