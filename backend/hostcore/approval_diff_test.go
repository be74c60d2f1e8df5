package hostcore_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/pi-desktop/pi-desktop/backend/errs"
	"github.com/pi-desktop/pi-desktop/backend/hashline"
	"github.com/pi-desktop/pi-desktop/backend/permission"
	"github.com/pi-desktop/pi-desktop/backend/tools"
)

// callWithCard runs a call that must show one card, runs whileOpen while
// the card waits, then answers it.
func (e *env) callWithCard(tool string, args any, answer permission.Outcome, whileOpen func(permission.Request)) (tools.Result, permission.Request) {
	e.t.Helper()
	done := make(chan tools.Result, 1)
	go func() { done <- e.call(e.session.ID, tool, args) }()
	var req permission.Request
	select {
	case req = <-e.cards.reqs:
	case res := <-done:
		e.t.Fatalf("%s finished without a card: %+v", tool, res)
	case <-time.After(10 * time.Second):
		e.t.Fatal("no approval card")
	}
	if whileOpen != nil {
		whileOpen(req)
	}
	if err := e.core.ResolveApproval(req.SessionID, req.ID, answer); err != nil {
		e.t.Fatal(err)
	}
	return <-done, req
}

// dirState lists a folder's entries with their sizes and mtimes, to prove
// nothing was written (no temp file either) while a card waited.
func dirState(t *testing.T, dir string) string {
	t.Helper()
	var b strings.Builder
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		fi, err := d.Info()
		if err != nil {
			return err
		}
		fmt.Fprintf(&b, "%s %d %d %v\n", p, fi.Size(), fi.ModTime().UnixNano(), fi.Mode())
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return b.String()
}

func TestWriteCardShowsDiff(t *testing.T) {
	e := newEnv(t)
	huge := strings.Repeat("row\n", 5000)
	tests := []struct {
		name     string
		file     string // current content; "" = no file
		content  string
		diff     []string // substrings the diff must hold; nil = no diff
		note     string
		notInDif string
	}{
		{name: "new file", content: "hello\nworld\n", diff: []string{"@@ -0,0 +1,2 @@\n+hello\n+world\n"}, note: "new file"},
		{name: "existing file", file: "a\nb\nc\n", content: "a\nB\nc\n", diff: []string{"@@ -1,3 +1,3 @@\n a\n-b\n+B\n c\n"}},
		{name: "binary file", file: "\x89PNG\x00\x01\x02", content: "text\n", note: "binary file"},
		{name: "huge new file", content: huge, diff: []string{"+row\n", "[diff truncated: 4800 more lines]"}, note: "new file"},
		{name: "pasted Read block", file: "x\n", content: "[p.txt#ABCD]\n1:y\n", diff: []string{"-x\n+y\n"}, notInDif: "1:y"},
	}
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			name := fmt.Sprintf("f%d.txt", i)
			target := filepath.Join(e.project, name)
			args := map[string]any{"path": name, "content": tt.content}
			if tt.file != "" {
				write(t, target, tt.file)
				args["tag"] = hashline.DigestOf([]byte(tt.file)).Tag()
			}
			before := dirState(t, e.project)
			res, card := e.callWithCard("Write", args, permission.Denied, func(permission.Request) {
				if after := dirState(t, e.project); after != before {
					t.Errorf("the workspace changed while the card waited:\n%s\n→\n%s", before, after)
				}
			})
			if res.Code != errs.ToolDenied {
				t.Errorf("denied Write = %+v", res)
			}
			if tt.diff == nil && card.Diff != "" {
				t.Errorf("diff = %q, want none", card.Diff)
			}
			for _, want := range tt.diff {
				if !strings.Contains(card.Diff, want) {
					t.Errorf("diff = %q\nwant it to hold %q", card.Diff, want)
				}
			}
			if tt.notInDif != "" && strings.Contains(card.Diff, tt.notInDif) {
				t.Errorf("diff = %q holds %q", card.Diff, tt.notInDif)
			}
			if !strings.Contains(card.DiffNote, tt.note) || (tt.note == "" && card.DiffNote != "") {
				t.Errorf("note = %q, want %q", card.DiffNote, tt.note)
			}
			if len(card.Diff) > 16<<10+100 {
				t.Errorf("diff is %d bytes", len(card.Diff))
			}
		})
	}
}

// The preview is computed before the card and the answer still decides: an
// allowed Write lands exactly once, with the content the diff showed.
func TestWriteCardThenAllow(t *testing.T) {
	e := newEnv(t)
	target := filepath.Join(e.project, "main.go")
	old, _ := os.ReadFile(target)
	args := map[string]any{"path": "main.go", "content": "package main\n\nfunc main() { println() }\n", "tag": hashline.DigestOf(old).Tag()}
	// The tag was never shown, so the run refuses it exactly as without a
	// preview, after the card showed the would-be diff.
	res, card := e.callWithCard("Write", args, permission.AllowOnce, nil)
	if res.Code != errs.EditTagUnknown || !strings.Contains(card.Diff, "+func main() { println() }") {
		t.Fatalf("Write with an unseen tag = %+v, card diff %q", res, card.Diff)
	}
	if e.call(e.session.ID, "Read", map[string]any{"path": "main.go"}).OK != true {
		t.Fatal("Read failed")
	}
	res, _ = e.callWithCard("Write", args, permission.AllowOnce, func(permission.Request) {
		if b, _ := os.ReadFile(target); string(b) != string(old) {
			t.Error("the file changed while the card waited")
		}
	})
	if b, _ := os.ReadFile(target); !res.OK || string(b) != args["content"] {
		t.Fatalf("allowed Write = %+v, file %q", res, b)
	}
}

