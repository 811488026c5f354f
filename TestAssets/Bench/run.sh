#!/bin/bash
# carillon-nse benchmarks against curl and the iOS extension's memory budget (SPEC §7).
# Usage: TestAssets/Bench/run.sh [--quick] [--no-build] [--keep] [--scratch-path DIR]
# Builds release, starts the local HTTPS test server, prints one table. Exits non-zero only when
# something breaks, never on a timing. See README.md beside this file.
set -euo pipefail
exec python3 "$(dirname "$0")/bench.py" "$@"
