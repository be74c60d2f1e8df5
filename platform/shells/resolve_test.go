package shells

import (
	"errors"
	"io/fs"
	"strings"
	"testing"
	"time"
)

// fakeMachine is a fake filesystem and environment for one OS.
type fakeMachine struct {
	goos    string
	files   map[string]fs.FileMode // path → mode (fs.ModeDir for directories)
	aliases map[string]bool        // app-execution aliases (Stat fails on them)
	env     map[string]string
	is32    bool
}

type fakeInfo struct {
	name string
	mode fs.FileMode
}

func (f fakeInfo) Name() string       { return f.name }
func (f fakeInfo) Size() int64        { return 0 }
func (f fakeInfo) Mode() fs.FileMode  { return f.mode }
func (f fakeInfo) ModTime() time.Time { return time.Time{} }
func (f fakeInfo) IsDir() bool        { return f.mode.IsDir() }
func (f fakeInfo) Sys() any           { return nil }

func (m fakeMachine) Env() Env {
	return Env{
		GOOS:   m.goos,
		Getenv: func(k string) string { return m.env[k] },
		Stat: func(p string) (fs.FileInfo, error) {
			if mode, ok := m.files[p]; ok {
				return fakeInfo{name: p, mode: mode}, nil
			}
			return nil, fs.ErrNotExist
		},
		LookPath: func(name string) (string, error) {
			if m.goos == "windows" {
				panic("LookPath must not be used on Windows: it cannot skip the WSL launcher")
			}
			for _, dir := range strings.Split(m.env["PATH"], ":") {
				p := dir + "/" + name
				if mode, ok := m.files[p]; ok && !mode.IsDir() && mode&0o111 != 0 {
					return p, nil
				}
			}
			return "", errors.New("not found")
		},
		IsAppExecLink: func(p string) bool { return m.aliases[p] },
		Is32BitHost:   m.is32,
	}
}

func exe(paths ...string) map[string]fs.FileMode {
	m := make(map[string]fs.FileMode)
	for _, p := range paths {
		m[p] = 0o755
	}
	return m
}

var winEnv = map[string]string{
	"SystemRoot":   `C:\Windows`,
	"ProgramFiles": `C:\Program Files`,
	"ProgramW6432": `C:\Program Files`,
	"LocalAppData": `C:\Users\u\AppData\Local`,
	"ComSpec":      `C:\Windows\system32\cmd.exe`,
}

func withEnv(base map[string]string, kv ...string) map[string]string {
	m := make(map[string]string)
	for k, v := range base {
		m[k] = v
	}
	for i := 0; i+1 < len(kv); i += 2 {
		m[kv[i]] = kv[i+1]
	}
	return m
}

