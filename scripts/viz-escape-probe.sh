#!/usr/bin/env bash
# Real-window check that a visualization fragment cannot reach the host's
# Wails IPC (README "Visualizations and the sandbox"). Seeds a data dir whose
# session shows probe.html (scripts/vizprobe), opens the production binary on
# it under Xvfb, waits until the app has opened the fragment to serve the
# card (inotify: proof the card loaded), lets its scripts run, screenshots
# the window, and fails if any target session was renamed by the fragment.
# Then a turn of a scripted model (vizprobe model, through the environment's
# provider settings) opens the workspace page probe-page.html in the
# BrowserPreview pane; the page tries the same routes and more from its own
# origin, and reports its outcome as its title, which the probe checks
# reached the model (proof the page ran in this window).
# Usage: scripts/viz-escape-probe.sh BINARY [OUT.png]   (re-executes under xvfb-run)
set -euo pipefail
bin=$(realpath "$1"); out=$(realpath -m "${2:-viz-escape-probe.png}")
here=$(cd "$(dirname "$0")" && pwd)
if [ -z "${PI_PROBE_INNER:-}" ]; then
  PI_PROBE_INNER=1 exec xvfb-run -a -s "-screen 0 1440x900x24" "$0" "$bin" "$out"
fi
work=$(mktemp -d); log="$work/app.log"; pid=""
model=""
trap '[ -n "$pid" ] && kill -KILL "$pid" 2>/dev/null; [ -n "$model" ] && kill "$model" 2>/dev/null; rm -rf "$work"' EXIT
mkdir -p "$work/ws"
(cd "$here/.." && go build -o "$work/vizprobe" ./scripts/vizprobe)
sid=$("$work/vizprobe" seed "$work/data" "$work/ws")
echo "probe: seeded session $sid"
frag="$work/data/visualizations/$sid/probe.html"
"$work/vizprobe" opened "$frag" 45 >"$work/watch" 2>&1 &
watcher=$!
for _ in $(seq 1 50); do grep -q watching "$work/watch" && break; sleep 0.1; done

"$work/vizprobe" model "$work/result" >"$work/model.url" 2>"$work/model.err" &
model=$!
for _ in $(seq 1 50); do [ -s "$work/model.url" ] && break; sleep 0.1; done
[ -s "$work/model.url" ] || { echo "probe: the scripted model did not start: $(cat "$work/model.err")" >&2; exit 1; }

PI_DESKTOP_PROVIDER=openai-compatible PI_DESKTOP_BASE_URL=$(cat "$work/model.url") \
  PI_DESKTOP_MODEL=probe-model OPENAI_API_KEY=sk-probe \
  "$bin" --data-dir "$work/data" --session "$sid" >"$log" 2>&1 &
pid=$!
fail() { echo "probe: $*" >&2; echo "--- app output ---" >&2; cat "$log" >&2; exit 1; }

win=""
for _ in $(seq 1 150); do
  kill -0 "$pid" 2>/dev/null || fail "the app exited before its window appeared"
  info=$(xwininfo -name "PI-Desktop" 2>/dev/null || true)
  if grep -q "Map State: IsViewable" <<<"$info"; then
    win=$(awk '/Window id:/ {print $4}' <<<"$info"); break
  fi
  sleep 0.2
done
[ -n "$win" ] || fail "no mapped window named PI-Desktop within 30 s"

wait "$watcher" || fail "$(cat "$work/watch")"
echo "probe: the app served probe.html"
# The preview turn: focus the message box (Ctrl+L), type a prompt, send.
xdotool windowfocus --sync "$win" 2>/dev/null || xdotool windowfocus "$win"
sleep 0.5
xdotool key ctrl+l; sleep 0.3
xdotool type --delay 20 "Open the probe page"; xdotool key Return
for _ in $(seq 1 300); do [ -s "$work/result" ] && break; sleep 0.2; done
reported=$("$work/vizprobe" result "$work/result") || fail "the preview turn did not complete: $(cat "$work/result" 2>/dev/null)"
echo "probe: the preview page ran and reported: $reported"
# The fragment runs as soon as its frame loads; give it time to post and the
# host time to handle any IPC message it got.
sleep "${PI_PROBE_WAIT:-4}"
mkdir -p "$(dirname "$out")"
/usr/bin/import -window "$win" "$out" 2>/dev/null || true
echo "probe: screenshot $out"
kill -TERM "$pid"; wait "$pid" 2>/dev/null || true; pid=""

titles=$("$work/vizprobe" titles "$work/data")
echo "$titles" | sed 's/^/probe: session /'
if grep -q " escaped-" <<<"$titles"; then
  echo "probe: FAIL: the fragment reached the host's IPC (renamed a session)" >&2
  exit 1
fi
echo "probe: ok: no fragment call reached the host"
