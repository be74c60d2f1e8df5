#!/usr/bin/env bash
# Builds the Wails CLI v2.9.2 once and caches it; prints the binary's path.
# `go install github.com/wailsapp/wails/v2/cmd/wails@v2.9.2` does not compile
# with Go 1.26 (its pinned golang.org/x/tools is too old), so the CLI is built
# in a scratch module that requires golang.org/x/tools@latest
# (../shared/design/decisions.md, "Platform facts").
# Usage: scripts/package-wails-cli.sh   (env WAILS_CACHE overrides the cache dir)
set -euo pipefail
ver=v2.9.2
cache=${WAILS_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/pi-desktop-build/wails-$ver}
bin="$cache/bin/wails"
gover=$(go env GOVERSION)
# The cached CLI is reused while the Go toolchain is the same one.
if [ -x "$bin" ] && [ "$(cat "$cache/go-version" 2>/dev/null)" = "$gover" ]; then
  echo "$bin"; exit 0
fi
echo "package: building the Wails CLI $ver with $gover in $cache/src (cached for later runs)" >&2
rm -rf "$cache/src"; mkdir -p "$cache/src" "$cache/bin"
cd "$cache/src"
{
  go mod init pi-desktop.local/wails-cli
  go get "github.com/wailsapp/wails/v2/cmd/wails@$ver" golang.org/x/tools@latest
  go build -trimpath -o "$bin.tmp" github.com/wailsapp/wails/v2/cmd/wails
} >&2
mv "$bin.tmp" "$bin"
echo "$gover" >"$cache/go-version"
"$bin" version >&2
echo "$bin"
