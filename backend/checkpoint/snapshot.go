package checkpoint

import (
	"bytes"
	"compress/zlib"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"iter"
	"os"
	"path"
	"path/filepath"
	"strings"
	"time"
)

// capture adds what changed in the workspace since the shadow index to it
// and writes its tree. changed counts the paths git saw differ from the
// previous snapshot of the workspace (created, modified, deleted).
func (s *shadow) capture(ctx context.Context, maxFile int64) (tree string, changed int, err error) {
	// -o: untracked and not ignored ("? " with -t); -m/-d: tracked and
	// modified or deleted ("C ", "R "). A nested repository shows as
	// "dir/" and is left out whole.
	type listing struct {
		out string
		err error
	}
	listed := make(chan listing, 1)
	go func() {
		out, err := s.run(ctx, nil, "ls-files", "-z", "-t", "-o", "-m", "-d", "--exclude-standard", "--full-name")
		listed <- listing{out, err}
	}()
	// Once the index exists, a listing that runs past earlyUpdateAfter
	// (a large workspace) gets the update-index that takes the changes
	// started beside it: its start-up and index read overlap the listing's
	// stat of every file instead of following it. A quick listing (a small
	// workspace, most often with nothing changed) runs alone.
	var early *earlyUpdate
	var l listing
	if _, statErr := os.Stat(s.indexFile()); statErr == nil && !s.expectSame {
		t := time.NewTimer(earlyUpdateAfter)
		select {
		case l = <-listed:
		case <-t.C:
			early = s.startUpdate(ctx)
			defer early.abandon()
			l = <-listed
		}
		t.Stop()
	} else {
		l = <-listed
	}
	out, err := l.out, l.err
	if err != nil {
		return "", 0, err
	}
	seen := map[string]bool{}
	// update: NUL-terminated paths to add, refresh or (when gone) remove;
	// remove: paths that exist but must leave the index.
	var update, remove bytes.Buffer
	_, err = os.Stat(s.recheckFile())
	recheck := err == nil
	for entry := range strings.SplitSeq(out, "\x00") {
		if len(entry) < 3 {
			continue
		}
		tracked, p := entry[0] != '?', entry[2:]
		if strings.HasSuffix(p, "/") || seen[p] {
			continue
		}
		seen[p] = true
		recheck = recheck || path.Base(p) == ".gitignore"
		fi, err := os.Lstat(filepath.Join(s.workspace, filepath.FromSlash(p)))
		switch {
		case errors.Is(err, fs.ErrNotExist):
			update.WriteString(p + "\x00") // --remove drops what is gone
		case err == nil && fi.IsDir():
			remove.WriteString(p + "\x00") // a file replaced by a folder
		case err != nil:
			return "", 0, err
		case fi.Mode().IsRegular() && fi.Size() > maxFile:
			// Too large: not captured, never restored.
			if !tracked {
				continue
			}
			remove.WriteString(p + "\x00")
		default:
			update.WriteString(p + "\x00")
		}
		changed++
	}
	if recheck {
		// An ignore rule changed: what the index holds and the rules now
		// exclude leaves it, so it is neither captured nor restored.
		ignored, err := s.run(ctx, nil, "ls-files", "-z", "-c", "-i", "--exclude-standard")
		if err != nil {
			return "", 0, err
		}
		// Removals run after updates, so one listed in both leaves.
		for p := range strings.SplitSeq(ignored, "\x00") {
			if p == "" {
				continue
			}
			remove.WriteString(p + "\x00")
			if !seen[p] {
				seen[p] = true
				changed++
			}
		}
	}
	if changed == 0 {
		// Nothing differs from the index: its tree is the last one written.
		if last, err := os.ReadFile(s.treeFile()); err == nil && len(strings.TrimSpace(string(last))) == 40 {
			return strings.TrimSpace(string(last)), 0, nil
		}
	}
	_ = os.Remove(s.treeFile())
	if early != nil && update.Len() > 0 && bytes.Count(update.Bytes(), []byte{0}) <= updateChunk {
		if err := early.finish(update.Bytes()); err != nil {
			return "", 0, err
		}
		update.Reset()
	}
	if early != nil {
		early.abandon() // it holds the index lock the calls below need
	}
	// In chunks: each call writes the index, so a first snapshot of a big
	// folder that the cap cuts short keeps what it hashed, and the next one
	// goes on from there instead of starting over.
	for chunk := range chunks(update.Bytes(), updateChunk) {
		if _, err := s.run(ctx, bytes.NewReader(chunk), updateArgs()...); err != nil {
			return "", 0, err
		}
	}
	if remove.Len() > 0 {
		if _, err := s.run(ctx, &remove, "update-index", "--force-remove", "-z", "--stdin"); err != nil {
			return "", 0, err
		}
	}
	tree, err = s.writeTree(ctx)
	if errors.Is(err, errIndexUnhandled) {
		tree, err = s.run(ctx, nil, "write-tree")
	}
	if err != nil {
		return "", 0, err
	}
	tree = strings.TrimSpace(tree)
	_ = os.WriteFile(s.treeFile(), []byte(tree+"\n"), 0o600) // a cache: losing it costs one write-tree
	if recheck {
		_ = os.Remove(s.recheckFile())
	}
	return tree, changed, nil
}

