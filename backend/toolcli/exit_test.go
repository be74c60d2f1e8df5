package toolcli_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/pi-desktop/pi-desktop/backend/toolcli"
)

// runMax is fixture.run with a lowered script line limit.
func (f fixture) runMax(t *testing.T, maxLine int, stdin io.Reader, args ...string) (int, []result, string) {
	t.Helper()
	var out, errOut bytes.Buffer
	code := toolcli.Run(t.Context(), args, toolcli.Env{
		Stdin: stdin, Stdout: &out, Stderr: &errOut, MaxScriptLine: maxLine,
		ResolveDataDir: func(string) (string, error) { return f.data, nil },
	})
	var results []result
	sc := bufio.NewScanner(&out)
	for sc.Scan() {
		var r result
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			t.Fatalf("output line is not JSON: %q", sc.Text())
		}
		results = append(results, r)
	}
	return code, results, errOut.String()
}

// Exit 0 only when every line was read and every call succeeded, 1 when a
// call failed or was denied, 2 when the script could not be read to its end.
func TestScriptExitStatus(t *testing.T) {
	read := `{"tool":"Read","args":{"path":"notes.txt"}}` + "\n"
	tests := []struct {
		name    string
		stdin   io.Reader
		code    int
		results int
		stderr  string
	}{
		{"all succeed", strings.NewReader(read + "\n# a comment\n" + read), 0, 2, ""},
		{"empty script", strings.NewReader(""), 0, 0, ""},
		{"a call fails", strings.NewReader(read + `{"tool":"Read","args":{"path":"missing.txt"}}` + "\n" + read), 1, 3, ""},
		{"a call is denied", strings.NewReader(`{"tool":"Write","args":{"path":"w.txt","content":"x"}}` + "\n" + read), 1, 2, ""},
		{"a line is not JSON", strings.NewReader(read + "{nope\n"), 1, 2, ""},
		{"reading fails", io.MultiReader(strings.NewReader(read), iotest.ErrReader(errors.New("disk went away"))), 2, 2, "disk went away"},
		{"a line is too long", strings.NewReader(read + `{"tool":"Read",` + strings.Repeat(" ", 2000) + `"args":{"path":"notes.txt"}}` + "\n" + read), 2, 2,
			"script line 2 is longer than 1 KiB"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t)
			code, res, stderr := f.runMax(t, 1024, tt.stdin, "--workspace", f.workspace, "--script", "-")
			if code != tt.code || len(res) != tt.results || !strings.Contains(stderr, tt.stderr) {
				t.Fatalf("exit %d with %d results, stderr %q; want exit %d, %d results, stderr with %q", code, len(res), stderr, tt.code, tt.results, tt.stderr)
			}
			if tt.code == 2 && (res[len(res)-1].OK || !strings.Contains(res[len(res)-1].Message, "reading the script stopped")) {
				t.Errorf("last result %+v; want the reason reading stopped", res[len(res)-1])
			}
		})
	}
}

// A 50 MB line (over bufio.Scanner's old 32 MB token limit) is read whole
// and run, and so are the lines after it.
func TestLongScriptLineIsRead(t *testing.T) {
	f := newFixture(t)
	var script strings.Builder
	script.WriteString(`{"tool":"Read",`)
	script.WriteString(strings.Repeat(" ", 50<<20))
	script.WriteString(`"args":{"path":"notes.txt"}}` + "\n")
	script.WriteString(`{"tool":"Glob","args":{"pattern":"*.txt"}}` + "\n")
	code, res, stderr := f.run(t, strings.NewReader(script.String()), "--workspace", f.workspace, "--script", "-")
	if code != 0 || len(res) != 2 || !res[0].OK || !res[1].OK {
		t.Fatalf("exit %d, results %+v, stderr %q", code, res, stderr)
	}
}

// A card denied because the line has no "approve" says what to add; an
// explicit "deny" is still the user's denial.
func TestDeniedForWantOfApproval(t *testing.T) {
	f := newFixture(t)
	script := `{"tool":"Write","args":{"path":"a.txt","content":"x"}}` + "\n" +
		`{"tool":"Write","args":{"path":"a.txt","content":"x"},"approve":"deny"}` + "\n"
	code, res, _ := f.run(t, strings.NewReader(script), "--workspace", f.workspace, "--script", "-")
	if code != 1 || len(res) != 2 {
		t.Fatalf("exit %d, %+v", code, res)
	}
	want := `needs approval: add "approve":"once" to this line, or use --mode`
	if res[0].Code != "TOOL_DENIED" || res[0].Message != want {
		t.Errorf("without approve: %+v; want TOOL_DENIED %q", res[0], want)
	}
	if res[1].Code != "TOOL_DENIED" || !strings.Contains(res[1].Message, "denied") || strings.Contains(res[1].Message, "needs approval") {
		t.Errorf("with approve deny: %+v; want the user's denial", res[1])
	}
	code, res, _ = f.run(t, nil, "Write", "--workspace", f.workspace, "--args", `{"path":"a.txt","content":"x"}`)
	if code != 1 || len(res) != 1 || res[0].Message != "needs approval: add --approve once, or use --mode" {
		t.Errorf("single call: exit %d, %+v", code, res)
	}
	if _, err := os.Stat(filepath.Join(f.workspace, "a.txt")); !os.IsNotExist(err) {
		t.Error("a denied Write ran")
	}
}

