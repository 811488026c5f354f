#!/usr/bin/env bash
# Runs the bundled sample payloads (TestAssets/Payloads/) through carillon-nse against the local HTTPS
# test server, a 3,000-payload campaign, the request forms (TestAssets/Requests/mixed/) and two generated
# apps through doctor, then drains the receipts into an event queue, prints the POST /v1/events bodies, uploads
# them to the local events API stand-in (TestAssets/Server/events_api.py) and reads the run back from it:
# a verdict per sent event and the hourly opens (readback).
#
#   TestAssets/run-samples.sh [--keep]      (--keep leaves the work directory for a look afterwards)
#
# Everything stays on loopback: both servers bind 127.0.0.1 only, each with a CA made at start-up.
set -euo pipefail
cd "$(dirname "$0")/.."

keep=no
[ "${1:-}" = "--keep" ] && keep=yes

# libcurl's, OpenSSL's and zlib's headers are the system packages the build needs (Debian:
# libcurl4-openssl-dev, libssl-dev, zlib1g-dev).
if ! pkg-config --exists libcurl openssl zlib 2>/dev/null; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    echo "==> installing libcurl4-openssl-dev libssl-dev zlib1g-dev" >&2
    apt-get update -qq >&2 && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq libcurl4-openssl-dev libssl-dev zlib1g-dev >&2
  else
    echo "run-samples: libcurl's, OpenSSL's or zlib's headers are missing: run 'sudo apt-get install -y libcurl4-openssl-dev libssl-dev zlib1g-dev'" >&2
    exit 1
  fi
fi

echo "==> building carillon-nse" >&2
swift build --product carillon-nse >&2
tool="$(swift build --show-bin-path)/carillon-nse"

work="$(mktemp -d "${TMPDIR:-/tmp}/carillon-samples.XXXXXX")"
server_pid=""
api_pid=""
cleanup() {
  [ -n "$server_pid" ] && kill "$server_pid" 2>/dev/null || true
  [ -n "$api_pid" ] && kill "$api_pid" 2>/dev/null || true
  if [ "$keep" = yes ]; then echo "==> work directory kept: $work" >&2; else rm -rf "$work"; fi
}
trap cleanup EXIT

echo "==> starting the local HTTPS test server" >&2
python3 TestAssets/Server/server.py --ready-file "$work/ready.json" >/dev/null &
server_pid=$!
for _ in $(seq 1 100); do [ -s "$work/ready.json" ] && break; sleep 0.1; done
[ -s "$work/ready.json" ] || { echo "run-samples: the test server did not start" >&2; exit 1; }
base_url="$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["base_url"])' "$work/ready.json")"
ca_file="$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["ca_file"])' "$work/ready.json")"
echo "    $base_url (CA: $ca_file)" >&2

