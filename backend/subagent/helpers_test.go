package subagent_test

import (
	"context"
	"testing"
)

func context_(t *testing.T) (context.Context, context.CancelFunc) {
	return context.WithCancel(t.Context())
}
