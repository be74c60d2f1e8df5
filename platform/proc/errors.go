package proc

import (
	"errors"
	"fmt"
	"syscall"
)

// exhaustedError keeps the OS error and matches ErrResourceExhausted.
type exhaustedError struct{ err error }

func (e *exhaustedError) Error() string {
	return fmt.Sprintf("%v (the OS is out of process resources; retry later)", e.err)
}
func (e *exhaustedError) Unwrap() []error { return []error{ErrResourceExhausted, e.err} }

// classifySpawnError wraps err so that it matches ErrResourceExhausted when
// its errno says the OS ran out of processes, threads, memory or handles.
func classifySpawnError(err error) error {
	if err == nil {
		return nil
	}
	var errno syscall.Errno
	if errors.As(err, &errno) && isExhausted(errno) {
		return &exhaustedError{err: err}
	}
	return err
}

// spawnErrno rebuilds the runner's spawn error.
func spawnErrno(st status) error {
	if st.Errno != 0 {
		return syscall.Errno(st.Errno)
	}
	return errors.New(st.SpawnErr)
}

// spawnStatus turns the runner's spawn error into a status line.
func spawnStatus(err error) status {
	st := status{SpawnErr: err.Error()}
	var errno syscall.Errno
	if errors.As(err, &errno) {
		st.Errno = uint64(errno)
	}
	return st
}
