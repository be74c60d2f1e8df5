#!/usr/bin/env bash
# Runs the Windows tests of platform/proc and platform/shells under Wine, in
# a throwaway prefix. Wine 8 lacks bcryptprimitives.dll (ProcessPrng), which
# every Go 1.22+ Windows binary needs at start: a tiny stub forwards it.
set -euo pipefail
prefix=$(mktemp -d)
trap 'WINEPREFIX="$prefix/wine" wineserver -k >/dev/null 2>&1 || true; rm -rf "$prefix"' EXIT
export WINEPREFIX="$prefix/wine" WINEDEBUG=-all WINEDLLOVERRIDES="mscoree,mshtml=" PATH="/usr/lib/wine:$PATH"
wine64 wineboot --init >/dev/null 2>&1
go run ./platform/proc/internal/winestub "$WINEPREFIX/drive_c/windows/system32/bcryptprimitives.dll"
GOOS=windows go test -count=1 -exec wine64 ./platform/proc ./platform/shells
