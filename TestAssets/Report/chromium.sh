#!/usr/bin/env bash
# Renders an HTML report in headless Chromium (Debian: chromium), offline, and says what its console said.
#
#   TestAssets/Report/chromium.sh dom        REPORT.html OUT.html     [CONSOLE.txt]
#   TestAssets/Report/chromium.sh screenshot REPORT.html OUT.png W H  [CONSOLE.txt]
#
# dom writes the DOM after load (--dump-dom); screenshot writes a W×H PNG of the top of the page at a
# device scale of 1. CONSOLE.txt receives every console message and CSP refusal Chromium logged (lines
# with "CONSOLE", "Refused to" or "Content Security Policy"), empty when the page was clean. Exit 3 when
# chromium is missing.
#
# Nothing leaves the machine: the page is a file:// URL; every host name resolves to nothing and every
# proxy is a closed loopback port, so even Chromium's own background requests cannot go out; the
# profile is a fresh temporary directory, removed afterwards. --no-sandbox because CI runs as root.
set -euo pipefail
mode="$1"; report="$2"; out="$3"; shift 3
browser="$(command -v chromium || command -v chromium-browser || true)"
[ -n "$browser" ] || { echo "chromium.sh: chromium is not installed (Debian: apt-get install -y chromium)" >&2; exit 3; }
case "$report" in /*) ;; *) report="$PWD/$report" ;; esac

profile="$(mktemp -d "${TMPDIR:-/tmp}/carillon-chromium.XXXXXX")"
trap 'rm -rf "$profile"' EXIT
flags=(--headless --no-sandbox --disable-gpu --no-first-run --no-default-browser-check --disable-extensions
  --disable-background-networking --disable-component-update --disable-sync --disable-default-apps
  --disable-features=Translate,MediaRouter,OptimizationHints --metrics-recording-only --mute-audio
  --host-resolver-rules="MAP * ~NOTFOUND" --proxy-server="127.0.0.1:9" --proxy-bypass-list="<-loopback>"
  --user-data-dir="$profile" --force-device-scale-factor=1 --hide-scrollbars
  --enable-logging=stderr --v=0 --virtual-time-budget=5000 --timeout=20000)

case "$mode" in
  dom)
    console="${1:-/dev/null}"
    timeout 60 "$browser" "${flags[@]}" --dump-dom "file://$report" >"$out" 2>"$profile/log" || true ;;
  screenshot)
    width="$1"; height="$2"; console="${3:-/dev/null}"
    timeout 60 "$browser" "${flags[@]}" --window-size="$width,$height" --screenshot="$out" "file://$report" >/dev/null 2>"$profile/log" || true ;;
  *) echo "chromium.sh: mode is dom or screenshot, not '$mode'" >&2; exit 64 ;;
esac
grep -E "CONSOLE|Refused to|Content Security Policy" "$profile/log" >"$console" || true
[ -s "$out" ] || { echo "chromium.sh: chromium wrote nothing; its log:" >&2; tail -20 "$profile/log" >&2; exit 1; }