# The payloads name the server as {{BASE_URL}}; its port is only known now.
mkdir -p "$work/Payloads"
for group in TestAssets/Payloads/*/; do
  name="$(basename "$group")"
  mkdir -p "$work/Payloads/$name"
  for file in "$group"*.json; do
    sed "s#{{BASE_URL}}#$base_url#g" "$file" > "$work/Payloads/$name/$(basename "$file")"
  done
done

report="${CARILLON_REPORT:-${TMPDIR:-/tmp}/carillon-samples-report.html}"
case "$report" in /*) ;; *) report="$PWD/$report" ;; esac

cd "$work"
echo "==> carillon-nse process --jobs 4 --budget 5 --report $report Payloads/*" >&2
set +e
"$tool" process --ca-file "$ca_file" --container container --attachments attachments \
  --budget 5 --jobs 4 --report "$report" Payloads/routing Payloads/stamp Payloads/download Payloads/odd Payloads/malformed
status=$?
set -e
echo "==> process exit status: $status (1 is expected: Payloads/malformed/ holds inputs that are not JSON objects)" >&2

echo "==> attachments written:" >&2
ls -l attachments >&2 || true

# A campaign (Documentation/Campaigns.md): 3,000 payloads from one template, eight distinct images (four
# broken), each fetched once; the summary is printed as a table, the JUnit file kept beside the report.
echo "==> TestAssets/Campaign/generate.py > campaign.jsonl (3000 payloads)" >&2
python3 "$OLDPWD/TestAssets/Campaign/generate.py" "$base_url" 3000 > campaign.jsonl
echo "==> carillon-nse process --jobs 8 --summary campaign-summary.json --format junit campaign.jsonl" >&2
set +e
"$tool" process --ca-file "$ca_file" --attachments campaign-attachments --jobs 8 --summary campaign-summary.json \
  --format junit campaign.jsonl > campaign.junit.xml
campaign_status=$?
set -e
echo "==> campaign exit status: $campaign_status; JUnit: $(grep -c '<testcase' campaign.junit.xml) test cases" >&2
python3 "$OLDPWD/TestAssets/Campaign/summarize.py" campaign-summary.json

# The request before the extension (Documentation/Requests.md): a directory holding each form people paste
# (an APNs request text, curl commands, an FCM message, an Xcode .apns file): what APNs answers, whether the
# extension runs and where the image shows. Nothing is sent to APNs or FCM; the images come from the server.
mkdir -p Requests
for file in "$OLDPWD"/TestAssets/Requests/mixed/*; do
  sed "s#{{BASE_URL}}#$base_url#g" "$file" > "Requests/$(basename "$file")"
done
echo "==> carillon-nse process --format text Requests (the request forms, TestAssets/Requests/mixed/)" >&2
"$tool" process --ca-file "$ca_file" --budget 5 --format text Requests

# The app as built (Documentation/Doctor.md): two generated apps (TestAssets/Apps/make_apps.py: binary
# plists, signed Mach-O, CMS profiles) checked against the SDK's setup; the second spells its App Group
# differently in the extension (exit 2: a finding fails). Then a payload run as the healthy app's extension
# (its ATS exceptions, its User-Agent).
echo "==> TestAssets/Apps/make_apps.py apps --only healthy app-group-differs" >&2
python3 "$OLDPWD/TestAssets/Apps/make_apps.py" apps --only healthy app-group-differs >/dev/null
for app in healthy app-group-differs; do
  echo "==> carillon-nse doctor --format text apps/$app/Carillon.ipa" >&2
  set +e
  "$tool" doctor --format text "apps/$app/Carillon.ipa"
  doctor_status=$?
  set -e
  echo "==> doctor exit status: $doctor_status" >&2
done
echo "==> carillon-nse process --app apps/healthy/Carillon.ipa --format text Payloads/routing/01-attached-png.json" >&2
"$tool" process --ca-file "$ca_file" --app apps/healthy/Carillon.ipa --format text Payloads/routing/01-attached-png.json

echo "==> carillon-nse drain --container container --queue queue" >&2
"$tool" drain --container container --queue queue

# The tap five minutes ago: a fixed date would soon be over 30 days old, and batches and upload would warn
# that the API stores the moment it receives the event instead (SPEC §5) — right, but not this run's point.
tapped_at="$(python3 -c 'import datetime as d; t = d.datetime.now(d.timezone.utc) - d.timedelta(minutes=5); print(t.strftime("%Y-%m-%dT%H:%M:%S.") + f"{t.microsecond // 1000:03d}Z")')"
echo "==> carillon-nse open --queue queue --at $tapped_at Payloads/routing/01-attached-png.json" >&2
"$tool" open --queue queue --at "$tapped_at" Payloads/routing/01-attached-png.json

echo "==> carillon-nse batches --queue queue" >&2
"$tool" batches --queue queue

# The app's upload: the key lives with the app (a 0600 file here), never in the container or the queue.
# The stand-in is started with a fixture holding this run's deliveries (every delivery id the queue holds,
# as one message, "samples", created an hour ago), a mobile key to post and a secret key to read back.
echo "==> starting the local events API stand-in (fixture: this run's deliveries as message 'samples')" >&2
(umask 077; echo "carillon_mk_samples_$$" > "$work/mobile-key"; echo "carillon_sk_samples_$$" > "$work/secret-key")
"$tool" batches --queue queue | python3 -c '
import datetime as d, json, sys
ids = []
for line in sys.stdin:
    for event in json.loads(line)["events"]:
        if event["delivery_id"] not in ids:
            ids.append(event["delivery_id"])
t = d.datetime.now(d.timezone.utc) - d.timedelta(hours=1)
created = t.strftime("%Y-%m-%dT%H:%M:%S.") + f"{t.microsecond // 1000:03d}Z"
mobile, secret = (open(sys.argv[1]).read().strip(), open(sys.argv[2]).read().strip())
json.dump({"keys": [{"key": mobile, "app": "samples"}, {"key": secret, "app": "samples", "scopes": ["deliveries:read"]}],
           "messages": [{"id": "samples", "app": "samples", "created_at": created,
                         "deliveries": [{"id": i, "device_id": "sample-device", "platform": "ios", "status": "sent",
                                         "error_code": None} for i in ids]}]}, open(sys.argv[3], "w"))
' "$work/mobile-key" "$work/secret-key" "$work/fixture.json"
python3 "$OLDPWD/TestAssets/Server/events_api.py" --key-file "$work/mobile-key" --fixture "$work/fixture.json" \
  --ready-file "$work/api.json" >/dev/null &
api_pid=$!
for _ in $(seq 1 100); do [ -s "$work/api.json" ] && break; sleep 0.1; done
[ -s "$work/api.json" ] || { echo "run-samples: the events API stand-in did not start" >&2; exit 1; }
api_url="$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["base_url"])' "$work/api.json")"
api_ca="$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["ca_file"])' "$work/api.json")"

echo "==> carillon-nse upload --queue queue --endpoint $api_url --key-file mobile-key --sent-log sent.log" >&2
"$tool" upload --queue queue --endpoint "$api_url" --key-file "$work/mobile-key" --ca-file "$api_ca" --sent-log sent.log

# The hand-off ends where a person reads it: the run's own events, read back with the secret key, a
# verdict for each (Documentation/Readback.md), and the hourly opens drawn as bars.
echo "==> carillon-nse readback --message samples --sent-log sent.log --opens --format text" >&2
"$tool" readback --endpoint "$api_url" --key-file "$work/secret-key" --ca-file "$api_ca" --message samples \
  --sent-log sent.log --opens --format text

echo "==> report of the process run (open it in a browser; it fetches nothing):" >&2
echo "$report" >&2
