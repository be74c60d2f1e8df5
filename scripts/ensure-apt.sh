#!/usr/bin/env bash
# Installs the Debian/Ubuntu packages named as arguments that are missing.
# As root it installs them; otherwise it prints the exact command and fails.
set -euo pipefail
recommends=--no-install-recommends
if [ "${1:-}" = "--with-recommends" ]; then recommends=; shift; fi
missing=()
for pkg in "$@"; do
  dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || missing+=("$pkg")
done
[ ${#missing[@]} -eq 0 ] && exit 0
if ! command -v apt-get >/dev/null 2>&1; then
  echo "Missing system packages: ${missing[*]}. Install them with your package manager (see README.md)." >&2
  exit 1
fi
if [ "$(id -u)" -ne 0 ]; then
  echo "Missing system packages: ${missing[*]}" >&2
  echo "Install them, then run make again:" >&2
  echo "  sudo apt-get update && sudo apt-get install -y ${missing[*]}" >&2
  exit 1
fi
echo "Installing system packages: ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq $recommends "${missing[@]}" >/dev/null
