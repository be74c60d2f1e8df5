package proc

import (
	"bytes"
	"reflect"
	"strings"
	"testing"
)

func TestWireRoundTrip(t *testing.T) {
	for _, h := range []header{
		{},
		{Path: "/bin/bash", Args: []string{"-lc", "echo 'a b' ✓"}, Dir: "/tmp/x y", Env: []string{"A=1", "B="}, GraceMs: 2000, Cgroup: "/sys/fs/cgroup/pi-run-1"},
		{Path: `C:\Windows\cmd.exe`, CmdLine: `"C:\Windows\cmd.exe" /d /s /c "dir"`, Args: []string{"", strings.Repeat("x", 300)}, GraceMs: -1},
	} {
		got, err := readHeader(bytes.NewReader(h.encode()))
		if err != nil || !reflect.DeepEqual(norm(got), norm(h)) {
			t.Errorf("header %+v came back as %+v, %v", h, got, err)
		}
	}
	three, zero := 3, 0
	for _, st := range []status{
		{Pid: 4242},
		{SpawnErr: "fork/exec /x: no such file", Errno: 2},
		{Exit: &three, Survivors: 2},
		{Exit: &zero, Signal: 9, Killed: true},
	} {
		got, err := readStatusFrame(bytes.NewReader(st.encode()))
		if err != nil || !reflect.DeepEqual(got, st) {
			t.Errorf("status %+v came back as %+v, %v", st, got, err)
		}
	}
}

// norm treats a nil and an empty list alike.
func norm(h header) header {
	if len(h.Args) == 0 {
		h.Args = nil
	}
	if len(h.Env) == 0 {
		h.Env = nil
	}
	return h
}

func TestWireRejects(t *testing.T) {
	good := header{Path: "/bin/sh", Args: []string{"-c", "true"}}.encode()
	other := append([]byte(nil), good...)
	other[4] = wireVersion + 1 // the version, first field of the payload
	for _, tc := range []struct {
		name  string
		frame []byte
		want  string
	}{
		{"another version", other, "install the " + RunnerName},
		{"truncated payload", good[:len(good)-2], "EOF"},
		{"length past the payload", append([]byte{0, 0, 0, 3}, 2, 0x7f, 1), "malformed"},
		{"trailing bytes", append(append([]byte{0, 0, 0, byte(len(good) - 4 + 1)}, good[4:]...), 0), "malformed"},
		{"too large", []byte{0xff, 0xff, 0xff, 0xff}, "too large"},
		{"varint overflow", append([]byte{0, 0, 0, 11}, bytes.Repeat([]byte{0xff}, 11)...), "malformed"},
	} {
		if _, err := readHeader(bytes.NewReader(tc.frame)); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: err = %v, want %q", tc.name, err, tc.want)
		}
	}
}
