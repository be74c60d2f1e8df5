package proc

import (
	"bytes"
	"errors"
	"os"
	"strings"
	"testing"
	"time"

	"golang.org/x/sys/windows"
)

// winHelper makes the test binary a helper process on Windows: "sleep"
// sleeps; "spawn" starts a sleeping child, prints its pid and sleeps.
const winHelperEnv = "PI_PROC_TEST_WIN_HELPER"

func init() {
	switch os.Getenv(winHelperEnv) {
	case "sleep":
		time.Sleep(1000 * time.Second)
		os.Exit(0)
	case "spawn":
		p, err := os.StartProcess(os.Args[0], []string{os.Args[0]}, &os.ProcAttr{
			Env:   append(os.Environ(), winHelperEnv+"=sleep"),
			Files: []*os.File{nil, os.Stdout, os.Stderr},
		})
		if err != nil {
			os.Exit(5)
		}
		os.Stdout.WriteString(strings.TrimSpace(itoa(p.Pid)) + "\n")
		time.Sleep(1000 * time.Second)
		os.Exit(0)
	}
}

func itoa(n int) string {
	var b []byte
	for n > 0 || len(b) == 0 {
		b = append([]byte{byte('0' + n%10)}, b...)
		n /= 10
	}
	return string(b)
}

func alive(pid int) bool {
	h, err := windows.OpenProcess(windows.PROCESS_QUERY_LIMITED_INFORMATION|windows.SYNCHRONIZE, false, uint32(pid))
	if err != nil {
		return false
	}
	defer windows.CloseHandle(h)
	ev, _ := windows.WaitForSingleObject(h, 0)
	return ev == uint32(windows.WAIT_TIMEOUT)
}

func TestWindowsExitCodeAndOutput(t *testing.T) {
	var out bytes.Buffer
	p, err := Start(t.Context(), Spec{Path: os.Getenv("ComSpec"), CmdLine: `cmd.exe /d /s /c "echo hello& exit 3"`, Stdout: &out})
	if err != nil {
		t.Fatal(err)
	}
	code, err := p.Wait()
	if code != 3 || err != nil || strings.TrimSpace(out.String()) != "hello" {
		t.Errorf("Wait = %d, %v; stdout %q", code, err, out.String())
	}
}

func TestWindowsKillTree(t *testing.T) {
	var out syncWriter
	p, err := Start(t.Context(), Spec{Path: os.Args[0], Env: append(os.Environ(), winHelperEnv+"=spawn"), Stdout: &out})
	if err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(10 * time.Second)
	for !strings.Contains(out.String(), "\n") && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	child := 0
	for _, c := range strings.TrimSpace(out.String()) {
		child = child*10 + int(c-'0')
	}
	if child == 0 || !alive(child) {
		t.Fatalf("grandchild not running (%q)", out.String())
	}
	_ = p.Kill()
	if _, err := p.Wait(); !errors.Is(err, ErrKilled) {
		t.Errorf("Wait err = %v", err)
	}
	if alive(child) || alive(p.Pid()) {
		t.Error("tree survived Kill")
	}
}