// earlyUpdateAfter is how long a listing runs alone before update-index is
// started beside it: about one git process's start-up.
const earlyUpdateAfter = 8 * time.Millisecond

// updateArgs takes NUL-terminated paths on stdin: each is added or
// refreshed, or dropped when it no longer exists.
func updateArgs() []string {
	return []string{"update-index", "--add", "--remove", "--replace", "-z", "--stdin"}
}

// earlyUpdate is an update-index already running, waiting for its paths.
type earlyUpdate struct {
	w    *io.PipeWriter
	done chan error
}

func (s *shadow) startUpdate(ctx context.Context) *earlyUpdate {
	r, w := io.Pipe()
	u := &earlyUpdate{w: w, done: make(chan error, 1)}
	go func() {
		_, err := s.run(ctx, r, updateArgs()...)
		r.Close() // unblocks a writer if git ended early
		u.done <- err
	}()
	return u
}

// finish hands the paths over and waits for the index to be written.
func (u *earlyUpdate) finish(paths []byte) error {
	_, werr := u.w.Write(paths)
	u.w.Close()
	err := <-u.done
	u.done = nil
	if err == nil && werr != nil {
		err = werr
	}
	return err
}

// abandon ends an update that was not given paths: git reads an empty
// list and leaves the index as it was.
func (u *earlyUpdate) abandon() {
	if u.done == nil {
		return
	}
	u.w.CloseWithError(errNoPaths)
	<-u.done
	u.done = nil
}

var errNoPaths = errors.New("no paths to update")

// updateChunk is how many paths one update-index call takes.
const updateChunk = 2000

// chunks yields runs of at most n NUL-terminated paths of list.
func chunks(list []byte, n int) iter.Seq[[]byte] {
	return func(yield func([]byte) bool) {
		for len(list) > 0 {
			end, count := 0, 0
			for end < len(list) && count < n {
				end += bytes.IndexByte(list[end:], 0) + 1
				count++
			}
			if !yield(list[:end]) {
				return
			}
			list = list[end:]
		}
	}
}

