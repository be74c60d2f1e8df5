package checkpoint

import (
	"bufio"
	"context"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

// Who changed a file after a checkpoint (the conflict rule of a restore).
//
// A session's captured checkpoints of one workspace form a chain; a
// restore to checkpoint C looks at every stretch between consecutive
// checkpoints after C, and at the last one up to now. A path that differs
// between C and now is the agent's, and restored without asking, only
// when every stretch in which it changed is the agent's for it:
//
//   - from a call's before-bash snapshot (or the turn's
//     before-first-mutation checkpoint of the same call) to its after-bash
//     checkpoint: whatever changed is the command's;
//   - from a before-restore to its after-restore: the restore's own writes;
//   - any other stretch (up to a before-bash snapshot, between turns, up to
//     the end of a turn or now): only the files the agent's Write and Edit
//     calls wrote in it (NoteWrite, kept in the commit of the checkpoint
//     that ends it), and only if the checkpoint holds exactly what the
//     agent wrote (same blob and mode): an edit the user made after the
//     agent's write is theirs.
//
// Everything else — the user's editor between two tool calls, another
// session, a command whose before-bash snapshot was not captured, an MCP
// or plugin tool — is someone else's change: a conflict, kept unless the
// user overwrites. An edit the user makes while a command runs cannot be
// told from the command's and counts as the agent's.

// writeKey names the writes pending for a session in one shadow.
type writeKey struct{ session, shadow string }

// NoteWrite records that the agent's own tool (Write, Edit) just wrote
// path in workspace for session: the next checkpoint of the session keeps
// the blob written, so a restore treats that change as the agent's and not
// as a conflict. Paths outside the workspace are ignored. landed, when not
// nil, is the whole file as the tool read it back after writing: it is
// hashed instead of read again, after NoteWrite returns (an Edit of a
// 6.6 MB file waited 4 ms for it); every checkpoint and restore waits for
// the notes made before it.
func (s *Service) NoteWrite(sessionID, workspace, path string, landed []byte) {
	ws, rel, ok := relInside(workspace, path)
	if !ok {
		return
	}
	root, err := os.OpenRoot(ws)
	if err != nil {
		return
	}
	defer root.Close()
	mode, id, exists, err := landedBlob(root, filepath.FromSlash(rel), landed)
	if err != nil || !exists {
		return // nothing to attribute: a later change there is someone else's
	}
	key := writeKey{sessionID, shadowKey(workspace)}
	s.writesMu.Lock()
	prev, done := s.lastNote, make(chan struct{})
	s.lastNote = done
	s.writesMu.Unlock()
	go func() {
		defer close(done)
		blob := id()
		if prev != nil {
			<-prev // a later write of the same path must win
		}
		s.writesMu.Lock()
		defer s.writesMu.Unlock()
		if s.writes[key] == nil {
			s.writes[key] = map[string]string{}
		}
		s.writes[key][rel] = mode + " " + blob
	}()
}

// notesKept waits until every NoteWrite made so far has kept its write.
func (s *Service) notesKept() {
	s.writesMu.Lock()
	last := s.lastNote
	s.writesMu.Unlock()
	if last != nil {
		<-last
	}
}

// relInside returns path relative to workspace ('/'-separated), both with
// links resolved, when it lies inside it.
func relInside(workspace, path string) (ws, rel string, ok bool) {
	ws, err := filepath.EvalSymlinks(workspace)
	if err != nil {
		return "", "", false
	}
	dir, err := filepath.EvalSymlinks(filepath.Dir(path))
	if err != nil {
		return "", "", false
	}
	r, err := filepath.Rel(ws, filepath.Join(dir, filepath.Base(path)))
	if err != nil || r == "." || r == ".." || strings.HasPrefix(r, ".."+string(filepath.Separator)) || filepath.IsAbs(r) {
		return "", "", false
	}
	return ws, filepath.ToSlash(r), true
}

// pendingWrites is a copy of the writes not yet kept by a checkpoint.
func (s *Service) pendingWrites(session, shadow string) map[string]string {
	s.notesKept()
	s.writesMu.Lock()
	defer s.writesMu.Unlock()
	return maps.Clone(s.writes[writeKey{session, shadow}])
}

// keptWrites forgets the writes a captured checkpoint kept (a write noted
// meanwhile, with another blob, stays for the next one).
func (s *Service) keptWrites(session, shadow string, kept map[string]string) {
	s.writesMu.Lock()
	defer s.writesMu.Unlock()
	key := writeKey{session, shadow}
	for p, v := range kept {
		if s.writes[key][p] == v {
			delete(s.writes[key], p)
		}
	}
	if len(s.writes[key]) == 0 {
		delete(s.writes, key)
	}
}

// forgetWrites drops a session's pending writes (it is deleted).
func (s *Service) forgetWrites(session string) {
	s.notesKept()
	s.writesMu.Lock()
	defer s.writesMu.Unlock()
	for k := range s.writes {
		if k.session == session {
			delete(s.writes, k)
		}
	}
	for k := range s.befores {
		if k.session == session {
			delete(s.befores, k)
		}
	}
}

// beforeKey names the before-bash snapshot of one call.
type beforeKey struct{ session, shadow, turn, call string }

// beforeLine starts the line of an after-bash commit message that names
// the tree taken just before the command.
const beforeLine = "before-bash "

// markBefore keeps a before-bash snapshot for its call's after-bash; one
// not captured leaves nothing (the command's changes then count as
// someone else's: conflicts, never a silent overwrite).
func (s *Service) markBefore(key beforeKey, cp Checkpoint, tree, commit string, err error) Checkpoint {
	if err != nil {
		cp.Reason = "not captured: " + err.Error()
		s.opts.Log.Warn("before-bash snapshot not captured", "session", cp.SessionID, "workspace", cp.Workspace, "reason", cp.Reason)
		return cp
	}
	cp.Captured, cp.tree, cp.commit = true, tree, commit
	s.writesMu.Lock()
	defer s.writesMu.Unlock()
	s.befores[key] = parentRef{commit: commit, tree: tree}
	return cp
}

// takeBefore returns and forgets the before-bash snapshot of an
// after-bash checkpoint's call.
func (s *Service) takeBefore(key beforeKey, kind Kind) (parentRef, bool) {
	s.writesMu.Lock()
	defer s.writesMu.Unlock()
	if kind != BeforeBash && kind != AfterBash {
		return parentRef{}, false
	}
	b, ok := s.befores[key]
	delete(s.befores, key) // used, or replaced by a new before-bash
	return b, ok && kind == AfterBash
}

// parseBefore returns the before-bash tree an after-bash commit names.
func parseBefore(commit []byte) string {
	for line := range strings.SplitSeq(string(commit), "\n") {
		if t, ok := strings.CutPrefix(line, beforeLine); ok && len(t) == 40 {
			return t
		}
	}
	return ""
}

// writesLine starts each line of a commit message that keeps one write.
const writesLine = "wrote "

// formatWrites is the block of a commit message that keeps writes: one
// "wrote <mode> <blob> <quoted path>" line each, sorted.
func formatWrites(w map[string]string) string {
	var b strings.Builder
	for _, p := range slices.Sorted(maps.Keys(w)) {
		fmt.Fprintf(&b, "%s%s %s\n", writesLine, w[p], strconv.Quote(p))
	}
	return b.String()
}

// parseWrites reads the writes a commit (its raw object) keeps.
func parseWrites(commit []byte) map[string]string {
	out := map[string]string{}
	sc := bufio.NewScanner(strings.NewReader(string(commit)))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		rest, ok := strings.CutPrefix(sc.Text(), writesLine)
		if !ok {
			continue
		}
		parts := strings.SplitN(rest, " ", 3)
		if len(parts) != 3 {
			continue
		}
		p, err := strconv.Unquote(parts[2])
		if err != nil {
			continue
		}
		out[p] = parts[0] + " " + parts[1]
	}
	return out
}

