package bash

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
)

// SpillFileName is the spill file's name in a session's tool-output folder
// (decisions.md): <label>-<unixms>-<seq>.log. label is reduced to
// [A-Za-z0-9_-]; an empty result becomes "output".
func SpillFileName(label string, unixMs int64, seq int) string {
	clean := strings.Map(func(r rune) rune {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '-', r == '_':
			return r
		}
		return -1
	}, label)
	if clean == "" {
		clean = "output"
	}
	return fmt.Sprintf("%s-%d-%d.log", clean, unixMs, seq)
}

// FileSpill returns a CaptureOptions.Spill func that creates dir (0700) and
// a new file name in it (0600, never overwriting) when first called. dir is
// the caller's <scratch>/tool-output folder.
func FileSpill(dir, name string) func() (io.WriteCloser, string, error) {
	return func() (io.WriteCloser, string, error) {
		if err := os.MkdirAll(dir, 0o700); err != nil {
			return nil, "", err
		}
		path := filepath.Join(dir, name)
		f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
		if err != nil {
			return nil, "", err
		}
		return f, path, nil
	}
}
