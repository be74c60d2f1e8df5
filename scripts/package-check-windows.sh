#!/usr/bin/env bash
# Checks the Windows build in build/dist (made by scripts/package-windows.sh)
# under Wine, in a throwaway prefix, as far as Wine allows:
#  - the executable is a PE image that reports the stamped version;
#  - the NSIS installer, run silently (/S), installs the program, registers
#    the .piplug file type (Software\Classes\.piplug -> its file class with
#    an open command) and an uninstaller entry (the Uninstall key with a
#    QuietUninstallString); the uninstaller, run silently, removes them and
#    the program but leaves the user's data folder (%APPDATA%\PI-Desktop).
# What cannot be checked here (no Wine, a Wine that cannot run the 32-bit
# installer, WebView2's own installer) is printed, never passed silently.
# Usage: scripts/package-check-windows.sh VERSION   (from package-check.sh)
set -euo pipefail
cd "$(dirname "$0")/.."
version=${1:?usage: scripts/package-check-windows.sh VERSION}
fail() { echo "package-check (windows): $*" >&2; exit 1; }
note() { echo "package-check (windows): not checked: $*"; }

exe="build/dist/pi-desktop-$version-windows-amd64.exe"
installer="build/dist/pi-desktop-$version-windows-amd64-installer.exe"
[ "$(head -c2 "$exe")" = MZ ] || fail "$exe is not a Windows executable"
runner_exe="build/dist/pi-desktop-runner-$version-windows-amd64.exe"
[ "$(head -c2 "$runner_exe")" = MZ ] || fail "$runner_exe is not a Windows executable"
[ -s "$installer" ] && [ "$(head -c2 "$installer")" = MZ ] || fail "missing NSIS installer $installer"
# Debian's wine64 package puts its loader in /usr/lib/wine, not on PATH.
export PATH="/usr/lib/wine:$PATH"
if ! command -v wine64 >/dev/null; then
  note "Wine is not installed: the executable's stamp, the installer's file type, uninstaller entry and kept data folder (install wine64)"
  exit 0
fi

work=$(mktemp -d)
export WINEPREFIX="$work/wine" WINEDEBUG=-all WINEDLLOVERRIDES="mscoree,mshtml="
trap 'wineserver -k >/dev/null 2>&1 || true; rm -rf "$work"' EXIT
wine=wine64
command -v wine >/dev/null && wine=wine # the loader that also runs 32-bit programs, when installed
timeout 300 wine64 wineboot --init >/dev/null 2>&1 || fail "wineboot failed in $WINEPREFIX"
# A new Wine 8 prefix says it is Windows 7, and the installer (like Wails'
# own check) refuses anything before Windows 10: exit 64, nothing installed.
timeout 60 wine64 winecfg -v win10 >/dev/null 2>&1 || fail "cannot set the prefix to Windows 10"
# Wine 8 lacks bcryptprimitives.dll, which Go binaries need at start: the
# same stub as scripts/wine-test.sh stands in (only for this throwaway prefix).
go run ./platform/proc/internal/winestub "$WINEPREFIX/drive_c/windows/system32/bcryptprimitives.dll"

commit=$(git rev-parse --short=12 HEAD)
out=$(timeout 120 wine64 "$exe" version 2>/dev/null | tr -d '\r') || fail "$exe version failed under Wine"
case "$out" in
  "pi-desktop $version (commit $commit"*", built 20"*) ;;
  *) fail "the windows binary (Wine) reports '$out', expected version $version and commit $commit with a build date" ;;
esac

