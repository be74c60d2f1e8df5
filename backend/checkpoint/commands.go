package checkpoint

import (
	"context"
	"path/filepath"
)

// Statuses of a file a command changed.
const (
	StatusAdded    = "added"
	StatusModified = "modified" // content, mode or kind (file/link) differs
	StatusDeleted  = "deleted"
)

// CommandFile is one file a command changed: what it was before the call
// and after it.
type CommandFile struct {
	Path   string `json:"path"` // workspace-relative, '/'-separated
	Status string `json:"status"`
	// ModeBefore and ModeAfter are git modes ("" when absent).
	ModeBefore string `json:"modeBefore,omitempty"`
	ModeAfter  string `json:"modeAfter,omitempty"`
	// Diff is the unified diff from before to after (Note says why there
	// is none: binary, too large, a link).
	Diff      string `json:"diff,omitempty"`
	Note      string `json:"note,omitempty"`
	Additions int    `json:"additions"`
	Deletions int    `json:"deletions"`
}

// CommandChange is what one Bash call changed in the workspace: the
// difference between its after-bash checkpoint and the session's captured
// checkpoint before it. When the call was not captured, Captured is false
// with the reason and no file is known.
type CommandChange struct {
	CheckpointID string        `json:"checkpointId"`
	TurnID       string        `json:"turnId,omitempty"`
	MessageID    string        `json:"messageId,omitempty"`
	ToolCallID   string        `json:"toolCallId,omitempty"`
	Captured     bool          `json:"captured"`
	Reason       string        `json:"reason,omitempty"`
	CreatedAt    int64         `json:"createdAt"` // Unix milliseconds
	Files        []CommandFile `json:"files"`
	// Since is the session's captured checkpoint before the call: restoring
	// to it undoes the command ("" when there is none). The files are
	// compared with the snapshot taken just before the command when there
	// is one, so a Write or Edit between Since and the call is not listed
	// as the command's; without it (not captured) they are compared with
	// Since.
	Since string `json:"since,omitempty"`
	// Truncated: more than MaxCommandFiles files changed; Files lists the
	// first of them.
	Truncated bool `json:"truncated,omitempty"`
}

// MaxCommandFiles bounds the files listed per command (each carries a diff).
const MaxCommandFiles = 200

// CommandChanges lists, oldest first, what each of the session's Bash
// calls changed (only calls that changed something, or whose checkpoint
// was not captured), each file with its diff. It reads the shadow
// repositories only: no file of the workspace is touched.
func (s *Service) CommandChanges(ctx context.Context, sessionID string) ([]CommandChange, error) {
	afters, err := s.query(ctx, `SELECT `+columns+` FROM checkpoints WHERE session_id = ? AND kind = ? AND (captured = 0 OR files_changed > 0)
		ORDER BY seq`, sessionID, string(AfterBash))
	if err != nil {
		return nil, err
	}
	befores, err := s.beforeTrees(ctx, afters)
	if err != nil {
		return nil, err
	}
	out := make([]CommandChange, 0, len(afters))
	for _, cp := range afters {
		c := CommandChange{CheckpointID: cp.ID, TurnID: cp.TurnID, MessageID: cp.MessageID, ToolCallID: cp.ToolCallID,
			Captured: cp.Captured, Reason: cp.Reason, CreatedAt: cp.CreatedAt, Files: []CommandFile{}}
		if cp.Captured {
			prev, err := s.capturedBefore(ctx, cp)
			if err != nil {
				return nil, err
			}
			c.Since = prev.ID
			from := prev.tree
			if t := befores[cp.ID]; t != "" {
				from = t
			}
			if c.Files, c.Truncated, err = s.filesBetween(ctx, cp, from); err != nil {
				return nil, err
			}
			if len(c.Files) == 0 {
				continue // the snapshot saw paths it then found unchanged
			}
		}
		out = append(out, c)
	}
	return out, nil
}

// beforeTrees maps each captured after-bash checkpoint to the tree its
// commit names as taken just before the command ("" when none was
// captured), reading the commits of each shadow in one batch.
func (s *Service) beforeTrees(ctx context.Context, afters []Checkpoint) (map[string]string, error) {
	byShadow := map[string][]Checkpoint{}
	for _, cp := range afters {
		if cp.Captured && cp.commit != "" {
			byShadow[cp.shadow] = append(byShadow[cp.shadow], cp)
		}
	}
	out := map[string]string{}
	for name, cps := range byShadow {
		sh := &shadow{git: s.git, workspace: cps[0].Workspace, dir: filepath.Join(s.dir, name)}
		ids := make([]string, len(cps))
		for i, cp := range cps {
			ids[i] = cp.commit
		}
		raw, err := sh.readBlobs(ctx, realIDs(ids), 1<<20)
		if err != nil {
			return nil, err
		}
		for _, cp := range cps {
			out[cp.ID] = parseBefore(raw[cp.commit])
		}
	}
	return out, nil
}

// capturedBefore is the session's newest captured checkpoint of cp's
// shadow taken before cp (zero when there is none).
func (s *Service) capturedBefore(ctx context.Context, cp Checkpoint) (Checkpoint, error) {
	list, err := s.query(ctx, `SELECT `+columns+` FROM checkpoints WHERE session_id = ? AND shadow = ? AND captured = 1
		AND seq < (SELECT seq FROM checkpoints WHERE id = ?) ORDER BY seq DESC LIMIT 1`, cp.SessionID, cp.shadow, cp.ID)
	if err != nil || len(list) == 0 {
		return Checkpoint{}, err
	}
	return list[0], nil
}

// emptyTree is git's id of the tree with nothing in it (SHA-1).
const emptyTree = "4b825dc642cb6eb9a060e54bf8d69288fbee4904"

// filesBetween diffs the tree before (emptyTree when "") with cp's.
func (s *Service) filesBetween(ctx context.Context, cp Checkpoint, before string) ([]CommandFile, bool, error) {
	if before == "" {
		before = emptyTree
	}
	sh := &shadow{git: s.git, workspace: cp.Workspace, dir: filepath.Join(s.dir, cp.shadow)}
	diffs, err := sh.diffTrees(ctx, before, cp.tree)
	if err != nil {
		return nil, false, err
	}
	var changes []FileChange
	var ids []string
	truncated := false
	for _, d := range diffs {
		if d.fromMode == modeGitlink || d.toMode == modeGitlink {
			continue
		}
		if len(changes) == MaxCommandFiles {
			truncated = true
			break
		}
		// FileChange's diff runs from "now" to "then": here from before to after.
		changes = append(changes, FileChange{Path: d.path, ModeNow: present(d.fromMode), ModeThen: present(d.toMode), nowBlob: d.fromBlob, thenBlob: d.toBlob})
		ids = append(ids, d.fromBlob, d.toBlob)
	}
	if len(changes) == 0 {
		return []CommandFile{}, false, nil
	}
	blobs, err := sh.readBlobs(ctx, realIDs(ids), s.opts.MaxFileSize)
	if err != nil {
		return nil, false, err
	}
	files := make([]CommandFile, 0, len(changes))
	for _, f := range changes {
		f.Action = ActionModify
		addDiff(&f, blobs)
		status := StatusModified
		switch {
		case f.ModeNow == "":
			status = StatusAdded
		case f.ModeThen == "":
			status = StatusDeleted
		}
		files = append(files, CommandFile{Path: f.Path, Status: status, ModeBefore: f.ModeNow, ModeAfter: f.ModeThen,
			Diff: f.Diff, Note: f.Note, Additions: f.Additions, Deletions: f.Deletions})
	}
	return files, truncated, nil
}
