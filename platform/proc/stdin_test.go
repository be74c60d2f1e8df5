//go:build linux || darwin

package proc

import (
	"bytes"
	"errors"
	"io"
	"testing"
)

func TestStdinPipe(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		pipe bool
		want string
	}{
		// cat echoes what the host writes, and ends at the EOF of Close.
		{"pipe", true, "hello\nworld\n"},
		// Without StdinPipe the command reads the null device: EOF at once.
		{"null device", false, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var out bytes.Buffer
			p, err := Start(t.Context(), Spec{Path: "/bin/cat", Stdout: &out, StdinPipe: tt.pipe})
			if err != nil {
				t.Fatal(err)
			}
			if in := p.Stdin(); tt.pipe {
				if in == nil {
					t.Fatal("Stdin() = nil with StdinPipe")
				}
				if _, err := io.WriteString(in, tt.want); err != nil {
					t.Fatal(err)
				}
				if err := in.Close(); err != nil {
					t.Fatal(err)
				}
			} else if in != nil {
				t.Fatal("Stdin() != nil without StdinPipe")
			}
			if code, err := p.Wait(); code != 0 || err != nil {
				t.Fatalf("Wait = %d, %v", code, err)
			}
			if out.String() != tt.want {
				t.Errorf("stdout = %q, want %q", out.String(), tt.want)
			}
		})
	}
}

// Killing the tree while the host still holds the stdin pipe open ends the
// command, and a later write fails instead of blocking.
func TestStdinPipeKill(t *testing.T) {
	t.Parallel()
	p, err := Start(t.Context(), Spec{Path: "/bin/cat", StdinPipe: true})
	if err != nil {
		t.Fatal(err)
	}
	_ = p.Kill()
	if _, err := p.Wait(); !errors.Is(err, ErrKilled) {
		t.Fatalf("Wait err = %v, want ErrKilled", err)
	}
	if _, err := io.WriteString(p.Stdin(), "late\n"); err == nil {
		t.Error("write after the tree ended succeeded")
	}
}
