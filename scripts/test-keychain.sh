#!/usr/bin/env bash
# Runs the OS keychain test (backend/provider, build tag keychain_integration)
# against a real keychain. On Linux it starts a private D-Bus session with
# gnome-keyring's Secret Service, unlocked with a throwaway password, so
# nothing of the user's own keyring is touched. On macOS and Windows it uses
# the user's keychain under a throwaway service name that the test removes.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ "$(uname -s)" = Linux ]; then
  scripts/ensure-apt.sh gnome-keyring dbus-daemon
  # A throwaway HOME keeps gnome-keyring away from the user's keyrings; the
  # Go caches stay where they are.
  GOMODCACHE=$(go env GOMODCACHE) GOCACHE=$(go env GOCACHE) GOPATH=$(go env GOPATH)
  export GOMODCACHE GOCACHE GOPATH
  exec dbus-run-session -- bash -c '
    export HOME=$(mktemp -d) XDG_DATA_HOME=$(mktemp -d)
    trap "rm -rf \"$HOME\" \"$XDG_DATA_HOME\"" EXIT
    printf pi-desktop-test | gnome-keyring-daemon --unlock --components=secrets >/dev/null
    go test -count=1 -tags keychain_integration -run TestOSKeychainKeys ./backend/provider/'
fi
exec go test -count=1 -tags keychain_integration -run TestOSKeychainKeys ./backend/provider/
