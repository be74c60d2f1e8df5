package tools_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/pi-desktop/pi-desktop/backend/errs"
	"github.com/pi-desktop/pi-desktop/backend/hashline"
)

func TestWrite(t *testing.T) {
	w := newWS(t, map[string]string{"src/greet.go": greet, "run.sh": "#!/bin/sh\n"})
	if err := os.Chmod(filepath.Join(w.dir, "run.sh"), 0o755); err != nil {
		t.Fatal(err)
	}
	read := func(name string) string {
		b, _ := os.ReadFile(filepath.Join(w.dir, filepath.FromSlash(name)))
		return string(b)
	}

	res := w.run("Write", map[string]any{"path": "a/b/new.txt", "content": "hello\n"})
	if !res.OK || res.Fields["created"] != true || res.Fields["tag"] != hashline.DigestOf([]byte("hello\n")).Tag() {
		t.Fatalf("create = %+v", res)
	}
	if read("a/b/new.txt") != "hello\n" {
		t.Error("content not written")
	}

	tests := []struct {
		name string
		args map[string]any
		code errs.Code
	}{
		{"overwrite without tag", map[string]any{"path": "src/greet.go", "content": "x"}, errs.EditTagRequired},
		{"overwrite with a stale tag", map[string]any{"path": "src/greet.go", "content": "x", "tag": "0000"}, errs.EditTagMismatch},
		{"a directory", map[string]any{"path": "src", "content": "x"}, errs.InvalidArgument},
		{"clipped pasted row", map[string]any{"path": "p.txt", "content": "[p.txt#ABCD]\n1:ok\n2~:cut …[+5 chars]\n"}, errs.InvalidArgument},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if res := w.run("Write", tt.args); res.OK || res.Code != tt.code {
				t.Errorf("Write = %+v; want %s", res, tt.code)
			}
		})
	}
	if read("src/greet.go") != greet {
		t.Fatal("a refused overwrite changed the file")
	}

	res = w.run("Write", map[string]any{"path": "src/greet.go", "content": "package main\n", "tag": "a093"})
	if !res.OK || res.Fields["created"] != false || read("src/greet.go") != "package main\n" {
		t.Errorf("tagged overwrite (tag case-insensitive) = %+v", res)
	}

	tag := hashline.DigestOf([]byte("#!/bin/sh\n")).Tag()
	res = w.run("Write", map[string]any{"path": "run.sh", "content": "#!/bin/sh\necho hi\n", "tag": tag})
	if fi, _ := os.Stat(filepath.Join(w.dir, "run.sh")); !res.OK || fi.Mode().Perm() != 0o755 {
		t.Errorf("overwrite lost the file mode: %v %+v", fi.Mode(), res)
	}

	res = w.run("Write", map[string]any{"path": "pasted.txt", "content": "[pasted.txt#1234]\n1:first\n2:\n3:third\n"})
	if !res.OK || read("pasted.txt") != "first\n\nthird\n" {
		t.Errorf("pasted Read block not stripped: %q %+v", read("pasted.txt"), res)
	}
	res = w.run("Write", map[string]any{"path": "plain.txt", "content": "1:not a read block\n"})
	if !res.OK || read("plain.txt") != "1:not a read block\n" {
		t.Errorf("content without a header must be kept as is: %q", read("plain.txt"))
	}
}
