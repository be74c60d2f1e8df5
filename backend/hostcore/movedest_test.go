package hostcore_test

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/pi-desktop/pi-desktop/backend/errs"
	"github.com/pi-desktop/pi-desktop/backend/permission"
)

// An Edit's MV destination is judged before its card; a folder swapped for a
// link into .git/hooks while the card waits must not carry the move there:
// the destination the user approved is the only one the tool accepts.
func TestMoveDestinationSwappedWhileTheCardWaits(t *testing.T) {
	e := newEnv(t)
	protectedTree(t, e)
	e.configure("", "ask")
	mkdirs(t, e.abs("out"))
	if err := os.WriteFile(e.abs("notes.txt"), []byte("#!/bin/sh\necho hi\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	read := e.call(e.session.ID, "Read", map[string]any{"path": "notes.txt"})
	tag, _ := read.Fields["tag"].(string)
	args := map[string]any{"path": "notes.txt", "tag": tag, "ops": "MV out/pre-push"}

	done := make(chan struct {
		ok   bool
		code errs.Code
	}, 1)
	go func() {
		res := e.call(e.session.ID, "Edit", args)
		done <- struct {
			ok   bool
			code errs.Code
		}{res.OK, res.Code}
	}()
	var card permission.Request
	select {
	case card = <-e.cards.reqs:
	case <-time.After(10 * time.Second):
		t.Fatal("no approval card")
	}
	if card.Reason == permission.ProtectedGit.Reason() {
		t.Fatalf("out/pre-push was judged protected before the swap: %+v", card)
	}
	// The swap: out becomes a link to the repository's hooks folder.
	if err := os.Remove(e.abs("out")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(e.project, ".git", "hooks"), e.abs("out")); err != nil {
		t.Fatal(err)
	}
	if err := e.core.ResolveApproval(card.SessionID, card.ID, permission.AllowOnce); err != nil {
		t.Fatal(err)
	}
	res := <-done
	if res.ok {
		t.Fatal("the move ran into .git/hooks after the swap")
	}
	if _, err := os.Lstat(filepath.Join(e.project, ".git", "hooks", "pre-push")); err == nil {
		t.Fatal(".git/hooks/pre-push exists")
	}
	if _, err := os.Stat(e.abs("notes.txt")); err != nil {
		t.Errorf("notes.txt is gone: %v", err)
	}
}
