package store_test

import (
	"context"
	"fmt"
	"io"
	"os"
	"testing"

	"github.com/pi-desktop/pi-desktop/backend/store"
)

// envOpen makes this test binary a child that opens the database it names
// once its standard input closes (the start signal), then exits 0 or 1.
const envOpen = "PI_STORE_TEST_OPEN"

func TestMain(m *testing.M) {
	if file := os.Getenv(envOpen); file != "" {
		_, _ = io.Copy(io.Discard, os.Stdin)
		s, err := store.Open(context.Background(), file, store.Options{})
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		_ = s.Close()
		os.Exit(0)
	}
	os.Exit(m.Run())
}
