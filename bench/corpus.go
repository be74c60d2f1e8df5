package main

import (
	"bytes"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
)

// makeCorpus copies GOROOT/src into a temp dir, makes it a git work tree
// (so every tool honours its .gitignore files the same way: fd only does in
// a repository) and reads every file twice to warm the page cache.
// The copy is registered with exits at once, so an interruption while it
// is still being copied removes it too.
func makeCorpus(exits *atExit) (dir string, cleanup func(), err error) {
	goroot, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		return "", nil, err
	}
	src := filepath.Join(strings.TrimSpace(string(goroot)), "src")
	tmp, err := os.MkdirTemp("", "pi-bench-")
	if err != nil {
		return "", nil, err
	}
	dir = filepath.Join(tmp, "src")
	// The copy may be interrupted while cp writes: cleanup ends cp and
	// waits for it first, or cp would go on filling the folder it removes.
	var out bytes.Buffer
	cp := exec.Command("cp", "-a", src, dir)
	cp.Stdout, cp.Stderr = &out, &out
	say("copying %s to %s", src, dir)
	if err := cp.Start(); err != nil {
		os.RemoveAll(tmp)
		return "", nil, err
	}
	done := make(chan struct{})
	var cpErr error
	go func() {
		cpErr = cp.Wait()
		close(done)
	}()
	cleanup = sync.OnceFunc(func() {
		_ = cp.Process.Kill() // os.ErrProcessDone once cp has finished
		<-done
		os.RemoveAll(tmp)
	})
	exits.add(cleanup)
	<-done
	if cpErr != nil {
		cleanup()
		return "", nil, cmdErr("cp", out.Bytes(), cpErr)
	}
	if out, err := exec.Command("git", "init", "-q", dir).CombinedOutput(); err != nil {
		cleanup()
		return "", nil, cmdErr("git init", out, err)
	}
	var files, bytes int64
	for range 2 {
		files, bytes = 0, 0
		filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
			if err == nil && d.Type().IsRegular() {
				if b, err := os.ReadFile(p); err == nil {
					files++
					bytes += int64(len(b))
				}
			}
			return nil
		})
	}
	say("corpus: %d files, %.0f MB (Go %s), page cache warm", files, float64(bytes)/1e6, runtime.Version())
	corpusDesc = formatCorpus(files, bytes)
	return dir, cleanup, nil
}

var corpusDesc = "not built"

func formatCorpus(files, bytes int64) string {
	return "`$(go env GOROOT)/src` of " + runtime.Version() + ": " + itoa(files) + " files, " + itoa(bytes/1e6) + " MB"
}
