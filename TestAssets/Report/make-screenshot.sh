#!/usr/bin/env bash
# Makes TestAssets/Report/sample-report.png, the README's picture of a report: a few sample payloads
# run against the local HTTPS test server with --report, then the page's top shot by headless Chromium
# (TestAssets/Report/chromium.sh, offline). Rerun it when the report's look changes.
#
#   TestAssets/Report/make-screenshot.sh [OUT.png]
set -euo pipefail
cd "$(dirname "$0")/../.."
out="${1:-TestAssets/Report/sample-report.png}"
case "$out" in /*) ;; *) out="$PWD/$out" ;; esac

swift build --product carillon-nse >&2
tool="$(swift build --show-bin-path)/carillon-nse"
work="$(mktemp -d "${TMPDIR:-/tmp}/carillon-screenshot.XXXXXX")"
server_pid=""
trap '[ -n "$server_pid" ] && kill "$server_pid" 2>/dev/null; rm -rf "$work"' EXIT

python3 TestAssets/Server/server.py --ready-file "$work/ready.json" >/dev/null &
server_pid=$!
for _ in $(seq 1 100); do [ -s "$work/ready.json" ] && break; sleep 0.1; done
[ -s "$work/ready.json" ] || { echo "make-screenshot: the test server did not start" >&2; exit 1; }
base_url="$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["base_url"])' "$work/ready.json")"
ca_file="$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["ca_file"])' "$work/ready.json")"

mkdir -p "$work/Payloads"
for sample in routing/01-attached-png download/07-status-404 download/05-redirect-5-hops routing/03-attached-animated-gif; do
  sed "s#{{BASE_URL}}#$base_url#g" "TestAssets/Payloads/$sample.json" > "$work/Payloads/$(basename "$sample").json"
done
cd "$work"
"$tool" process --ca-file "$ca_file" --attachments attachments --report report.html \
  Payloads/05-redirect-5-hops.json Payloads/07-status-404.json Payloads/03-attached-animated-gif.json Payloads/01-attached-png.json >/dev/null
cd - >/dev/null
TestAssets/Report/chromium.sh screenshot "$work/report.html" "$out" 1000 1500 "$work/console.txt"
if [ -s "$work/console.txt" ]; then echo "make-screenshot: the console was not clean:" >&2; cat "$work/console.txt" >&2; exit 1; fi
echo "$out ($(wc -c < "$out") bytes)"
