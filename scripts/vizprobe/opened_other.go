//go:build !linux

package main

import (
	"errors"
	"time"
)

func waitOpened(string, time.Duration) error {
	return errors.New("the probe watches the fragment with inotify: run it on Linux")
}
