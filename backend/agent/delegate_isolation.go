package agent

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/pi-desktop/pi-desktop/backend/truncate"
)

// maxFileListChars bounds the file list of a settlement note, so the note
// always fits in a report with room to spare.
const maxFileListChars = 2_000

// maxReasonChars bounds why a merge was blocked, as the note says it.
const maxReasonChars = 300

// Isolated delegates (spec §10.2): in an isolated session, a delegate whose
// tools include Write or Edit works in a worktree of its own, merged back
// when it finishes. The host decides and does the git work; the runtime
// asks for it at spawn, names the delegate's root in its prompt, settles it
// when the loop ends and tells the parent in the report how it came back.

// Merge states of a delegation (Delegation.MergeState); "" means it shared
// the session's root (or has not finished).
const (
	MergeMerged    = "merged"    // its changes are in the session's files
	MergeUnchanged = "unchanged" // it changed nothing
	MergeConflict  = "conflict"  // its branch is kept: it conflicts with the session's files
	MergeKept      = "kept"      // its branch is kept: it failed, stopped or was interrupted, or the merge was blocked
)

// DelegateIsolator is the host's seam for isolated delegates. A Host that
// does not implement it runs every delegate in the session's root.
type DelegateIsolator interface {
	// IsolateDelegate gives a delegate whose tools include Write or Edit a
	// worktree of its own when the session is isolated, and from then on
	// roots every call carrying its DelegationID there (a missing worktree
	// fails the call, never falling back). Isolation.Branch is "" when the
	// delegate shares the session's root. An error means it must not start.
	IsolateDelegate(ctx context.Context, sessionID, delegationID string, tools []string) (Isolation, error)
	// SettleDelegate ends an isolated delegate's worktree once its loop
	// ended in state: its work is committed on its branch (title is the
	// commit message) and, when state is done, merged into the session's
	// files. A delegate that was not isolated settles to the zero value.
	SettleDelegate(ctx context.Context, sessionID, delegationID, state, title string) (Settlement, error)
}

// Isolation is where an isolated delegate works.
type Isolation struct {
	Branch    string `json:"branch"`    // "" = the session's root
	Workspace string `json:"workspace"` // its root inside its worktree
}

// Settlement is how an isolated delegate's work came back.
type Settlement struct {
	MergeState string   `json:"mergeState"` // "" when it was not isolated
	Branch     string   `json:"branch"`
	Commit     string   `json:"commit,omitempty"`
	Base       string   `json:"base,omitempty"`  // the checkpoint it started from: Base..Branch is its work
	Files      []string `json:"files,omitempty"` // merged, or in conflict
	MoreFiles  int      `json:"moreFiles,omitempty"`
	Reason     string   `json:"reason,omitempty"` // why a merge was blocked or failed
}

// isolateDelegate asks the host for s's worktree (tools are resolved) and
// roots r's prompt there.
func (a *Agent) isolateDelegate(ctx context.Context, sessionID string, s *delegateScope, r *run) error {
	iso, ok := a.host.(DelegateIsolator)
	if !ok {
		return nil
	}
	got, err := iso.IsolateDelegate(ctx, sessionID, s.id, s.allowed)
	if err != nil || got.Branch == "" {
		return err
	}
	s.branch = got.Branch
	r.info.Workspace = got.Workspace
	return nil
}

// isolationPrompt tells an isolated delegate where its work goes.
func isolationPrompt(branch string) string {
	if branch == "" {
		return ""
	}
	return "\n# Your worktree\nYou work in a git worktree of your own (branch " + branch + "), so the session's files do not change under you. " +
		"When you finish, PI-Desktop commits your changes and merges them into the session's workspace; do not commit or switch branches yourself.\n"
}

// settleDelegate settles s's worktree after its loop ended in state, records
// the outcome on s, and returns the note for its report ("" when there is
// nothing to say).
func (a *Agent) settleDelegate(ctx context.Context, s *delegateScope, state string) string {
	iso, ok := a.host.(DelegateIsolator)
	if !ok || s.branch == "" {
		return ""
	}
	title := "PI-Desktop delegate " + s.name
	if desc := oneLine(s.d.Description, maxSummaryChars); desc != "" {
		title += ": " + desc
	}
	got, err := iso.SettleDelegate(ctx, s.d.SessionID, s.id, state, title)
	if err != nil {
		got = Settlement{MergeState: MergeKept, Branch: s.branch, Reason: err.Error()}
	}
	s.mu.Lock()
	s.d.MergeState = got.MergeState
	s.mu.Unlock()
	return settlementNote(got, state)
}

