package shells

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"runtime"
	"strings"
)

var (
	// ErrShellNotFound matches a catalog shell that is not installed (or
	// whose PI_DESKTOP_BASH override is wrong): SHELL_NOT_FOUND.
	ErrShellNotFound = errors.New("shell not found")
	// ErrUnknownShell matches an ID that is not in the platform's catalog:
	// COMMAND_SHELL_INVALID.
	ErrUnknownShell = errors.New("unknown command shell")
)

// OverrideEnv names the variable that points Bash and Git Bash at a specific
// bash executable.
const OverrideEnv = "PI_DESKTOP_BASH"

// Env is everything resolution looks at, so that every OS's rules can be
// tested with fakes on any OS. HostEnv returns the real one.
type Env struct {
	GOOS     string
	Getenv   func(string) string
	LookPath func(string) (string, error)
	Stat     func(string) (fs.FileInfo, error)
	// IsAppExecLink reports whether path is a Windows app-execution alias
	// (reparse tag IO_REPARSE_TAG_APPEXECLINK), which Stat cannot follow.
	IsAppExecLink func(string) bool
	// Is32BitHost: the host process is 32-bit (Windows: %ProgramFiles% then
	// points at "Program Files (x86)").
	Is32BitHost bool
}

// HostEnv is the Env of the running process.
func HostEnv() Env {
	return Env{
		GOOS:          runtime.GOOS,
		Getenv:        os.Getenv,
		LookPath:      exec.LookPath,
		Stat:          os.Stat,
		IsAppExecLink: isAppExecLink,
		Is32BitHost:   runtime.GOARCH == "386" || runtime.GOARCH == "arm",
	}
}

// Resolved is a catalog entry found on this machine.
type Resolved struct {
	ID      string
	Dialect string
	Path    string
	GOOS    string
}

// NotFoundError says what was searched and how to install the shell. Its
// message is shown to users and models.
type NotFoundError struct {
	ID       string
	Label    string
	Searched []string
	Hint     string
}

func (e *NotFoundError) Error() string {
	return fmt.Sprintf("%s (%s) was not found. Searched: %s. %s", e.Label, e.ID, strings.Join(e.Searched, ", "), e.Hint)
}

func (e *NotFoundError) Unwrap() error { return ErrShellNotFound }

// Resolve finds the executable of catalog shell id (spec §5, resolution
// order). Errors match ErrUnknownShell or ErrShellNotFound.
func Resolve(id string, env Env) (Resolved, error) {
	entry, ok := lookup(env.GOOS, id)
	if !ok {
		return Resolved{}, fmt.Errorf("%w: %q is not a command shell on %s (choose one of %s)", ErrUnknownShell, id, env.GOOS, ids(env.GOOS))
	}
	s := &search{env: env}
	var path string
	switch id {
	case Bash:
		path = s.unixBash()
	case GitBash:
		path = s.gitBash()
	case WindowsPwsh:
		path = s.pwsh()
	case WindowsPowerShell:
		path = s.windowsPowerShell()
	case Cmd:
		path = s.cmd()
	}
	if path == "" {
		hint := s.hint
		if hint == "" {
			hint = installHint(id, env.GOOS)
		}
		return Resolved{}, &NotFoundError{ID: id, Label: entry.Label, Searched: s.searched, Hint: hint}
	}
	return Resolved{ID: id, Dialect: entry.Dialect, Path: path, GOOS: env.GOOS}, nil
}

// Available lists the platform's catalog entries that resolve, in catalog order.
func Available(env Env) []Entry {
	var out []Entry
	for _, e := range ForPlatform(env.GOOS) {
		if _, err := Resolve(e.ID, env); err == nil {
			out = append(out, e)
		}
	}
	return out
}

// Effective is the shell a turn uses: the persisted choice when it is in the
// catalog and resolves, else the first available platform shell, else the
// platform default (whose Resolve then reports SHELL_NOT_FOUND).
func Effective(persisted string, env Env) Entry {
	if e, ok := lookup(env.GOOS, persisted); ok {
		if _, err := Resolve(persisted, env); err == nil {
			return e
		}
	}
	if av := Available(env); len(av) > 0 {
		return av[0]
	}
	return ForPlatform(env.GOOS)[0]
}