// wholeAgent reports whether everything that changed between consecutive
// checkpoints a and b was the agent's (see the rule above).
func wholeAgent(a, b Checkpoint) bool {
	switch b.Kind {
	case AfterBash:
		return a.Kind == BeforeFirstMutation && a.ToolCallID == b.ToolCallID && a.TurnID == b.TurnID
	case AfterRestore:
		return a.Kind == BeforeRestore
	}
	return false
}

// span is a stretch of a session's history: what changed from tree from
// to tree to was the agent's whole, or the agent's only where wrote says.
type span struct {
	from, to string
	whole    bool
	wrote    map[string]string
}

// changedByOthers returns the paths of want that someone other than the
// agent changed after checkpoint from, up to tree now ("" when the
// session's latest checkpoint is now); pending are the agent's writes not
// yet kept by a checkpoint (those of the stretch up to now).
func (s *Service) changedByOthers(ctx context.Context, sh *shadow, from Checkpoint, now string, pending map[string]string, want map[string]bool) (map[string]bool, error) {
	chain, err := s.chainFrom(ctx, from)
	if err != nil || len(chain) == 0 || len(want) == 0 {
		return nil, err
	}
	// The commits that end a stretch not wholly the agent's keep its
	// writes (and, after a command, the tree just before it).
	var commits []string
	for i := 0; i+1 < len(chain); i++ {
		if a, b := chain[i], chain[i+1]; a.tree != b.tree && !wholeAgent(a, b) {
			commits = append(commits, b.commit)
		}
	}
	raw, err := sh.readBlobs(ctx, realIDs(commits), 1<<20)
	if err != nil {
		return nil, err
	}
	var spans []span
	for i := 0; i+1 < len(chain); i++ {
		a, b := chain[i], chain[i+1]
		switch {
		case a.tree == b.tree:
		case wholeAgent(a, b):
			spans = append(spans, span{from: a.tree, to: b.tree, whole: true})
		default:
			wrote := parseWrites(raw[b.commit])
			if t := parseBefore(raw[b.commit]); t != "" && b.Kind == AfterBash {
				spans = append(spans, span{from: a.tree, to: t, wrote: wrote}, span{from: t, to: b.tree, whole: true})
			} else {
				spans = append(spans, span{from: a.tree, to: b.tree, wrote: wrote})
			}
		}
	}
	if last := chain[len(chain)-1]; now != "" {
		spans = append(spans, span{from: last.tree, to: now, wrote: pending})
	}
	// What changed in each stretch that was not wholly the agent's: one
	// diff-tree for all of them.
	var pairs strings.Builder
	var asked []span
	for _, sp := range spans {
		if !sp.whole && sp.from != sp.to {
			fmt.Fprintf(&pairs, "%s %s\n", sp.from, sp.to)
			asked = append(asked, sp)
		}
	}
	if len(asked) == 0 {
		return nil, nil
	}
	out, err := sh.run(ctx, strings.NewReader(pairs.String()), "diff-tree", "--stdin", "-r", "-z", "--raw", "--no-renames", "--no-ext-diff", "--no-textconv")
	if err != nil {
		return nil, err
	}
	groups, err := parseStdinRaw(out)
	if err != nil {
		return nil, err
	}
	if len(groups) != len(asked) {
		return nil, fmt.Errorf("checkpoint: diff-tree answered %d stretches of %d", len(groups), len(asked))
	}
	others := map[string]bool{}
	for i, sp := range asked {
		for _, d := range groups[i] {
			if want[d.path] && (d.toMode == modeNone || sp.wrote[d.path] != d.toMode+" "+d.toBlob) {
				others[d.path] = true
			}
		}
	}
	return others, nil
}

// parseStdinRaw reads `git diff-tree --stdin -z --raw` given pairs of
// trees: for each pair a "<tree> <tree>\n" line, then its entries.
func parseStdinRaw(out string) ([][]entryDiff, error) {
	var groups [][]entryDiff
	for len(out) > 0 {
		if out[0] != ':' {
			nl := strings.IndexByte(out, '\n')
			if nl < 0 {
				return nil, fmt.Errorf("checkpoint: unexpected diff-tree output %q", out)
			}
			groups = append(groups, nil)
			out = out[nl+1:]
			continue
		}
		if len(groups) == 0 {
			return nil, fmt.Errorf("checkpoint: diff-tree entry before its trees")
		}
		head, rest, ok := strings.Cut(out, "\x00")
		path, rest2, ok2 := strings.Cut(rest, "\x00")
		if !ok || !ok2 {
			return nil, fmt.Errorf("checkpoint: truncated diff-tree entry %q", head)
		}
		list, err := parseRaw(head + "\x00" + path + "\x00")
		if err != nil {
			return nil, err
		}
		groups[len(groups)-1] = append(groups[len(groups)-1], list...)
		out = rest2
	}
	return groups, nil
}