// Flags are named as the user typed them, in every subcommand.
func TestFlagErrorsSpellTheFlagAsGiven(t *testing.T) {
	f := newFixture(t)
	tests := []struct {
		name string
		run  func(t *testing.T, args []string, stderr io.Writer) int
		args []string
		want string
	}{
		{"tool, unknown", f.tool, []string{"--workspace", f.workspace, "--frobnicate"}, "flag provided but not defined: --frobnicate\n"},
		{"tool, unknown with value", f.tool, []string{"--frobnicate=1", "--workspace", f.workspace}, "flag provided but not defined: --frobnicate\n"},
		{"tool, one dash", f.tool, []string{"-frobnicate"}, "flag provided but not defined: -frobnicate\n"},
		{"tool, missing value", f.tool, []string{"--script", "-", "--workspace"}, "flag needs an argument: --workspace\n"},
		{"run, unknown", f.turn, []string{"--workspace", f.workspace, "--frobnicate", "hi"}, "flag provided but not defined: --frobnicate\n"},
		{"run, bad boolean", f.turn, []string{"--json=maybe", "hi"}, `invalid boolean value "maybe" for --json:`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var stderr bytes.Buffer
			if code := tt.run(t, tt.args, &stderr); code != 2 || !strings.Contains(stderr.String(), tt.want) {
				t.Errorf("exit %d, stderr %q; want 2 and %q", code, stderr.String(), tt.want)
			}
		})
	}
}

func (f fixture) tool(t *testing.T, args []string, stderr io.Writer) int {
	return toolcli.Run(t.Context(), args, toolcli.Env{Stdin: strings.NewReader(""), Stdout: io.Discard, Stderr: stderr,
		ResolveDataDir: func(string) (string, error) { return f.data, nil }})
}

func (f fixture) turn(t *testing.T, args []string, stderr io.Writer) int {
	return toolcli.RunTurn(t.Context(), args, toolcli.RunEnv{Env: toolcli.Env{Stdin: strings.NewReader(""), Stdout: io.Discard, Stderr: stderr,
		ResolveDataDir: func(string) (string, error) { return f.data, nil }}})
}

// Invalid --args JSON names where it went wrong.
func TestArgsJSONErrorNamesThePosition(t *testing.T) {
	f := newFixture(t)
	tests := []struct{ args, want string }{
		{`{"path": ?}`, "invalid character '?' looking for beginning of value at line 1, column 10 (byte offset 9)"},
		{"{\n  \"a\": 1,\n  \"b\": x\n}", "at line 3, column 8 (byte offset 19)"},
		{`{"path":`, "unexpected end of JSON input at line 1, column 9 (byte offset 8)"},
	}
	for _, tt := range tests {
		code, _, stderr := f.run(t, nil, "Read", "--workspace", f.workspace, "--args", tt.args)
		if code != 2 || !strings.Contains(stderr, "--args is not valid JSON") || !strings.Contains(stderr, tt.want) {
			t.Errorf("--args %q: exit %d, stderr %q; want %q", tt.args, code, stderr, tt.want)
		}
	}
}

// Only the flag that failed is respelled, not a later word with its name.
func TestParseFlagsNamesTheFailingFlag(t *testing.T) {
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"-frob", "sub", "--frob"}, "flag provided but not defined: -frob"},
		{[]string{"--dir", "x", "--frob", "sub", "-frob"}, "flag provided but not defined: --frob"},
		{[]string{"--n", "many"}, `invalid value "many" for flag --n: parse error`},
	}
	for _, tt := range tests {
		fs := flag.NewFlagSet("t", flag.ContinueOnError)
		fs.SetOutput(io.Discard)
		fs.String("dir", "", "")
		fs.Int("n", 0, "")
		if err := toolcli.ParseFlags(fs, tt.args); err == nil || err.Error() != tt.want {
			t.Errorf("%q: %v; want %q", tt.args, err, tt.want)
		}
	}
}
