#!/usr/bin/env bash
# Packages the app for Linux and Windows (scripts/package.sh and
# scripts/package-windows.sh) and checks what a user would receive:
#  - the Linux tarball holds the binary, desktop entry, icon and installer,
#    its binary reports the stamped version, commit and build date, and
#    install.sh installs it under a prefix with a desktop entry that points
#    at the installed binary;
#  - the .deb declares its dependencies, installs with dpkg (binary, desktop
#    entry, icons, MIME type), runs, and removes cleanly without touching the
#    user's data folder; apt resolves its dependencies on a machine that has
#    none of them (simulated); lintian reports no error; the .rpm lists the
#    same files; SHA256SUMS matches build/dist;
#  - the Windows executable reports the same stamp under Wine, and the NSIS
#    installer registers .piplug and an uninstaller entry that leaves the
#    data folder (scripts/package-check-windows.sh, which says what Wine
#    could not check).
# Usage: scripts/package-check.sh VERSION   (make package-check; .ci/run)
set -euo pipefail
cd "$(dirname "$0")/.."
version=${1:?usage: scripts/package-check.sh VERSION}
fail() { echo "package-check: $*" >&2; exit 1; }

scripts/package.sh "$version"
scripts/package-windows.sh "$version"

arch=$(go env GOARCH)
name="pi-desktop-$version-linux-$arch"
tarball="build/dist/$name.tar.gz"
[ -f "$tarball" ] || fail "missing $tarball"
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
tar -C "$work" -xzf "$tarball"
for f in pi-desktop pi-desktop-runner pi-desktop.desktop pi-desktop.png install.sh; do
  [ -f "$work/$name/$f" ] || fail "$tarball lacks $f"
done

commit=$(git rev-parse --short=12 HEAD)
check_stamp() { # $1: label, $2: output of `version`
  case "$2" in
    "pi-desktop $version (commit $commit"*", built 20"*) ;;
    *) fail "$1 reports '$2', expected version $version and commit $commit with a build date" ;;
  esac
}
check_stamp "linux binary" "$("$work/$name/pi-desktop" version)"

PREFIX="$work/prefix" sh "$work/$name/install.sh" >/dev/null
installed="$work/prefix/bin/pi-desktop"
[ -x "$installed" ] || fail "install.sh did not install the binary"
[ -x "$work/prefix/bin/pi-desktop-runner" ] || fail "install.sh did not install the runner next to the binary"
# The runner is small and links nothing of the app (no cgo, no SQLite, no Wails).
runner_size=$(stat -c %s "$work/$name/pi-desktop-runner")
[ "$runner_size" -lt 4000000 ] || fail "pi-desktop-runner is $runner_size bytes; it should stay small (cmd/pi-desktop-runner)"
if go version -m "$work/$name/pi-desktop-runner" | grep -Eq 'wails|sqlite|anthropic|openai'; then
  fail "pi-desktop-runner links app packages: $(go version -m "$work/$name/pi-desktop-runner" | grep -E 'wails|sqlite|anthropic|openai')"
fi
grep -qx "Exec=$installed %F" "$work/prefix/share/applications/pi-desktop.desktop" ||
  fail "the installed desktop entry does not start $installed"
if command -v desktop-file-validate >/dev/null; then
  desktop-file-validate "$work/$name/pi-desktop.desktop"
fi

scripts/package-check-linux.sh "$version"

scripts/package-check-windows.sh "$version"
(cd build/dist && sha256sum --quiet -c SHA256SUMS) || fail "SHA256SUMS does not match build/dist"
for f in build/dist/*; do
  case "$f" in */SHA256SUMS) ;; *) grep -q " $(basename "$f")$" build/dist/SHA256SUMS || fail "SHA256SUMS lacks $(basename "$f")" ;; esac
done
echo "package-check: Linux tarball, .deb, .rpm, install script, Windows executable, installer (as far as Wine allows, above) and checksums are good"