# reg_has KEY [VALUE]: the key (or its named value) exists, in either
# registry view (the installer is a 32-bit program that writes the 64-bit
# view, which Wine may keep apart).
reg_has() {
  local view
  for view in /reg:64 /reg:32; do
    if [ $# -gt 1 ]; then
      timeout 60 "$wine" reg query "$1" /v "$2" $view >/dev/null 2>&1 && return 0
    else
      timeout 60 "$wine" reg query "$1" $view >/dev/null 2>&1 && return 0
    fi
  done
  return 1
}
reg_value() { # KEY VALUE: the value's data, from the first view that has it
  local view
  for view in /reg:64 /reg:32; do
    timeout 60 "$wine" reg query "$1" /v "$2" $view 2>/dev/null | tr -d '\r' | awk -v v="$2" '$1 == v { $1 = ""; $2 = ""; sub(/^ +/, ""); print; found = 1 } END { exit !found }' && return 0
  done
  return 1
}

reg_default() { # KEY: its default value's data (a file class name may hold spaces)
  local view v
  for view in /reg:64 /reg:32; do
    v=$(timeout 60 "$wine" reg query "$1" /ve $view 2>/dev/null | tr -d '\r' | sed -n -E 's/^.*REG_SZ[[:space:]]+//p' | head -1)
    [ -n "$v" ] && { printf '%s' "$v"; return 0; }
  done
  return 0
}

# The installer checks for the WebView2 runtime and otherwise runs
# Microsoft's online bootstrapper, which needs the network: say it is there.
webview='HKLM\SOFTWARE\WOW6432Node\Microsoft\EdgeUpdate\Clients\{F3017226-FE2A-4295-8BDF-00C3A9A7E4C5}'
timeout 60 "$wine" reg add "$webview" /v pv /d 120.0.0.0 /f /reg:64 >/dev/null 2>&1 || true
note "the WebView2 runtime install step (it downloads from Microsoft; the prefix claims the runtime instead)"

classes='HKLM\Software\Classes'
uninst='HKLM\Software\Microsoft\Windows\CurrentVersion\Uninstall\PI-Desktop developersPI-Desktop'
appdata=$(timeout 60 "$wine" cmd /c echo %APPDATA% 2>/dev/null | tr -d '\r')
[ -n "$appdata" ] || fail "Wine reports no %APPDATA%"
data_unix=$(timeout 60 "$wine" winepath -u "$appdata\\PI-Desktop" 2>/dev/null | tr -d '\r')
[ -n "$data_unix" ] || fail "cannot map $appdata to a Unix path"

set +e
timeout 600 "$wine" "$installer" /S >"$work/install.log" 2>&1
rc=$?
timeout 120 wineserver -w
set -e
if [ $rc -ne 0 ]; then
  if grep -qiE "Bad EXE format|wine32 is missing|could not load kernel32|Application could not be started|ShellExecuteEx failed" "$work/install.log"; then
    note "the installer (a 32-bit program) does not run under this Wine, so the .piplug registration, the uninstaller entry and the kept data folder (install wine32: dpkg --add-architecture i386; apt-get install wine32)"
    exit 0
  fi
  sed -n 1,20p "$work/install.log" >&2
  fail "the installer failed under Wine (exit $rc)"
fi

reg_has "$classes\\.piplug" || fail "the installer did not register the .piplug file type ($classes\\.piplug)"
class=$(reg_default "$classes\\.piplug")
[ -n "$class" ] || fail ".piplug names no file class (its default value is empty)"
open=$(reg_default "$classes\\$class\\shell\\open\\command")
# Windows names are case-blind: the installer names the program after the
# product (PI-Desktop.exe).
shopt -s nocasematch
case "$open" in
  *pi-desktop.exe*%1*) ;;
  *) fail ".piplug's class $class has no open command that starts pi-desktop.exe with the file: '$open'" ;;
esac
shopt -u nocasematch
reg_has "$uninst" UninstallString || fail "no uninstaller entry ($uninst)"
quiet=$(reg_value "$uninst" QuietUninstallString) || fail "the uninstaller entry has no QuietUninstallString"
reg_value "$uninst" DisplayName | grep -qx "PI-Desktop" || fail "the uninstaller entry's DisplayName is not PI-Desktop"
uninstaller=$(printf '%s' "$quiet" | sed -E 's/^"([^"]+)".*/\1/')
uninstaller_unix=$(timeout 60 "$wine" winepath -u "$uninstaller" 2>/dev/null | tr -d '\r')
[ -f "$uninstaller_unix" ] || fail "the uninstaller $uninstaller is not on disk"
installdir=$(dirname "$uninstaller_unix")
program() { find "$installdir" -maxdepth 1 -type f -iname pi-desktop.exe 2>/dev/null | head -1; }
[ -n "$(program)" ] || fail "the installer did not put pi-desktop.exe in $installdir"
[ -f "$installdir/pi-desktop-runner.exe" ] || fail "the installer did not put pi-desktop-runner.exe next to pi-desktop.exe in $installdir"

# The user's data, as the app leaves it: the uninstaller must not touch it.
mkdir -p "$data_unix"
printf 'user data\n' >"$data_unix/pi.sqlite"
set +e
timeout 600 "$wine" "$uninstaller" /S >"$work/uninstall.log" 2>&1
rc=$?
# NSIS's uninstaller copies itself to %TEMP% and returns at once: wait for it.
timeout 300 wineserver -w
set -e
[ $rc -eq 0 ] || fail "the uninstaller failed under Wine (exit $rc)"
[ "$(cat "$data_unix/pi.sqlite" 2>/dev/null)" = "user data" ] || fail "the uninstaller removed or changed the data folder $appdata\\PI-Desktop"
! reg_has "$uninst" || fail "the uninstaller left its entry ($uninst)"
! reg_has "$classes\\$class" || fail "the uninstaller left the .piplug file class $class"
[ -z "$(program)" ] || fail "the uninstaller left $(program)"
echo "package-check (windows): the executable's stamp; the installer registers .piplug ($class) and an uninstaller entry; the silent uninstaller removes them and the program and keeps $appdata\\PI-Desktop"
