// Package proc runs a command in a process tree the host owns, so that
// timeout, abort and app shutdown terminate the whole tree before the call
// returns, descendants that setsid, double-fork, disown, nohup or hold the
// output pipes included.
//
// # Design: a runner per command
//
// Start runs a runner per command and hands it the command over its stdin.
// The runner is the small dedicated binary shipped next to the app
// (cmd/pi-desktop-runner, RunnerName; static, no app packages: it starts in
// about a millisecond and holds about 2 MB while the command runs), or, when
// that file is missing (dev builds, test binaries), the host binary itself
// re-executed with the hidden subcommand RunnerArg, which its main
// dispatches before anything else (DefaultRunner decides). The runner, not the host, owns the tree. This keeps os/exec in the
// host untouched (no subreaper flag or wait(-1) loop in a process that runs
// many unrelated children), gives every command its own owner, and makes
// host death observable: the runner's stdin is the host's pipe, so when the
// host dies, even by SIGKILL, the runner sees EOF and kills the tree.
//
// Protocol (host ↔ runner, wire.go): the host writes a versioned,
// length-prefixed header frame on the runner's stdin, then any byte (or EOF)
// is a kill request. The runner reports on a status pipe (fd 3 on Unix, an
// inherited handle on Windows) one frame with the shell's pid or its spawn
// error (errno preserved, so ErrResourceExhausted survives the hop), and a
// last frame with the exit status. The command's stdout and stderr are the runner's own, inherited
// by the shell; the host copies them to Spec.Stdout/Stderr and Wait returns
// only after both pipes reached EOF, which happens once no process of the
// tree is left, so nothing written is lost.
//
// Linux: the runner marks itself a child subreaper (PR_SET_CHILD_SUBREAPER),
// starts the shell in its own process group with stdin on /dev/null, and
// reaps every child with wait4(-1). Every orphan of the tree re-parents to
// the runner, so the tree is exactly the runner's descendants (found in
// /proc) and ECHILD means that none is left. On a kill request, or when the
// shell exits leaving descendants behind (a foreground command owns nothing
// after it returns; runInBackground is the way to keep processes), the
// runner sends SIGTERM (+SIGCONT) to the shell's group and every descendant,
// waits the grace period (2 s by default), then repeats SIGKILL until ECHILD.
// It exits only then, with the shell's status.
//
// Linux, where the session can create one (a delegated cgroup v2: systemd's
// user@UID.service and the scopes under it, or root): the host also makes
// an empty cgroup leaf per command beside its own processes, and the runner
// starts the shell in it (CLONE_INTO_CGROUP), so every process of the tree
// is born there. The runner's SIGKILL phase writes cgroup.kill too, and the
// host, once the runner has exited, kills whatever is left in the leaf and
// removes it: a runner that died by SIGKILL no longer lets setsid
// descendants escape (with the subreaper alone they do). Without a leaf
// (cgroup v1, no delegation, Linux before 5.14) the subreaper owns the tree
// as described.
//
// macOS has no subreaper: the runner tracks every descendant it has seen
// (pid + start time, 50 ms scans with sysctl kern.proc.all) and the shell's
// process group, and kills those. A process that double-forks and loses its
// parent between two scans can escape: best effort, documented.
//
// Windows: the host creates a kill-on-close Job Object, creates the runner
// with CREATE_NO_WINDOW (and CREATE_BREAKAWAY_FROM_JOB only when the job that
// contains the host grants JOB_OBJECT_LIMIT_BREAKAWAY_OK; otherwise the
// runner's job nests in the host's), assigns the runner to the job, and only
// then sends the header, so the shell and all its descendants are born in
// the job. Kill and the end of the shell terminate the job; host death closes
// the job handle, which kills it.
//
// The runner closes every inherited descriptor above stderr on exec and the
// host keeps a backstop (it kills the runner, and on Unix the shell's group,
// when the runner does not finish in time).
package proc