func TestResolve(t *testing.T) {
	const (
		gitCmd     = `C:\Program Files\Git\cmd`
		gitBashStd = `C:\Program Files\Git\bin\bash.exe`
		wslBash    = `C:\Windows\System32\bash.exe`
		winApps    = `C:\Users\u\AppData\Local\Microsoft\WindowsApps`
	)
	tests := []struct {
		name    string
		id      string
		m       fakeMachine
		want    string
		wantErr error
		errHas  []string
	}{
		// Unix bash.
		{name: "linux /bin/bash", id: Bash, want: "/bin/bash",
			m: fakeMachine{goos: "linux", files: exe("/bin/bash", "/usr/bin/bash")}},
		{name: "linux /usr/local/bin/bash", id: Bash, want: "/usr/local/bin/bash",
			m: fakeMachine{goos: "linux", files: exe("/usr/local/bin/bash")}},
		{name: "darwin homebrew arm", id: Bash, want: "/opt/homebrew/bin/bash",
			m: fakeMachine{goos: "darwin", files: exe("/opt/homebrew/bin/bash")}},
		{name: "darwin system bash first", id: Bash, want: "/bin/bash",
			m: fakeMachine{goos: "darwin", files: exe("/bin/bash", "/opt/homebrew/bin/bash")}},
		{name: "linux PATH", id: Bash, want: "/nix/profile/bin/bash",
			m: fakeMachine{goos: "linux", files: exe("/nix/profile/bin/bash"), env: map[string]string{"PATH": "/usr/bin:/nix/profile/bin"}}},
		{name: "non-executable and directory skipped", id: Bash, want: "/usr/local/bin/bash",
			m: fakeMachine{goos: "linux", files: map[string]fs.FileMode{"/bin/bash": 0o644, "/usr/bin/bash": fs.ModeDir | 0o755, "/usr/local/bin/bash": 0o755}}},
		{name: "override wins", id: Bash, want: "/opt/bash5/bin/bash",
			m: fakeMachine{goos: "linux", files: exe("/bin/bash", "/opt/bash5/bin/bash"), env: map[string]string{OverrideEnv: "/opt/bash5/bin/bash"}}},
		{name: "broken override is an error", id: Bash, wantErr: ErrShellNotFound, errHas: []string{OverrideEnv + "=/nope/bash", "fix or unset"},
			m: fakeMachine{goos: "linux", files: exe("/bin/bash"), env: map[string]string{OverrideEnv: "/nope/bash"}}},
		{name: "linux no bash", id: Bash, wantErr: ErrShellNotFound,
			errHas: []string{"/bin/bash", "/usr/bin/bash", "/usr/local/bin/bash", "/opt/homebrew/bin/bash", "PATH", "package manager"},
			m:      fakeMachine{goos: "linux"}},
		{name: "darwin no bash hint", id: Bash, wantErr: ErrShellNotFound, errHas: []string{"brew install bash"},
			m: fakeMachine{goos: "darwin"}},
		{name: "git-bash is not a linux shell", id: GitBash, wantErr: ErrUnknownShell, errHas: []string{"bash"},
			m: fakeMachine{goos: "linux", files: exe("/bin/bash")}},
		{name: "unknown id", id: "zsh", wantErr: ErrUnknownShell, m: fakeMachine{goos: "darwin"}},

		// Git Bash.
		{name: "git-bash derived from git in cmd", id: GitBash, want: gitBashStd,
			m: fakeMachine{goos: "windows", files: exe(gitCmd+`\git.exe`, gitBashStd),
				env: withEnv(winEnv, "PATH", `C:\Windows\System32;`+gitCmd)}},
		{name: "git-bash derived from a portable git in mingw64", id: GitBash, want: `D:\tools\PortableGit\bin\bash.exe`,
			m: fakeMachine{goos: "windows", files: exe(`D:\tools\PortableGit\mingw64\bin\git.exe`, `D:\tools\PortableGit\bin\bash.exe`, gitBashStd),
				env: withEnv(winEnv, "PATH", `D:\tools\PortableGit\mingw64\bin`)}},
		{name: "git-bash derived from git in bin", id: GitBash, want: `E:\Git\bin\bash.exe`,
			m: fakeMachine{goos: "windows", files: exe(`E:\Git\bin\git.exe`, `E:\Git\bin\bash.exe`),
				env: withEnv(winEnv, "PATH", `"E:\Git\bin\"`)}},
		{name: "git-bash from Program Files without git on PATH", id: GitBash, want: gitBashStd,
			m: fakeMachine{goos: "windows", files: exe(gitBashStd), env: withEnv(winEnv, "PATH", `C:\Windows\System32`)}},
		{name: "git-bash from Program Files (x86)", id: GitBash, want: `C:\Program Files (x86)\Git\bin\bash.exe`,
			m: fakeMachine{goos: "windows", files: exe(`C:\Program Files (x86)\Git\bin\bash.exe`), env: withEnv(winEnv, "ProgramFiles(x86)", `C:\Program Files (x86)`)}},
		{name: "git-bash user install", id: GitBash, want: `C:\Users\u\AppData\Local\Programs\Git\bin\bash.exe`,
			m: fakeMachine{goos: "windows", files: exe(`C:\Users\u\AppData\Local\Programs\Git\bin\bash.exe`), env: winEnv}},
		{name: "git-bash from PATH after the WSL launcher", id: GitBash, want: `C:\msys64\usr\bin\bash.exe`,
			m: fakeMachine{goos: "windows", files: exe(wslBash, `C:\msys64\usr\bin\bash.exe`),
				env: withEnv(winEnv, "PATH", `C:\Windows\System32;C:\msys64\usr\bin`)}},
		{name: "WSL launcher only is not git-bash", id: GitBash, wantErr: ErrShellNotFound,
			errHas: []string{gitBashStd, `C:\Users\u\AppData\Local\Programs\Git\bin\bash.exe`, "PATH (bash.exe)", "Git for Windows", "WSL launcher"},
			m:      fakeMachine{goos: "windows", files: exe(wslBash), env: withEnv(winEnv, "PATH", `C:\WINDOWS\system32\;C:\Windows`)}},
		{name: "WSL launcher excluded with another SystemRoot spelling", id: GitBash, wantErr: ErrShellNotFound,
			m: fakeMachine{goos: "windows", files: exe(`D:\Win\Sysnative\bash.exe`), env: withEnv(winEnv, "SystemRoot", `D:\Win`, "PATH", `D:\Win\Sysnative`)}},
		{name: "WindowsApps bash alias excluded", id: GitBash, wantErr: ErrShellNotFound,
			m: fakeMachine{goos: "windows", files: exe(winApps + `\bash.exe`), aliases: map[string]bool{winApps + `\bash.exe`: true},
				env: withEnv(winEnv, "PATH", winApps)}},
		{name: "git-bash override", id: GitBash, want: `C:\custom\bash.exe`,
			m: fakeMachine{goos: "windows", files: exe(`C:\custom\bash.exe`, gitBashStd), env: withEnv(winEnv, OverrideEnv, `"C:\custom\bash.exe"`)}},

		// PowerShell 7.
		{name: "pwsh in Program Files", id: WindowsPwsh, want: `C:\Program Files\PowerShell\7\pwsh.exe`,
			m: fakeMachine{goos: "windows", files: exe(`C:\Program Files\PowerShell\7\pwsh.exe`), env: winEnv}},
		{name: "pwsh from a 32-bit host uses ProgramW6432", id: WindowsPwsh, want: `C:\Program Files\PowerShell\7\pwsh.exe`, m: fakeMachine{
			goos: "windows", is32: true, files: exe(`C:\Program Files\PowerShell\7\pwsh.exe`),
			env: withEnv(winEnv, "ProgramFiles", `C:\Program Files (x86)`)}},
		{name: "pwsh: a 64-bit host does not look at ProgramW6432", id: WindowsPwsh, wantErr: ErrShellNotFound,
			errHas: []string{`C:\Program Files (x86)\PowerShell\7\pwsh.exe`, "PATH (pwsh.exe)", "winget install --id Microsoft.PowerShell"},
			m: fakeMachine{goos: "windows", files: exe(`C:\Program Files\PowerShell\7\pwsh.exe`),
				env: withEnv(winEnv, "ProgramFiles", `C:\Program Files (x86)`)}},
		{name: "pwsh Store alias (APPEXECLINK) counts as present", id: WindowsPwsh, want: winApps + `\pwsh.exe`,
			m: fakeMachine{goos: "windows", aliases: map[string]bool{winApps + `\pwsh.exe`: true},
				env: withEnv(winEnv, "PATH", `C:\Windows\System32;`+winApps)}},
		{name: "pwsh user-scope install on PATH", id: WindowsPwsh, want: `C:\Users\u\pwsh\pwsh.exe`,
			m: fakeMachine{goos: "windows", files: exe(`C:\Users\u\pwsh\pwsh.exe`), env: withEnv(winEnv, "PATH", `C:\Users\u\pwsh\`)}},

		// Windows PowerShell and cmd.
		{name: "windows powershell", id: WindowsPowerShell, want: `C:\Windows\System32\WindowsPowerShell\v1.0\powershell.exe`,
			m: fakeMachine{goos: "windows", files: exe(`C:\Windows\System32\WindowsPowerShell\v1.0\powershell.exe`), env: winEnv}},
		{name: "windows powershell removed", id: WindowsPowerShell, wantErr: ErrShellNotFound, errHas: []string{`WindowsPowerShell\v1.0\powershell.exe`},
			m: fakeMachine{goos: "windows", env: winEnv}},
		{name: "cmd from ComSpec", id: Cmd, want: `C:\Windows\system32\cmd.exe`,
			m: fakeMachine{goos: "windows", files: exe(`C:\Windows\system32\cmd.exe`), env: winEnv}},
		{name: "cmd without ComSpec", id: Cmd, want: `C:\Windows\System32\cmd.exe`,
			m: fakeMachine{goos: "windows", files: exe(`C:\Windows\System32\cmd.exe`), env: withEnv(winEnv, "ComSpec", "")}},
		{name: "ComSpec naming another program is ignored", id: Cmd, want: `C:\Windows\System32\cmd.exe`,
			m: fakeMachine{goos: "windows", files: exe(`C:\Windows\System32\cmd.exe`, `C:\tcc\tcc.exe`), env: withEnv(winEnv, "ComSpec", `C:\tcc\tcc.exe`)}},
		{name: "bash is not a windows shell", id: Bash, wantErr: ErrUnknownShell, m: fakeMachine{goos: "windows", env: winEnv}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r, err := Resolve(tc.id, tc.m.Env())
			if tc.wantErr != nil {
				if !errors.Is(err, tc.wantErr) {
					t.Fatalf("err = %v, want %v (resolved %q)", err, tc.wantErr, r.Path)
				}
				for _, s := range tc.errHas {
					if !strings.Contains(err.Error(), s) {
						t.Errorf("error %q does not mention %q", err, s)
					}
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if r.Path != tc.want || r.ID != tc.id || r.GOOS != tc.m.goos {
				t.Errorf("Resolve = %+v, want path %q", r, tc.want)
			}
			e, _ := lookup(tc.m.goos, tc.id)
			if r.Dialect != e.Dialect || r.Dialect == "" {
				t.Errorf("dialect %q, want %q", r.Dialect, e.Dialect)
			}
		})
	}
}

func TestAvailableAndEffective(t *testing.T) {
	win := fakeMachine{goos: "windows", env: winEnv, files: exe(`C:\Windows\system32\cmd.exe`, `C:\Windows\System32\WindowsPowerShell\v1.0\powershell.exe`)}
	var got []string
	for _, e := range Available(win.Env()) {
		got = append(got, e.ID)
	}
	if strings.Join(got, ",") != "windows-powershell,cmd" {
		t.Errorf("Available = %v", got)
	}
	for _, tc := range []struct {
		name, persisted, want string
		m                     fakeMachine
	}{
		{"available choice kept", Cmd, Cmd, win},
		{"unavailable choice falls back to the first available", GitBash, WindowsPowerShell, win},
		{"wrong-platform choice falls back", Bash, WindowsPowerShell, win},
		{"empty choice", "", WindowsPowerShell, win},
		{"fallback skips unavailable default", "", Cmd, fakeMachine{goos: "windows", env: winEnv, files: exe(`C:\Windows\system32\cmd.exe`)}},
		{"nothing available: platform default", WindowsPwsh, WindowsPowerShell, fakeMachine{goos: "windows", env: winEnv}},
		{"linux bash", Bash, Bash, fakeMachine{goos: "linux", files: exe("/bin/bash")}},
		{"linux without bash still names bash", Bash, Bash, fakeMachine{goos: "linux"}},
	} {
		if e := Effective(tc.persisted, tc.m.Env()); e.ID != tc.want {
			t.Errorf("%s: Effective(%q) = %q, want %q", tc.name, tc.persisted, e.ID, tc.want)
		}
	}
	if len(Available(fakeMachine{goos: "linux"}.Env())) != 0 {
		t.Error("linux without bash has available shells")
	}
}

func TestCatalog(t *testing.T) {
	if !Supported("windows", GitBash) || Supported("linux", GitBash) || !Supported("darwin", Bash) || Supported("windows", Bash) {
		t.Error("Supported")
	}
	for _, goos := range []string{"windows", "linux", "darwin"} {
		for _, e := range ForPlatform(goos) {
			if e.Dialect == "" || e.Label == "" {
				t.Errorf("%s/%s: incomplete entry %+v", goos, e.ID, e)
			}
		}
	}
}

func TestWinPaths(t *testing.T) {
	for _, tc := range [][2]string{
		{winJoin(`C:\`, "Git"), `C:\Git`},
		{winJoin(`C:\a\`, `\b`, "c.exe"), `C:\a\b\c.exe`},
		{winDir(`C:\a\b\`), `C:\a`},
		{winDir(`C:\a`), `C:\`},
		{winDir(`C:\`), ``},
		{winBase(`C:\a\cmd.exe`), `cmd.exe`},
		{winDir(`C:/a/b`), `C:/a`},
	} {
		if tc[0] != tc[1] {
			t.Errorf("got %q, want %q", tc[0], tc[1])
		}
	}
}
