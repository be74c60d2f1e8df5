#!/usr/bin/env bash
# Installs the nfpm CLI (the .deb/.rpm packager) once and caches it; prints
# the binary's path. Pinned: v2.45.2.
# Usage: scripts/package-nfpm.sh   (env NFPM_CACHE overrides the cache dir)
set -euo pipefail
ver=v2.45.2
cache=${NFPM_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/pi-desktop-build/nfpm-$ver}
bin="$cache/bin/nfpm"
gover=$(go env GOVERSION)
if [ -x "$bin" ] && [ "$(cat "$cache/go-version" 2>/dev/null)" = "$gover" ]; then
  echo "$bin"; exit 0
fi
echo "package: installing nfpm $ver with $gover into $cache (cached for later runs)" >&2
mkdir -p "$cache/bin"
GOBIN="$cache/bin" GOFLAGS=-mod=mod go install -trimpath "github.com/goreleaser/nfpm/v2/cmd/nfpm@$ver" >&2
echo "$gover" >"$cache/go-version"
echo "$bin"