func ids(goos string) string {
	var out []string
	for _, e := range ForPlatform(goos) {
		out = append(out, e.ID)
	}
	return strings.Join(out, ", ")
}

func installHint(id, goos string) string {
	switch id {
	case Bash:
		if goos == "darwin" {
			return "macOS ships /bin/bash; install a current bash with Homebrew (brew install bash), or set " + OverrideEnv + " to the full path of a bash executable."
		}
		return "Install bash with the system package manager (e.g. apt install bash, dnf install bash), or set " + OverrideEnv + " to the full path of a bash executable."
	case GitBash:
		return "Install Git for Windows (https://git-scm.com/download/win, or: winget install --id Git.Git -e), which provides Git Bash, or set " + OverrideEnv + ` to the full path of bash.exe (e.g. C:\Program Files\Git\bin\bash.exe). The WSL launcher (System32\bash.exe) is not used.`
	case WindowsPwsh:
		return "Install PowerShell 7 (winget install --id Microsoft.PowerShell -e, or https://aka.ms/powershell), or choose Windows PowerShell."
	case WindowsPowerShell:
		return "Windows PowerShell is part of Windows; it may have been removed or blocked by policy. Restore the Windows PowerShell feature, or choose another shell."
	case Cmd:
		return "cmd.exe is part of Windows; check that %ComSpec% names it, or choose another shell."
	}
	return ""
}

// search accumulates the locations it tried, for the error message.
type search struct {
	env      Env
	searched []string
	hint     string
}

func (s *search) getenv(k string) string {
	if s.env.Getenv == nil {
		return ""
	}
	return s.env.Getenv(k)
}

// file reports whether p is an existing regular file (on Unix, executable).
func (s *search) file(p string) bool {
	if p == "" || s.env.Stat == nil {
		return false
	}
	fi, err := s.env.Stat(p)
	if err != nil || fi.IsDir() {
		return false
	}
	if s.env.GOOS != "windows" && fi.Mode().Perm()&0o111 == 0 {
		return false
	}
	return true
}

// try records p and reports whether it is present.
func (s *search) try(p string) bool {
	if p == "" {
		return false
	}
	s.searched = append(s.searched, p)
	return s.file(p)
}

// override applies PI_DESKTOP_BASH. set is true when the variable is set;
// a set but unusable override is an error, never silently skipped.
func (s *search) override() (path string, set bool) {
	v := strings.TrimSpace(s.getenv(OverrideEnv))
	if v == "" {
		return "", false
	}
	if s.env.GOOS == "windows" {
		v = strings.Trim(v, `"`)
	}
	s.searched = append(s.searched, OverrideEnv+"="+v)
	if s.file(v) {
		return v, true
	}
	s.hint = OverrideEnv + " is set but does not name an executable file; fix or unset it."
	return "", true
}

func (s *search) unixBash() string {
	if p, set := s.override(); set {
		return p
	}
	// Well-known locations, Homebrew (Apple silicon; Intel's is /usr/local), then PATH.
	for _, p := range []string{"/bin/bash", "/usr/bin/bash", "/usr/local/bin/bash", "/opt/homebrew/bin/bash"} {
		if s.try(p) {
			return p
		}
	}
	s.searched = append(s.searched, "PATH")
	if s.env.LookPath != nil {
		if p, err := s.env.LookPath("bash"); err == nil && s.file(p) {
			return p
		}
	}
	return ""
}

func (s *search) gitBash() string {
	if p, set := s.override(); set {
		return p
	}
	// 1. Derived from the git on PATH: …\Git\cmd\git.exe, …\Git\bin\git.exe
	// or …\Git\mingw64\bin\git.exe → …\Git\bin\bash.exe.
	if git := s.pathSearch("git.exe", false); git != "" {
		dir := winDir(git)
		for range 3 {
			if dir == "" {
				break
			}
			if p := winJoin(dir, "bin", "bash.exe"); s.try(p) {
				return p
			}
			dir = winDir(dir)
		}
	}
	// 2. Standard install locations.
	for _, root := range []string{s.getenv("ProgramFiles"), s.getenv("ProgramW6432"), s.getenv("ProgramFiles(x86)")} {
		if root != "" && s.try(winJoin(root, "Git", "bin", "bash.exe")) {
			return winJoin(root, "Git", "bin", "bash.exe")
		}
	}
	if la := s.getenv("LocalAppData"); la != "" {
		if p := winJoin(la, "Programs", "Git", "bin", "bash.exe"); s.try(p) {
			return p
		}
	}
	// 3. PATH, except the WSL launcher.
	return s.pathSearch("bash.exe", false)
}

