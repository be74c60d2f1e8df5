package main

import (
	"io/fs"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
)

// makeCorpus copies GOROOT/src into a temp dir, makes it a git work tree
// (so every tool honours its .gitignore files the same way: fd only does in
// a repository) and reads every file twice to warm the page cache.
func makeCorpus() (dir string, cleanup func(), err error) {
	goroot, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		return "", nil, err
	}
	src := filepath.Join(strings.TrimSpace(string(goroot)), "src")
	tmp, err := os.MkdirTemp("", "pi-bench-")
	if err != nil {
		return "", nil, err
	}
	// A run stopped by Ctrl-C or a kill removes the copy too; main removes
	// it as soon as the sections that read it are done, since a later
	// section's failure exits without running deferred calls.
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, os.Interrupt, syscall.SIGTERM)
	go func() {
		if _, ok := <-sig; ok {
			os.RemoveAll(tmp)
			os.Exit(130)
		}
	}()
	cleanup = func() { signal.Stop(sig); os.RemoveAll(tmp) }
	dir = filepath.Join(tmp, "src")
	say("copying %s to %s", src, dir)
	if out, err := exec.Command("cp", "-a", src, dir).CombinedOutput(); err != nil {
		cleanup()
		return "", nil, cmdErr("cp", out, err)
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
