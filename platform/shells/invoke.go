package shells

import (
	"encoding/base64"
	"errors"
	"strings"
	"unicode/utf16"
)

// ErrMultiLineCommand: cmd.exe runs only the first line of a multi-line
// /c command, so such a command is refused (INVALID_ARGUMENT) instead.
var ErrMultiLineCommand = errors.New("cmd runs a single line only: this command has several lines; join them with & (or &&), or choose PowerShell or Git Bash")

// Invocation is how to start one command: proc.Spec's Path, Args and
// (Windows) CmdLine.
type Invocation struct {
	Path string
	// Args follow argv[0].
	Args []string
	// CmdLine, when set, is the complete Windows command line (cmd.exe needs
	// its own quoting, which argv escaping would break).
	CmdLine string
}

// maxCmdLine keeps a command line under Windows' 32,767-character limit.
const maxCmdLine = 30000

// Invocation builds the argv that runs command in this shell.
//
//   - Unix bash: bash -lc COMMAND (a login shell keeps the profile's PATH);
//   - Git Bash: bash.exe -c COMMAND;
//   - PowerShell 5.1 / 7: -NoLogo -NoProfile -NonInteractive
//     -EncodedCommand WRAPPER, where the wrapper runs the command through
//     PowerShell's formatter (Out-String) so objects print as a console shows
//     them, forwards native stderr without failing on it, and exits with the
//     native exit code (1 for any other PowerShell error);
//   - cmd: cmd.exe /d /s /c "COMMAND", single-line commands only.
func (r Resolved) Invocation(command string) (Invocation, error) {
	inv := Invocation{Path: r.Path}
	switch r.Dialect {
	case DialectPOSIX:
		if r.GOOS == "windows" {
			inv.Args = []string{"-c", command}
		} else {
			inv.Args = []string{"-lc", command}
		}
	case DialectPowerShell:
		script := powerShellWrapper(command)
		enc := encodePowerShell(script)
		inv.Args = []string{"-NoLogo", "-NoProfile", "-NonInteractive", "-EncodedCommand", enc}
		if len(enc) > maxCmdLine {
			// Too long to encode: pass the script as text (escaped per argv rules).
			inv.Args = []string{"-NoLogo", "-NoProfile", "-NonInteractive", "-Command", script}
		}
	case DialectCmd:
		c := strings.TrimRight(command, "\r\n")
		if strings.ContainsAny(c, "\r\n") {
			return Invocation{}, ErrMultiLineCommand
		}
		inv.Args = []string{"/d", "/s", "/c", c}
		// /s: cmd strips the outer quotes and runs the rest verbatim.
		inv.CmdLine = `"` + r.Path + `" /d /s /c "` + c + `"`
	default:
		return Invocation{}, errors.New("shells: unknown dialect " + r.Dialect)
	}
	return inv, nil
}

// ScratchDir spells dir (the session scratch directory, PI_SCRATCH_DIR) for
// this shell: forward slashes for POSIX shells (Git Bash included), native
// backslashes for PowerShell and cmd.
func (r Resolved) ScratchDir(dir string) string { return ScratchDirFor(r.Dialect, r.GOOS, dir) }

// ScratchDirFor is ScratchDir without a resolved shell.
func ScratchDirFor(dialect, goos, dir string) string {
	if goos != "windows" {
		return dir
	}
	if dialect == DialectPOSIX {
		return strings.ReplaceAll(dir, `\`, "/")
	}
	return strings.ReplaceAll(dir, "/", `\`)
}

// psQuote makes s a single-quoted PowerShell string literal. PowerShell also
// treats the typographic single quotes as quote characters.
func psQuote(s string) string {
	r := strings.NewReplacer("'", "''", "\u2018", "\u2018\u2018", "\u2019", "\u2019\u2019", "\u201a", "\u201a\u201a", "\u201b", "\u201b\u201b")
	return "'" + r.Replace(s) + "'"
}

// powerShellWrapper runs command as a script block, so a parse error in it
// is an ordinary (caught) error and no text of it can break the wrapper.
func powerShellWrapper(command string) string {
	return `$ErrorActionPreference = 'Continue'
$ProgressPreference = 'SilentlyContinue'
try { [Console]::OutputEncoding = New-Object System.Text.UTF8Encoding $false } catch {}
$OutputEncoding = New-Object System.Text.UTF8Encoding $false
$global:LASTEXITCODE = 0
$global:__piFailed = $false
try {
  $__piBlock = [ScriptBlock]::Create(` + psQuote(command) + `)
  & $__piBlock 2>&1 | ForEach-Object {
    if ($_ -is [System.Management.Automation.ErrorRecord]) {
      if ($_.Exception -is [System.Management.Automation.RemoteException]) {
        [Console]::Error.WriteLine($_.ToString())
      } else {
        $global:__piFailed = $true
        [Console]::Error.WriteLine(($_ | Out-String -Width 4096).TrimEnd())
      }
    } else { $_ }
  } | Out-String -Stream -Width 4096
} catch {
  $global:__piFailed = $true
  [Console]::Error.WriteLine(($_ | Out-String -Width 4096).TrimEnd())
}
if ($global:__piFailed) { exit 1 }
if ($LASTEXITCODE -is [int] -and $LASTEXITCODE -ne 0) { exit $LASTEXITCODE }
exit 0
`
}

// encodePowerShell is -EncodedCommand's encoding: base64 of UTF-16LE.
func encodePowerShell(script string) string {
	u := utf16.Encode([]rune(script))
	b := make([]byte, 2*len(u))
	for i, c := range u {
		b[2*i] = byte(c)
		b[2*i+1] = byte(c >> 8)
	}
	return base64.StdEncoding.EncodeToString(b)
}