func (s *search) pwsh() string {
	root := s.getenv("ProgramFiles")
	if s.env.Is32BitHost {
		if w := s.getenv("ProgramW6432"); w != "" {
			root = w
		}
	}
	if root != "" {
		if p := winJoin(root, "PowerShell", "7", "pwsh.exe"); s.try(p) {
			return p
		}
	}
	return s.pathSearch("pwsh.exe", true)
}

func (s *search) systemRoot() string {
	for _, k := range []string{"SystemRoot", "windir"} {
		if v := s.getenv(k); v != "" {
			return v
		}
	}
	return `C:\Windows`
}

func (s *search) windowsPowerShell() string {
	if p := winJoin(s.systemRoot(), "System32", "WindowsPowerShell", "v1.0", "powershell.exe"); s.try(p) {
		return p
	}
	return s.pathSearch("powershell.exe", false)
}

func (s *search) cmd() string {
	if p := strings.Trim(s.getenv("ComSpec"), `"`); p != "" && strings.EqualFold(winBase(p), "cmd.exe") && s.try(p) {
		return p
	}
	if p := winJoin(s.systemRoot(), "System32", "cmd.exe"); s.try(p) {
		return p
	}
	return ""
}

// pathSearch looks name up in the Windows PATH. Directories of the WSL
// launcher (System32 and its aliases, and the WindowsApps alias folder for
// bash.exe) are skipped for bash.exe. aliases accepts app-execution aliases.
func (s *search) pathSearch(name string, aliases bool) string {
	s.searched = append(s.searched, "PATH ("+name+")")
	for _, dir := range strings.Split(s.getenv("PATH"), ";") {
		dir = strings.Trim(strings.TrimSpace(dir), `"`)
		if dir == "" {
			continue
		}
		if strings.EqualFold(name, "bash.exe") && s.isWSLDir(dir) {
			continue
		}
		p := winJoin(dir, name)
		if s.file(p) || (aliases && s.env.IsAppExecLink != nil && s.env.IsAppExecLink(p)) {
			return p
		}
	}
	return ""
}

func (s *search) isWSLDir(dir string) bool {
	d := strings.ToLower(strings.TrimRight(strings.ReplaceAll(dir, "/", `\`), `\`))
	sr := strings.ToLower(strings.TrimRight(s.systemRoot(), `\`))
	for _, sys := range []string{"system32", "sysnative", "syswow64"} {
		if d == sr+`\`+sys || strings.HasSuffix(d, `:\windows\`+sys) {
			return true
		}
	}
	return strings.HasSuffix(d, `\microsoft\windowsapps`)
}

// Windows path helpers that work on any host OS (tests run on Linux).

func winJoin(elem ...string) string {
	var b strings.Builder
	for i, e := range elem {
		if i > 0 {
			e = strings.TrimLeft(e, `\/`)
			if b.Len() > 0 && !strings.HasSuffix(b.String(), `\`) && !strings.HasSuffix(b.String(), "/") {
				b.WriteByte('\\')
			}
		}
		b.WriteString(e)
	}
	return b.String()
}

// winDir drops the last element of p ("" when there is none left).
func winDir(p string) string {
	p = strings.TrimRight(p, `\/`)
	i := strings.LastIndexAny(p, `\/`)
	if i < 0 {
		return ""
	}
	d := p[:i]
	if len(d) == 2 && d[1] == ':' { // drive root
		return d + `\`
	}
	return d
}

func winBase(p string) string {
	p = strings.TrimRight(p, `\/`)
	return p[strings.LastIndexAny(p, `\/`)+1:]
}
