#!/usr/bin/env bash
# Packages the Linux app with the Wails CLI: `wails build` (production,
# WebKitGTK 4.1) with version, commit and build date stamped in, then a
# tarball build/dist/pi-desktop-VERSION-linux-ARCH.tar.gz holding the binary,
# the .desktop file, the icon and an install script, a .deb and an .rpm
# (nfpm, build/linux/nfpm.yaml), and SHA256SUMS over build/dist.
# Usage: scripts/package.sh VERSION   (make package)
set -euo pipefail
cd "$(dirname "$0")/.."
version=${1:?usage: scripts/package.sh VERSION}
wails=$(scripts/package-wails-cli.sh)
commit=$(git rev-parse --short=12 HEAD 2>/dev/null || echo unknown)
if [ -n "$(git status --porcelain --untracked-files=no 2>/dev/null)" ]; then commit="$commit-dirty"; fi
# SOURCE_DATE_EPOCH pins the date for reproducible builds.
date=$(date -u ${SOURCE_DATE_EPOCH:+-d "@$SOURCE_DATE_EPOCH"} +%Y-%m-%dT%H:%M:%SZ)
ldflags="-s -w -X main.version=$version -X main.commit=$commit -X main.date=$date"

# The frontend is built by `make frontend` beforehand (-s); bindings are
# checked by `make test` (-skipbindings); -m and -nosyncgomod keep go.mod as it
# is.
# The process-tree runner ships next to the app (platform/proc finds it there).
CGO_ENABLED=0 go build -trimpath -ldflags "-s -w" -o build/bin/pi-desktop-runner ./cmd/pi-desktop-runner
"$wails" build -nocolour -s -skipbindings -m -nosyncgomod -trimpath -tags webkit2_41 -ldflags "$ldflags" -o pi-desktop
# wails build rewrites the runtime files as 0644; the bindings generator
# (make bindings) writes them 0755, as committed: keep the tree clean.
chmod 755 frontend/wailsjs/runtime/*
bin=build/bin/pi-desktop
"$bin" version

arch=$(go env GOARCH)
name="pi-desktop-$version-linux-$arch"
stage=$(mktemp -d); trap 'rm -rf "$stage"' EXIT
root="$stage/$name"
install -Dm755 "$bin" "$root/pi-desktop"
install -Dm755 build/bin/pi-desktop-runner "$root/pi-desktop-runner"
install -Dm644 build/linux/pi-desktop.desktop "$root/pi-desktop.desktop"
install -Dm644 build/linux/pi-desktop.png "$root/pi-desktop.png"
install -Dm755 build/linux/install.sh "$root/install.sh"
mkdir -p build/dist && echo "*" >build/dist/.gitignore  # outputs, never committed
tar -C "$stage" --owner=0 --group=0 --numeric-owner -czf "build/dist/$name.tar.gz" "$name"
echo "package: build/dist/$name.tar.gz"
tar -tvzf "build/dist/$name.tar.gz"

# Distribution packages: a version that does not start with a digit (a bare
# commit from git describe) is prefixed so dpkg and rpm accept it.
nfpm=$(scripts/package-nfpm.sh)
pkgversion=$version
case "$pkgversion" in [0-9]*) ;; *) pkgversion="0.0.0~$pkgversion" ;; esac
pkgversion=${pkgversion//-/.}
# Debian asks every package for a changelog; this one names the build.
printf 'pi-desktop (%s) unstable; urgency=medium\n\n  * Build %s of commit %s.\n\n -- PI-Desktop developers <maintainers@pi-desktop.invalid>  %s\n' \
  "$pkgversion" "$version" "$commit" "$(date -u -R ${SOURCE_DATE_EPOCH:+-d "@$SOURCE_DATE_EPOCH"})" | gzip -9n >build/bin/changelog.Debian.gz
for packager in deb rpm; do
  VERSION="$pkgversion" ARCH="$arch" "$nfpm" package --config build/linux/nfpm.yaml --packager "$packager" --target build/dist/
done
ls -l build/dist/*.deb build/dist/*.rpm
scripts/checksums.sh
