package shells

import (
	"encoding/base64"
	"errors"
	"slices"
	"strings"
	"testing"
	"unicode/utf16"
)

func decodePowerShell(t *testing.T, enc string) string {
	t.Helper()
	b, err := base64.StdEncoding.DecodeString(enc)
	if err != nil || len(b)%2 != 0 {
		t.Fatalf("bad encoding: %v", err)
	}
	u := make([]uint16, len(b)/2)
	for i := range u {
		u[i] = uint16(b[2*i]) | uint16(b[2*i+1])<<8
	}
	return string(utf16.Decode(u))
}

func TestInvocation(t *testing.T) {
	unix := Resolved{ID: Bash, Dialect: DialectPOSIX, Path: "/bin/bash", GOOS: "linux"}
	inv, err := unix.Invocation("echo hi")
	if err != nil || inv.Path != "/bin/bash" || !slices.Equal(inv.Args, []string{"-lc", "echo hi"}) || inv.CmdLine != "" {
		t.Errorf("unix bash: %+v %v", inv, err)
	}
	git := Resolved{ID: GitBash, Dialect: DialectPOSIX, Path: `C:\Program Files\Git\bin\bash.exe`, GOOS: "windows"}
	if inv, _ := git.Invocation("ls\nls"); !slices.Equal(inv.Args, []string{"-c", "ls\nls"}) {
		t.Errorf("git bash: %+v", inv)
	}

	cmd := Resolved{ID: Cmd, Dialect: DialectCmd, Path: `C:\Windows\system32\cmd.exe`, GOOS: "windows"}
	inv, err = cmd.Invocation(`dir "C:\Program Files" & echo done` + "\r\n")
	if err != nil {
		t.Fatal(err)
	}
	if want := `"C:\Windows\system32\cmd.exe" /d /s /c "dir "C:\Program Files" & echo done"`; inv.CmdLine != want {
		t.Errorf("cmd line %q, want %q", inv.CmdLine, want)
	}
	for _, multi := range []string{"echo a\necho b", "echo a\r\necho b", "echo a\recho b", "\necho b"} {
		if _, err := cmd.Invocation(multi); !errors.Is(err, ErrMultiLineCommand) {
			t.Errorf("%q: err = %v, want ErrMultiLineCommand", multi, err)
		}
	}

	for _, id := range []string{WindowsPowerShell, WindowsPwsh} {
		ps := Resolved{ID: id, Dialect: DialectPowerShell, Path: `C:\x\ps.exe`, GOOS: "windows"}
		command := "Get-ChildItem | Measure-Object\n'it''s' ; git status 2>&1 ; ‘smart’"
		inv, err := ps.Invocation(command)
		if err != nil {
			t.Fatal(err)
		}
		n := len(inv.Args)
		if n < 2 || inv.Args[n-2] != "-EncodedCommand" || !slices.Contains(inv.Args, "-NonInteractive") || !slices.Contains(inv.Args, "-NoProfile") {
			t.Fatalf("%s args %v", id, inv.Args)
		}
		script := decodePowerShell(t, inv.Args[n-1])
		for _, want := range []string{
			"[ScriptBlock]::Create(" + psQuote(command) + ")",
			"Out-String -Stream -Width 4096",
			"RemoteException", // native stderr is forwarded, not a failure
			"exit $LASTEXITCODE",
			"if ($global:__piFailed) { exit 1 }",
		} {
			if !strings.Contains(script, want) {
				t.Errorf("%s wrapper lacks %q", id, want)
			}
		}
		if psQuote(command) != "'Get-ChildItem | Measure-Object\n''it''''s'' ; git status 2>&1 ; ‘‘smart’’'" {
			t.Errorf("psQuote = %s", psQuote(command))
		}
		long, err := ps.Invocation(strings.Repeat("x", 20000))
		if err != nil || long.Args[len(long.Args)-2] != "-Command" {
			t.Errorf("long command falls back to -Command: %v %v", long.Args[:len(long.Args)-1], err)
		}
	}
	if _, err := (Resolved{Dialect: "fish"}).Invocation("x"); err == nil {
		t.Error("unknown dialect accepted")
	}
}

func TestScratchDir(t *testing.T) {
	for _, tc := range []struct{ dialect, goos, in, want string }{
		{DialectPOSIX, "windows", `C:\Users\u\AppData\pi\scratch\s1`, "C:/Users/u/AppData/pi/scratch/s1"},
		{DialectPowerShell, "windows", `C:/Users/u/scratch/s1`, `C:\Users\u\scratch\s1`},
		{DialectCmd, "windows", `C:\Users\u\scratch\s1`, `C:\Users\u\scratch\s1`},
		{DialectPOSIX, "linux", "/home/u/.local/share/pi/scratch/s1", "/home/u/.local/share/pi/scratch/s1"},
		{DialectPOSIX, "darwin", `/Users/u/odd\name`, `/Users/u/odd\name`},
	} {
		if got := ScratchDirFor(tc.dialect, tc.goos, tc.in); got != tc.want {
			t.Errorf("%s/%s: %q → %q, want %q", tc.dialect, tc.goos, tc.in, got, tc.want)
		}
	}
	r := Resolved{Dialect: DialectPOSIX, GOOS: "windows"}
	if r.ScratchDir(`C:\a`) != "C:/a" {
		t.Error("Resolved.ScratchDir")
	}
}
