#!/usr/bin/env bash
# Checks the .deb and .rpm that scripts/package.sh wrote, as a Debian or
# Fedora user receives them (run as root by scripts/package-check.sh):
# dependencies, dpkg install, the installed files and binary, removal that
# leaves the user's data alone, apt's dependency resolution on a machine
# without them (simulated with an empty dpkg status), and lintian.
# Usage: scripts/package-check-linux.sh VERSION
set -euo pipefail
cd "$(dirname "$0")/.."
version=${1:?usage: scripts/package-check-linux.sh VERSION}
fail() { echo "package-check: $*" >&2; exit 1; }
arch=$(go env GOARCH)
shopt -s nullglob
debs=(build/dist/pi-desktop_*_"$arch".deb)
rpms=(build/dist/pi-desktop-*.rpm)
[ ${#debs[@]} = 1 ] || fail "want one .deb in build/dist, found ${#debs[@]}"
[ ${#rpms[@]} = 1 ] || fail "want one .rpm in build/dist, found ${#rpms[@]}"
deb=${debs[0]} rpm=${rpms[0]}

info=$(dpkg-deb -f "$deb" Depends Recommends)
for dep in libwebkit2gtk-4.1-0 libgtk-3-0 libc6; do
  grep -q "^Depends:.*\b$dep\b" <<<"$info" || fail "$deb does not depend on $dep: $info"
done
for rec in git ripgrep; do
  grep -q "^Recommends:.*\b$rec\b" <<<"$info" || fail "$deb does not recommend $rec: $info"
done

want=(/usr/bin/pi-desktop /usr/bin/pi-desktop-runner /usr/share/applications/pi-desktop.desktop /usr/share/mime/packages/pi-desktop.xml
  /usr/share/doc/pi-desktop/copyright)
for size in 16 24 32 48 64 128 256 512; do want+=("/usr/share/icons/hicolor/${size}x${size}/apps/pi-desktop.png"); done

[ "$(id -u)" = 0 ] || fail "dpkg -i needs root; run as root (CI does)"
# The check installs and then removes the package: never over a real install.
if dpkg-query -W -f '${Status}' pi-desktop 2>/dev/null | grep -q 'install ok installed'; then
  [ "${PI_PACKAGE_CHECK_REPLACE:-}" = 1 ] ||
    fail "pi-desktop is installed on this machine; the check would replace and then remove it. Remove it first, or set PI_PACKAGE_CHECK_REPLACE=1"
fi
work=$(mktemp -d)
cleanup() { dpkg -r pi-desktop >/dev/null 2>&1 || true; rm -rf "$work"; }
trap cleanup EXIT
# The user's data folder, as the app would have left it.
data="$work/home/.local/share/pi-desktop"
mkdir -p "$data" && echo keep >"$data/pi.sqlite"

dpkg -i "$deb" >/dev/null || fail "dpkg -i $deb failed"
listed=$(dpkg -L pi-desktop)
for f in "${want[@]}"; do
  grep -qx "$f" <<<"$listed" || fail "dpkg -L pi-desktop lacks $f"
  [ -f "$f" ] || fail "$f is listed but not installed"
done
out=$(HOME="$work/home" /usr/bin/pi-desktop version) || fail "the installed pi-desktop does not run"
case "$out" in "pi-desktop $version "*) ;; *) fail "installed binary reports '$out', want version $version" ;; esac
desktop-file-validate /usr/share/applications/pi-desktop.desktop 2>/dev/null || ! command -v desktop-file-validate >/dev/null ||
  fail "the installed desktop entry is not valid"
# Opening a .piplug in a file manager starts the app with the file (it hands it to a
# running app on the same data folder).
grep -qx 'MimeType=application/x-pi-desktop-plugin;' /usr/share/applications/pi-desktop.desktop &&
  grep -qx 'Exec=pi-desktop %F' /usr/share/applications/pi-desktop.desktop ||
  fail "the desktop entry does not open .piplug files (MimeType, Exec %F)"
grep -q 'type="application/x-pi-desktop-plugin"' /usr/share/mime/packages/pi-desktop.xml ||
  fail "the MIME package does not define application/x-pi-desktop-plugin"
dpkg -r pi-desktop >/dev/null || fail "dpkg -r pi-desktop failed"
for f in "${want[@]}"; do [ ! -e "$f" ] || fail "$f is left after dpkg -r"; done
[ "$(cat "$data/pi.sqlite")" = keep ] || fail "removing the package touched the user's data folder"

# A machine with nothing installed: apt must pull the toolkit and recommends.
: >"$work/status"
sim=$(apt-get -s -o Dir::State::status="$work/status" install "./$deb" 2>&1) || fail "apt-get -s install ./$deb failed: $sim"
for dep in libwebkit2gtk-4.1-0 libgtk-3-0 git ripgrep; do
  grep -q "^Inst $dep " <<<"$sim" || fail "apt-get install ./$deb would not install $dep"
done

if command -v lintian >/dev/null; then
  lint=$(lintian --tag-display-limit 0 "$deb" 2>/dev/null || true)
  echo "$lint" | sed 's/^/lintian: /'
  ! grep -q '^E:' <<<"$lint" || fail "lintian reports errors in $deb"
else
  echo "package-check: lintian is not installed; the .deb was not linted"
fi

if command -v rpm >/dev/null; then
  files=$(rpm -qpl "$rpm" 2>/dev/null)
  for f in "${want[@]}"; do
    [ "$f" = /usr/share/doc/pi-desktop/copyright ] && continue # Debian's layout only
    grep -qx "$f" <<<"$files" || fail "$rpm lacks $f"
  done
  rpm -qpR "$rpm" 2>/dev/null | grep -q '^webkit2gtk4.1' || fail "$rpm does not require webkit2gtk4.1"
else
  echo "package-check: rpm is not installed; the .rpm's contents were not listed"
fi
echo "package-check: .deb and .rpm are good ($deb, $rpm)"
