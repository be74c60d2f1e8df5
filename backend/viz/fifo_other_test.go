//go:build !unix

package viz

import "errors"

func mkfifo(string) error { return errors.ErrUnsupported }
