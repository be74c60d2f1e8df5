#!/usr/bin/env bash
# Launches the production binary under Xvfb, waits for its window to be
# mapped and painted, screenshots it, checks the picture is not blank, then
# sends SIGTERM and requires a clean exit within 5 seconds.
# Usage: scripts/smoke.sh BINARY OUT.png   (re-executes itself under xvfb-run)
set -euo pipefail
bin=$(realpath "$1"); out=$(realpath -m "$2")
if [ -z "${PI_SMOKE_INNER:-}" ]; then
  PI_SMOKE_INNER=1 exec xvfb-run -a -s "-screen 0 1440x900x24" "$0" "$bin" "$out"
fi
mkdir -p "$(dirname "$out")"
data=$(mktemp -d); log="$data/app.log"
trap 'kill -KILL "$pid" 2>/dev/null || true; rm -rf "$data"' EXIT
"$bin" --data-dir "$data/data" >"$log" 2>&1 &
pid=$!

fail() { echo "smoke: $*" >&2; echo "--- app output ---" >&2; cat "$log" >&2; exit 1; }

win=""
for _ in $(seq 1 150); do  # up to 30 s for the window to map
  kill -0 "$pid" 2>/dev/null || fail "the app exited before its window appeared"
  info=$(xwininfo -name "PI-Desktop" 2>/dev/null || true)
  if grep -q "Map State: IsViewable" <<<"$info"; then
    win=$(awk '/Window id:/ {print $4}' <<<"$info"); break
  fi
  sleep 0.2
done
[ -n "$win" ] || fail "no mapped window named PI-Desktop within 30 s"
echo "smoke: window $win mapped"

# The webview paints after the window maps: wait until the picture has
# structure (a blank window is one flat colour).
painted=""
for _ in $(seq 1 60); do  # up to 30 s for content
  /usr/bin/import -window "$win" "$out" 2>/dev/null || true
  if [ -s "$out" ]; then
    colors=$(/usr/bin/convert "$out" -format '%k' info:)
    sd=$(/usr/bin/convert "$out" -colorspace Gray -format '%[fx:standard_deviation]' info:)
    if [ "$colors" -gt 64 ] && awk -v s="$sd" 'BEGIN{exit !(s > 0.02)}'; then
      painted=1; break
    fi
  fi
  sleep 0.5
done
[ -n "$painted" ] || fail "the window stayed blank (colours=${colors:-?}, stddev=${sd:-?}); see $out"
echo "smoke: screenshot $out has $colors colours, stddev $sd"

kill -TERM "$pid"
for _ in $(seq 1 50); do
  kill -0 "$pid" 2>/dev/null || break
  sleep 0.1
done
if kill -0 "$pid" 2>/dev/null; then fail "the app did not exit within 5 s of SIGTERM"; fi
set +e; wait "$pid"; code=$?; set -e
[ "$code" -eq 0 ] || fail "the app exited with status $code after SIGTERM"
echo "smoke: clean exit after SIGTERM"
