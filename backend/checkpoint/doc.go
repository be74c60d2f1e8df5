// Package checkpoint keeps shadow-git checkpoints of a session's workspace
// so that everything a turn changed, Bash included, can be previewed and
// restored (issue 20), beside the message-owned review records of §4c.
//
// Each workspace (a project folder or an isolated session's worktree) has a
// shadow repository under <data dir>/checkpoints/<hash of the folder>/: a
// git directory and a private index of its own. git is only ever run with
// GIT_DIR, GIT_WORK_TREE and GIT_INDEX_FILE pointing there, through the
// hardened worktree.Git (no hooks, no fsmonitor, no global or system
// configuration, no attributes: the shadow's info/attributes unsets
// text/eol/filter/ident/diff for every path, and its own configuration
// names no filter or diff driver). The user's own .git is only read (its
// info/exclude), never written, and never used as GIT_DIR: the workspace
// need not be a repository at all.
//
// A snapshot asks git which paths differ from the shadow index (ls-files
// with the project's ignore rules and the shadow excludes), feeds those to
// update-index, then write-tree and commit-tree: the cost is one walk of
// the folder like `git add -A`. A snapshot that would take longer than its
// cap (3 s) is abandoned, its git killed with its process group, and the
// checkpoint is recorded as not captured.
//
// A restore lists every file that differs from the checkpoint; those
// someone other than the agent changed after it (the user's editor, even
// between two tool calls of a turn; another session) are conflicts, kept
// unless overwrite. To tell the agent's changes apart, a before-bash
// snapshot is taken before each command (its tree is kept in the call's
// after-bash commit) and the host notes the files its Write and Edit calls
// wrote (NoteWrite); attribution.go states the rule exactly.
//
// A restore writes the files itself (blobs read with cat-file, which runs
// no filter) under an os.Root of the workspace, so no path can escape it
// through a link and no smudge filter or checkout hook ever runs.
package checkpoint
