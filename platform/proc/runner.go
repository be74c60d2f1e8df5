package proc

import "os"

// RunnerMain is the runner's entry point (see RunnerArg). It reads the
// command from stdin, runs it in a tree it owns, and exits with the
// command's status once no process of the tree is left. Any byte on stdin,
// or its EOF (the host died), kills the tree.
func RunnerMain(args []string) int {
	if len(args) < 1 {
		_, _ = os.Stderr.WriteString("pi runner: internal subcommand; not for direct use\n")
		return 2
	}
	stf, err := openAttached(args[0], "status")
	if err != nil {
		_, _ = os.Stderr.WriteString("pi runner: " + err.Error() + "\n")
		return 2
	}
	st := &statusWriter{w: stf}
	var stdin *os.File // nil: the null device
	if len(args) > 1 {
		if stdin, err = openAttached(args[1], "stdin"); err != nil {
			st.send(status{SpawnErr: "runner: " + err.Error()})
			return 125
		}
	}
	h, err := readHeader(os.Stdin)
	if err != nil {
		st.send(status{SpawnErr: "runner: read the command: " + err.Error()})
		return 125
	}
	return runTree(h, st, stdin)
}

// watchKill closes the returned channel on the first byte or EOF on stdin.
func watchKill() <-chan struct{} {
	ch := make(chan struct{})
	go func() {
		var b [1]byte
		_, _ = os.Stdin.Read(b[:])
		close(ch)
	}()
	return ch
}