// commit records tree as a commit whose parent is the session's previous
// checkpoint of this workspace ("" for none); when that one has the same
// tree, it is the commit (nothing changed, nothing new to keep).
//
// The commit object is written here, as `git commit-tree` would write it
// (a zlib-compressed loose object named by its SHA-1), which saves a
// process per snapshot; git reads it like any other.
func (s *shadow) commit(tree string, parent parentRef, message string, now time.Time) (string, error) {
	if parent.commit != "" && parent.tree == tree {
		return parent.commit, nil
	}
	var body bytes.Buffer
	fmt.Fprintf(&body, "tree %s\n", tree)
	if parent.commit != "" {
		fmt.Fprintf(&body, "parent %s\n", parent.commit)
	}
	if parent.also != "" && parent.also != parent.commit {
		fmt.Fprintf(&body, "parent %s\n", parent.also)
	}
	ident := fmt.Sprintf("PI-Desktop <checkpoints@pi-desktop.invalid> %d +0000", now.Unix())
	fmt.Fprintf(&body, "author %s\ncommitter %s\n\n%s", ident, ident, message)
	return s.writeObject("commit", body.Bytes())
}

// writeObject stores a loose object and returns its id.
func (s *shadow) writeObject(kind string, body []byte) (string, error) {
	return s.objects().write(kind, body)
}

// objects is a writer of loose objects into the shadow.
func (s *shadow) objects() *objectWriter {
	return &objectWriter{dir: filepath.Join(s.gitDir(), "objects")}
}

// objectWriter stores loose objects, as git does: zlib-compressed, named by
// the SHA-1 of the header and body, renamed into place. It reuses its
// compressor: a new one allocates ~700 KB.
type objectWriter struct {
	dir string
	z   *zlib.Writer
	buf bytes.Buffer
}

func (o *objectWriter) write(kind string, body []byte) (string, error) {
	id := objectID(kind, body)
	dir := filepath.Join(o.dir, id[:2])
	final := filepath.Join(dir, id[2:])
	if _, err := os.Stat(final); err == nil {
		return id, nil
	}
	o.buf.Reset()
	if o.z == nil {
		// Any level reads back alike; objects here are small and
		// short-lived, so the fastest one.
		o.z, _ = zlib.NewWriterLevel(&o.buf, zlib.BestSpeed)
	} else {
		o.z.Reset(&o.buf)
	}
	o.z.Write(objectHeader(kind, len(body)))
	o.z.Write(body)
	if err := o.z.Close(); err != nil {
		return "", err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	tmp := filepath.Join(dir, "tmp_obj_"+newID())
	if err := os.WriteFile(tmp, o.buf.Bytes(), 0o444); err != nil {
		return "", err
	}
	if err := os.Rename(tmp, final); err != nil {
		_ = os.Remove(tmp)
		return "", err
	}
	return id, nil
}

// snapshot is one capture under the cap: it returns within cap whatever
// git does, killing git's process group when the deadline passes.
func (s *shadow) snapshot(ctx context.Context, cap time.Duration, maxFile int64, excludes []string, parent parentRef, message string, now time.Time, slow func(context.Context) error) (tree, commit string, changed int, err error) {
	ctx, cancel := context.WithTimeout(ctx, cap)
	defer cancel()
	defer func() {
		if err != nil {
			// A git killed mid-write leaves its lock behind; the shadow's
			// lock (held by the caller) says nobody else is writing.
			_ = os.Remove(s.indexFile() + ".lock")
			if ctx.Err() != nil {
				err = fmt.Errorf("%w: %v", errSlow, err)
			}
		}
	}()
	if slow != nil {
		if err := slow(ctx); err != nil {
			return "", "", 0, err
		}
	}
	if err := s.ensure(ctx, excludes); err != nil {
		return "", "", 0, err
	}
	if tree, changed, err = s.capture(ctx, maxFile); err != nil {
		return "", "", 0, err
	}
	commit, err = s.commit(tree, parent, message, now)
	return tree, commit, changed, err
}

// parentRef is the session's previous checkpoint of the workspace; also,
// when set, is a second parent (the call's before-bash snapshot).
type parentRef struct{ commit, tree, also string }

// errSlow marks a snapshot abandoned at its cap.
var errSlow = errors.New("snapshot abandoned at its time cap")
