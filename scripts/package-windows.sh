#!/usr/bin/env bash
# Cross-builds the Windows app with the Wails CLI (windows/amd64, WebView2,
# no cgo needed) and its NSIS installer (Debian's nsis provides makensis);
# both land in build/dist.
# Usage: scripts/package-windows.sh VERSION   (make package-windows)
set -euo pipefail
cd "$(dirname "$0")/.."
version=${1:?usage: scripts/package-windows.sh VERSION}
wails=$(scripts/package-wails-cli.sh)
commit=$(git rev-parse --short=12 HEAD 2>/dev/null || echo unknown)
if [ -n "$(git status --porcelain --untracked-files=no 2>/dev/null)" ]; then commit="$commit-dirty"; fi
date=$(date -u ${SOURCE_DATE_EPOCH:+-d "@$SOURCE_DATE_EPOCH"} +%Y-%m-%dT%H:%M:%SZ)
ldflags="-s -w -X main.version=$version -X main.commit=$commit -X main.date=$date"
# The process-tree runner, next to the app in the installer (project.nsi).
GOOS=windows GOARCH=amd64 CGO_ENABLED=0 go build -trimpath -ldflags "-s -w" -o build/bin/pi-desktop-runner.exe ./cmd/pi-desktop-runner
"$wails" build -platform windows/amd64 -nsis -nocolour -s -skipbindings -m -nosyncgomod -trimpath \
  -ldflags "$ldflags" -o pi-desktop.exe
# wails build rewrites the runtime files as 0644; the bindings generator
# (make bindings) writes them 0755, as committed: keep the tree clean.
chmod 755 frontend/wailsjs/runtime/*
mkdir -p build/dist && echo "*" >build/dist/.gitignore  # outputs, never committed
cp build/bin/pi-desktop.exe "build/dist/pi-desktop-$version-windows-amd64.exe"
cp build/bin/pi-desktop-runner.exe "build/dist/pi-desktop-runner-$version-windows-amd64.exe"
installer=$(ls -t build/bin/*installer*.exe | head -1)
cp "$installer" "build/dist/pi-desktop-$version-windows-amd64-installer.exe"
ls -l build/dist/*windows*
scripts/checksums.sh