// abandonIsolation removes the worktree of a delegate that never started.
func (a *Agent) abandonIsolation(ctx context.Context, s *delegateScope) {
	if iso, ok := a.host.(DelegateIsolator); ok && s.branch != "" {
		_, _ = iso.SettleDelegate(context.WithoutCancel(ctx), s.d.SessionID, s.id, DelegationFailed, "PI-Desktop delegate "+s.name)
	}
}

// settlementNote is what the parent reads after the report.
func settlementNote(st Settlement, state string) string {
	if st.MergeState == MergeKept && st.Commit == "" {
		// Nothing was committed (the settle failed first): the branch is only
		// the checkpoint, and the work is where the delegate left it.
		why := st.Reason
		if why == "" {
			why = "no reason given"
		}
		return "\n\n[PI-Desktop could not commit this delegate's changes (" + oneLine(why, maxReasonChars) +
			"); nothing was merged. They are uncommitted in its worktree for branch " + st.Branch +
			" (`git worktree list` shows the folder): commit there and apply them, or start a new Task that says what is left.]"
	}
	base := st.Base
	if base == "" {
		base = st.Commit + "~1" // its one commit sits on the checkpoint
	}
	resume := fmt.Sprintf("`git diff %[1]s %[2]s` shows them; `git diff %[1]s %[2]s | git apply` brings them into the session's files "+
		"(it changes nothing when they do not apply), and `git checkout %[2]s -- <path>` takes one file whole. Or start a new Task that redoes the work on the current files.",
		base, st.Branch)
	switch st.MergeState {
	case MergeMerged:
		return "\n\n[PI-Desktop merged this delegate's changes into the session's workspace: " + fileList(st.Files, st.MoreFiles) + ".]"
	case MergeConflict:
		return "\n\n[PI-Desktop did not merge this delegate's changes: they conflict with the session's own edits in " + fileList(st.Files, st.MoreFiles) +
			". The session's files were not changed. The delegate's changes are kept on branch " + st.Branch + ": " + resume + "]"
	case MergeKept:
		why := "the delegate " + state + " before it finished, so its changes were not merged"
		if state == DelegationDone {
			why = "the merge was blocked (" + oneLine(st.Reason, maxReasonChars) + ")"
		}
		return "\n\n[PI-Desktop kept this delegate's changes on branch " + st.Branch + ": " + why + ". " + resume + "]"
	}
	return ""
}

// isolationSummary is TaskList's word on an isolated delegate's worktree
// ("" for one that shared the session's root).
func isolationSummary(d Delegation) string {
	if d.Branch == "" {
		return ""
	}
	switch d.MergeState {
	case MergeMerged:
		return "; its changes were merged into the session's workspace"
	case MergeUnchanged:
		return "; it changed no file"
	case MergeConflict:
		return "; its changes conflict with the session's and are kept on branch " + d.Branch + " (its report says how to resume)"
	case MergeKept:
		return "; its changes were not merged and are kept on branch " + d.Branch + " (its report says how to resume)"
	}
	return "; works in its own worktree on branch " + d.Branch
}

func fileList(files []string, more int) string {
	if len(files) == 0 {
		return "no files"
	}
	s := truncate.RunesEllipsis(strings.Join(files, ", "), maxFileListChars)
	if more > 0 {
		s += fmt.Sprintf(" and %d more", more)
	}
	return s
}

// reportWithNote appends note to report, cutting the report (never the
// note, which tells the parent where the work is) to keep both within
// MaxReportChars.
func reportWithNote(report, note string) string {
	if note == "" {
		return report
	}
	room := MaxReportChars - utf8.RuneCountInString(note)
	if utf8.RuneCountInString(report) <= room {
		return report + note
	}
	marker := fmt.Sprintf("\n[report cut at %d characters to keep the note below]", room)
	return truncate.Runes(report, room-utf8.RuneCountInString(marker)) + marker + note
}

// markIsolatedInterrupted, in the restart's transaction before delegations
// become interrupted, says of each isolated one that its worktree and
// branch are kept with whatever it had done.
func markIsolatedInterrupted(ctx context.Context, tx *sql.Tx) error {
	_, err := tx.ExecContext(ctx,
		`UPDATE delegations SET merge_state = 'kept', report = report || ? || worktree_branch || ?
		 WHERE state IN ('running', 'waiting') AND worktree_branch != ''`,
		"\n\n[PI-Desktop stopped while this delegate worked in its own worktree; nothing was merged. Its worktree and branch ",
		" are kept as it left them (`git worktree list` shows the folder): commit there and apply its changes, or start a new Task that says what is left.]")
	return err
}
