#!/usr/bin/env bash
# Writes build/dist/SHA256SUMS for every package in build/dist, so a user
# can check a download with `sha256sum -c SHA256SUMS`.
# Usage: scripts/checksums.sh   (run by the package scripts)
set -euo pipefail
cd "$(dirname "$0")/../build/dist"
find . -maxdepth 1 -type f ! -name 'SHA256SUMS*' ! -name '.*' -printf '%f\n' | LC_ALL=C sort | xargs -r sha256sum >SHA256SUMS.tmp
mv SHA256SUMS.tmp SHA256SUMS
echo "package: build/dist/SHA256SUMS ($(wc -l <SHA256SUMS) files)"
