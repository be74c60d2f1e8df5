package shells

import (
	"context"
	"errors"
	"io"
)

// probeDirect is never reached: the probe is skipped on Windows.
func probeDirect(context.Context, string, []string, io.Writer) error {
	return errors.New("no login-shell probe on Windows")
}
