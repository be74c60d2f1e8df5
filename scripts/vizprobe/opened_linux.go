package main

import (
	"fmt"
	"os"
	"syscall"
	"time"
	"unsafe"
)

// waitOpened returns once file is opened by any process (the app serving the
// card), or fails after timeout: the probe's proof that the fragment was
// served at all, so an unchanged database means blocked, not never run.
func waitOpened(file string, timeout time.Duration) error {
	fd, err := syscall.InotifyInit1(syscall.IN_CLOEXEC | syscall.IN_NONBLOCK)
	if err != nil {
		return err
	}
	defer syscall.Close(fd)
	if _, err := syscall.InotifyAddWatch(fd, file, syscall.IN_OPEN); err != nil {
		return err
	}
	fmt.Println("watching")
	os.Stdout.Sync()
	buf := make([]byte, 4096)
	for end := time.Now().Add(timeout); time.Now().Before(end); time.Sleep(50 * time.Millisecond) {
		n, err := syscall.Read(fd, buf)
		if n >= syscall.SizeofInotifyEvent {
			ev := (*syscall.InotifyEvent)(unsafe.Pointer(&buf[0]))
			if ev.Mask&syscall.IN_OPEN != 0 {
				return nil
			}
		}
		if err != nil && err != syscall.EAGAIN {
			return err
		}
	}
	return fmt.Errorf("%s was not opened within %s: the card never loaded", file, timeout)
}
