//go:build unix

package mcpstore_test

import (
	"path/filepath"
	"syscall"
	"testing"

	"github.com/pi-desktop/pi-desktop/backend/mcpstore"
)

// A FIFO named like a server file must not block discovery.
func TestProjectServersSkipsAFIFO(t *testing.T) {
	root := tree(t, map[string]string{".agents/servers/ok.json": oneServer})
	if err := syscall.Mkfifo(filepath.Join(root, ".mcp.json"), 0o644); err != nil {
		t.Fatalf("mkfifo: %v", err)
	}
	got, err := mcpstore.ProjectServers(root)
	if err != nil || len(got) != 2 || got[0].Problem == nil || got[1].Server.ID != "ok" {
		t.Fatalf("got %v, %v", got, err)
	}
}
