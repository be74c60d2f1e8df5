-- Isolated delegates (issue 16, spec §10.2): a delegate of an isolated session
-- whose tools include Write or Edit works in its own worktree, on branch
-- worktree_branch ('' = it shared the session's root). merge_state says how
-- its work came back: '' (not isolated, or still running), merged (in the
-- session's files), unchanged (it changed nothing), conflict (its branch is
-- kept: it conflicts with the session's files), kept (its branch is kept:
-- it failed, was stopped or interrupted, or the merge was blocked).
ALTER TABLE delegations ADD COLUMN worktree_branch TEXT NOT NULL DEFAULT '';
ALTER TABLE delegations ADD COLUMN merge_state TEXT NOT NULL DEFAULT ''
    CHECK (merge_state IN ('', 'merged', 'unchanged', 'conflict', 'kept'));
