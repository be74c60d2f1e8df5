// Package shells describes the command shells PI-Desktop can run Bash tool
// commands in. The IDs are stable: settings persist them.
package shells

// Stable shell IDs (spec §5, shell catalog).
const (
	Bash              = "bash"
	GitBash           = "git-bash"
	WindowsPowerShell = "windows-powershell"
	WindowsPwsh       = "windows-pwsh"
	Cmd               = "cmd"
)

// Entry is one catalog entry.
type Entry struct {
	ID    string
	Label string
}

// ForPlatform lists the shells a platform supports, its default first.
func ForPlatform(goos string) []Entry {
	if goos == "windows" {
		return []Entry{
			{WindowsPowerShell, "Windows PowerShell"},
			{WindowsPwsh, "PowerShell 7"},
			{GitBash, "Git Bash"},
			{Cmd, "Command Prompt"},
		}
	}
	return []Entry{{Bash, "Bash"}}
}

// Supported reports whether id names a shell of platform goos.
func Supported(goos, id string) bool {
	for _, e := range ForPlatform(goos) {
		if e.ID == id {
			return true
		}
	}
	return false
}
