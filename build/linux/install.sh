#!/bin/sh
# Installs PI-Desktop from this unpacked tarball: the binary, its desktop
# entry and icon. PREFIX defaults to ~/.local (as root: /usr/local).
# Needs WebKitGTK 4.1 at run time (Debian/Ubuntu: libwebkit2gtk-4.1-0).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
if [ "$(id -u)" = 0 ]; then prefix=${PREFIX:-/usr/local}; else prefix=${PREFIX:-$HOME/.local}; fi
install -Dm755 "$here/pi-desktop" "$prefix/bin/pi-desktop"
install -Dm755 "$here/pi-desktop-runner" "$prefix/bin/pi-desktop-runner"
install -Dm644 "$here/pi-desktop.png" "$prefix/share/icons/hicolor/256x256/apps/pi-desktop.png"
sed "s|^Exec=pi-desktop|Exec=$prefix/bin/pi-desktop|" "$here/pi-desktop.desktop" >"$here/.desktop.tmp"
install -Dm644 "$here/.desktop.tmp" "$prefix/share/applications/pi-desktop.desktop"
rm -f "$here/.desktop.tmp"
command -v update-desktop-database >/dev/null 2>&1 && update-desktop-database "$prefix/share/applications" 2>/dev/null || true
echo "PI-Desktop installed in $prefix/bin/pi-desktop"
