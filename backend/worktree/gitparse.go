package worktree

import (
	"strconv"
	"strings"
	"time"
)

// parseNumstat reads `git diff --numstat -z`: at most limit files, and how
// many more there are.
func parseNumstat(out string, limit int) ([]FileChange, int) {
	files := []FileChange{}
	more := 0
	for _, e := range strings.Split(out, "\x00") {
		parts := strings.SplitN(e, "\t", 3)
		if len(parts) != 3 {
			continue
		}
		if len(files) >= limit {
			more++
			continue
		}
		fc := FileChange{Path: parts[2]}
		if parts[0] == "-" {
			fc.Binary = true
		} else {
			fc.Added, _ = strconv.Atoi(parts[0])
			fc.Deleted, _ = strconv.Atoi(parts[1])
		}
		files = append(files, fc)
	}
	return files, more
}

// parseLog reads `git log` lines of hash, author, unix time and subject
// separated by NUL.
func parseLog(out string) []Commit {
	commits := []Commit{}
	for _, line := range strings.Split(out, "\n") {
		f := strings.SplitN(line, "\x00", 4)
		if len(f) != 4 {
			continue
		}
		sec, _ := strconv.ParseInt(f[2], 10, 64)
		commits = append(commits, Commit{Hash: f[0], Author: f[1], Time: time.Unix(sec, 0).UTC(), Subject: f[3]})
	}
	return commits
}
