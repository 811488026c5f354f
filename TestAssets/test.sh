#!/usr/bin/env bash
# The README's test command: installs what the tests need when it is missing (as root, with apt), builds,
# and runs every test, one at a time (swift test --no-parallel). No test is skipped for a missing package:
# one that lacks its command fails, naming the package.
#
#   TestAssets/test.sh [swift test arguments...]     e.g. TestAssets/test.sh --filter CompletionScriptTests
#   TestAssets/test.sh --install-only                installs what is missing, runs nothing
#
# Every package here is in .ci/run's install line too (CI calls this script for its test step).
set -euo pipefail
cd "$(dirname "$0")/.."

# What the tests need, beside Swift, python3, openssl and curl (on every machine of this kind):
#   libcurl4-openssl-dev libssl-dev zlib1g-dev   the build (the downloader, App Transport Security, PNG CRCs)
#   strace                                       the hostile-environment tests hold or fail a system call
#   chromium                                     ReportBrowserTests render the report, headless and offline
#   nginx-light                                  CurlDownloaderHTTP2Tests: HTTP/2 over loopback
#   brotli zstd                                  the test server encodes its br and zstd bodies with them
#   zsh fish                                     CompletionScriptTests run the completions in each shell
#   man-db groff-base bsdextrautils              GeneratedReferenceTests render the man page (man, groff, col)
#   libplist-utils                               PropertyListReaderTests compare with plistutil, both forms
packages=(libcurl4-openssl-dev libssl-dev zlib1g-dev strace chromium nginx-light brotli zstd zsh fish
  man-db groff-base bsdextrautils libplist-utils)

install_only=no
[ "${1:-}" = "--install-only" ] && { install_only=yes; shift; }

for tool in swift python3 openssl curl; do
  command -v "$tool" >/dev/null || { echo "test.sh: '$tool' is missing: the tests need it on the PATH" >&2; exit 1; }
done

missing=()
for package in "${packages[@]}"; do
  status="$(dpkg-query -W -f='${Status}' "$package" 2>/dev/null || true)"
  [ "$status" = "install ok installed" ] || missing+=("$package")
done

if [ "${#missing[@]}" -gt 0 ]; then
  if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null; then
    echo "test.sh: the tests need packages that are not installed: ${missing[*]}" >&2
    echo "test.sh: run this script as root, or first: sudo apt-get update && sudo apt-get install -y ${missing[*]}" >&2
    exit 1
  fi
  echo "==> installing what the tests need: ${missing[*]}" >&2
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq >&2
  apt-get install -y -qq "${missing[@]}" >&2
  echo "==> installed: ${missing[*]}" >&2
else
  echo "==> every package the tests need is installed" >&2
fi
[ "$install_only" = yes ] && exit 0

echo "==> swift build --build-tests" >&2
swift build --build-tests
# One test at a time: run in parallel on 2 cores, the local servers and the real budgets contend.
echo "==> swift test --no-parallel $*" >&2
exec swift test --skip-build --no-parallel "$@"