func TestEditCardShowsDiff(t *testing.T) {
	e := newEnv(t)
	file := filepath.Join(e.project, "greet.go")
	write(t, file, greetSrc)
	if res := e.call(e.session.ID, "Read", map[string]any{"path": "greet.go"}); !res.OK {
		t.Fatal(res)
	}
	edit := map[string]any{"path": "greet.go", "tag": "A093", "ops": "PUT 6.=6:\n+\treturn fmt.Sprintf(\"Hello, %s!\", name)"}
	res, card := e.callWithCard("Edit", edit, permission.AllowOnce, func(permission.Request) {
		if b, _ := os.ReadFile(file); string(b) != greetSrc {
			t.Error("the file changed while the card waited")
		}
	})
	want := "@@ -3,7 +3,7 @@\n import \"fmt\"\n \n func greet(name string) string {\n-\treturn \"Hello, \" + name\n+\treturn fmt.Sprintf(\"Hello, %s!\", name)\n }\n \n"
	if !strings.HasPrefix(card.Diff, want) || card.DiffNote != "" {
		t.Errorf("card diff = %q note %q\nwant prefix %q", card.Diff, card.DiffNote, want)
	}
	if !res.OK || res.Fields["tag"] != "25B7" {
		t.Fatalf("allowed Edit = %+v", res)
	}
}

// A preview that cannot apply (stale tag, unseen lines) shows no diff and
// changes nothing: the run meets exactly the error it met without one, and
// an error reveal the preview computed does not count as displayed.
func TestEditCardWithStaleTagsBehavesAsBefore(t *testing.T) {
	e := newEnv(t)
	file := filepath.Join(e.project, "greet.go")
	write(t, file, greetSrc)

	res, card := e.callWithCard("Edit", map[string]any{"path": "greet.go", "tag": "A093", "ops": "PUT >$:\n+x"}, permission.AllowOnce, nil)
	if res.Code != errs.EditTagUnknown || card.Diff != "" || !strings.Contains(card.DiffNote, "EDIT_TAG_UNKNOWN") {
		t.Fatalf("unknown tag: result %+v, card diff %q note %q", res, card.Diff, card.DiffNote)
	}
	if res := e.call(e.session.ID, "Read", map[string]any{"path": "greet.go", "limit": 4}); !res.OK {
		t.Fatal(res)
	}
	edit := map[string]any{"path": "greet.go", "tag": "A093", "ops": "PUT 6.=6:\n+\treturn fmt.Sprintf(\"Hello, %s!\", name)"}
	res, card = e.callWithCard("Edit", edit, permission.AllowOnce, nil)
	if res.Code != errs.EditLinesUnseen || res.Fields["retry"] != "same_call" || card.Diff != "" || !strings.Contains(card.DiffNote, "EDIT_LINES_UNSEEN") {
		t.Fatalf("unseen lines: result %+v, card diff %q note %q", res, card.Diff, card.DiffNote)
	}
	if b, _ := os.ReadFile(file); string(b) != greetSrc {
		t.Fatal("a failed Edit changed the file")
	}
	// The run's reveal (shown to the model) lets the same call apply; now
	// the preview applies too.
	res, card = e.callWithCard("Edit", edit, permission.AllowOnce, nil)
	if !res.OK || !strings.Contains(card.Diff, "+\treturn fmt.Sprintf(") {
		t.Fatalf("retried Edit = %+v, card diff %q", res, card.Diff)
	}
	// The file changed behind the session's back: the card has no diff, the
	// run reports the mismatch as always.
	write(t, file, "package other\n")
	res, card = e.callWithCard("Edit", map[string]any{"path": "greet.go", "tag": res.Fields["tag"], "ops": "PUT 6.=6:\n+\treturn name"}, permission.AllowOnce, nil)
	if res.OK || card.Diff != "" || card.DiffNote == "" {
		t.Fatalf("edit of a changed file: result %+v, card diff %q note %q", res, card.Diff, card.DiffNote)
	}
	if b, _ := os.ReadFile(file); string(b) != "package other\n" {
		t.Fatal("the failed Edit changed the file")
	}
}

func TestEditCardRemoveShowsDeletions(t *testing.T) {
	e := newEnv(t)
	if res := e.call(e.session.ID, "Read", map[string]any{"path": "main.go"}); !res.OK {
		t.Fatal(res)
	}
	b, _ := os.ReadFile(filepath.Join(e.project, "main.go"))
	res, card := e.callWithCard("Edit", map[string]any{"path": "main.go", "tag": hashline.DigestOf(b).Tag(), "ops": "REM"}, permission.Denied, nil)
	if res.Code != errs.ToolDenied || card.Diff != "@@ -1,3 +0,0 @@\n-package main\n-\n-func main() {}\n" || card.DiffNote != "deletes the file" {
		t.Fatalf("REM card = %q %q, result %+v", card.Diff, card.DiffNote, res)
	}
}

// An external target is flagged on its card and not read before it is
// allowed: no diff, a note saying why.
func TestExternalWriteCardIsNotPreviewed(t *testing.T) {
	e := newEnv(t)
	secret := filepath.Join(e.outside, "secret.txt")
	args := map[string]any{"path": "../outside/secret.txt", "content": "public now\n", "tag": hashline.DigestOf([]byte("top secret\n")).Tag()}
	res, card := e.callWithCard("Write", args, permission.Denied, func(permission.Request) {
		if b, _ := os.ReadFile(secret); string(b) != "top secret\n" {
			t.Error("the external file changed while the card waited")
		}
	})
	if res.Code != errs.ToolDenied || !card.External || card.Path != secret || card.Diff != "" || !strings.Contains(card.DiffNote, "not read before you allow it") {
		t.Fatalf("external card = %+v, result %+v", card, res)
	}
}
