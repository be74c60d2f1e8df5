// Package worktree gives isolated sessions their own git worktree (spec
// §4e) and runs every git command the host needs through a hardened runner.
//
//   - Git runs git with repository hooks and fsmonitor disabled, external
//     diff and textconv off for diffs, a scrubbed environment, a timeout and
//     bounded output. Use it for every host-run git command, including a
//     workspace diff collector in non-isolated sessions.
//   - Manager creates a session's worktree at <base>/<project-key>/<id> on
//     branch pi-desktop/<id> from the project's HEAD (copying the ignored
//     files listed in .worktreeinclude, never through a link), verifies it
//     before use (WORKTREE_MISSING when it, or a folder on its way, is gone
//     or a link), previews and performs "Merge into project" (sync the
//     project branch into the worktree, then fast-forward the project only),
//     and removes it with its branch (a link is removed as a link).
//   - Ports hands out PI_PORT blocks; Env and SetupFor give the variables and
//     the setup command a session's commands run with.
//
// The package holds no global state: everything hangs off a Manager built by
// the composition root. Methods take ctx first and never store it.
package worktree
