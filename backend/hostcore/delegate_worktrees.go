package hostcore

import (
	"cmp"
	"context"
	"slices"
	"strings"
	"sync"

	"github.com/pi-desktop/pi-desktop/backend/agent"
	"github.com/pi-desktop/pi-desktop/backend/errs"
	"github.com/pi-desktop/pi-desktop/backend/session"
	"github.com/pi-desktop/pi-desktop/backend/worktree"
)

// Isolated delegates (spec §10.2): in an isolated session, a delegate whose
// tools include Write or Edit works in a worktree of its own, branched from
// a checkpoint of the session's worktree, and every call carrying its
// delegation id is rooted there by bindFor. When it finishes its work is
// merged back into the session's files (done) or kept on its branch
// (conflict, failure, stop).

// delegateWorktrees remembers which running delegations have a worktree of
// their own, keyed by session and delegation id, with their project.
type delegateWorktrees struct {
	mu   sync.Mutex
	byID map[string]string // session "\x00" delegation -> project path
}

func delegateKey(sessionID, delegationID string) string { return sessionID + "\x00" + delegationID }

func (d *delegateWorktrees) add(sessionID, delegationID, project string) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.byID == nil {
		d.byID = map[string]string{}
	}
	d.byID[delegateKey(sessionID, delegationID)] = project
}

func (d *delegateWorktrees) project(sessionID, delegationID string) (string, bool) {
	if delegationID == "" {
		return "", false
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	p, ok := d.byID[delegateKey(sessionID, delegationID)]
	return p, ok
}

func (d *delegateWorktrees) remove(sessionID, delegationID string) {
	d.mu.Lock()
	defer d.mu.Unlock()
	delete(d.byID, delegateKey(sessionID, delegationID))
}

// writes reports whether a delegate with these tools may change files with
// the file tools (Bash-only and read-only delegates share the session's root).
func writes(tools []string) bool {
	return slices.Contains(tools, agent.ToolWrite) || slices.Contains(tools, agent.ToolEdit)
}

// IsolateDelegate gives a writing delegate of an isolated session its own
// worktree (agent.DelegateIsolator). A delegate of a non-isolated session,
// or one that cannot write files, shares the session's root.
func (h agentHost) IsolateDelegate(ctx context.Context, sessionID, delegationID string, tools []string) (agent.Isolation, error) {
	if !writes(tools) {
		return agent.Isolation{}, nil
	}
	c := h.c
	b, _, err := c.workspace(ctx, sessionID) // an isolated session's worktree must be usable
	if err != nil || !b.Session.Isolated {
		return agent.Isolation{}, err
	}
	if !c.enter() {
		return agent.Isolation{}, errs.New(errs.ToolAborted, "PI-Desktop is shutting down; the delegate was not started")
	}
	defer c.life.calls.Done()
	dw, err := c.worktrees.CreateDelegate(ctx, b.Project, sessionID, delegationID)
	if err != nil {
		return agent.Isolation{}, err
	}
	c.delegateWorktrees.add(sessionID, delegationID, b.Project)
	return agent.Isolation{Branch: dw.Branch, Workspace: dw.Root}, nil
}

// SettleDelegate ends a delegate's worktree (agent.DelegateIsolator): its
// work is committed on its branch, merged into the session's files when it
// finished done, and the branch is kept when that did not happen cleanly.
// The merge runs as a mutation of the session, so none of its own edits
// lands halfway. While PI-Desktop shuts down, or when the session cannot
// take the merge now, the work is still committed on its branch, never
// merged: the report then names a branch that holds it.
func (h agentHost) SettleDelegate(ctx context.Context, sessionID, delegationID, state, title string) (agent.Settlement, error) {
	c := h.c
	project, ok := c.delegateWorktrees.project(sessionID, delegationID)
	if !ok {
		return agent.Settlement{}, nil
	}
	defer c.delegateWorktrees.remove(sessionID, delegationID) // no call of it comes after
	branch := worktree.DelegateBranchName(sessionID, delegationID)
	kept := agent.Settlement{MergeState: agent.MergeKept, Branch: branch}
	merge, why := state == agent.DelegationDone, ""
	if c.enter() {
		defer c.life.calls.Done()
	} else {
		merge, why = false, "PI-Desktop was shutting down"
	}
	if merge {
		done, err := c.admission.admit(ctx, sessionID, nil, true)
		if err != nil {
			merge, why = false, "the session could not take the merge: "+errs.ToPayload(err).Message
		} else {
			defer done()
		}
	}
	out, err := c.worktrees.FinishDelegate(ctx, project, sessionID, delegationID, title, merge)
	if err != nil {
		return kept, err
	}
	st := agent.Settlement{Branch: out.Branch, Commit: out.Commit, Base: out.Base, Files: out.Files, MoreFiles: out.MoreFiles, Reason: cmp.Or(out.Reason, why)}
	switch out.State {
	case worktree.DelegateMerged:
		st.MergeState = agent.MergeMerged
	case worktree.DelegateUnchanged:
		st.MergeState = agent.MergeUnchanged
	case worktree.DelegateConflict:
		st.MergeState = agent.MergeConflict
	default:
		st.MergeState = agent.MergeKept
	}
	return st, nil
}

// recheckDelegateRoot fails when the call is an isolated delegate's and its
// worktree is no longer usable (nil for every other call).
func (c *Core) recheckDelegateRoot(sessionID, delegationID string) error {
	project, ok := c.delegateWorktrees.project(sessionID, delegationID)
	if !ok {
		return nil
	}
	_, err := c.worktrees.VerifyDelegate(project, sessionID, delegationID)
	return err
}

// delegateBinding roots a delegate's call in its own worktree when it has
// one: the workspace and PI_WORKTREE_ROOT become the delegate's. A worktree
// that is missing or was replaced fails the call; it never falls back to
// the session's root.
func (c *Core) delegateBinding(sessionID, delegationID string, b session.Binding, env []string) (session.Binding, []string, error) {
	project, ok := c.delegateWorktrees.project(sessionID, delegationID)
	if !ok {
		return b, env, nil
	}
	dw, err := c.worktrees.VerifyDelegate(project, sessionID, delegationID)
	if err != nil {
		return session.Binding{}, nil, err
	}
	b.Workspace = dw.Root
	out := make([]string, 0, len(env))
	for _, kv := range env {
		if !strings.HasPrefix(kv, worktree.EnvWorktreeRoot+"=") {
			out = append(out, kv)
		}
	}
	return b, append(out, worktree.EnvWorktreeRoot+"="+dw.Root), nil
}
