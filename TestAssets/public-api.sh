#!/usr/bin/env bash
# Prints CarillonExtensionCore's public surface: the declarations an app or extension can use, without
# the tooling surface behind @_spi(Tooling) (which the CLI, the bench, the fuzzer and the tests import).
# The README's "The public API" list is this output. Usage: TestAssets/public-api.sh [--members]
set -euo pipefail
cd "$(dirname "$0")/.."
swift build --target CarillonExtensionCore >/dev/null
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
bin=$(swift build --show-bin-path)
# CCRC32's module map is generated under the build directory (TestAssets/docc.sh uses the same paths).
swift symbolgraph-extract -module-name CarillonExtensionCore -I "$bin/Modules" -I Sources/CCurl -I Sources/COpenSSL \
    -I Sources/CZlib -Xcc -fmodule-map-file="$bin/CCRC32.build/module.modulemap" -Xcc -I -Xcc Sources/CCRC32/include \
    -target "$(uname -m)-unknown-linux-gnu" -minimum-access-level public -output-dir "$out"
python3 - "$out/CarillonExtensionCore.symbols.json" "${1:-}" <<'PY'
import json, sys
graph = json.load(open(sys.argv[1]))
members = {}
kinds = {}
for symbol in graph["symbols"]:
    path = symbol["pathComponents"]
    kind = symbol["kind"]["identifier"].split(".")[-1]
    if len(path) == 1:
        kinds[path[0]] = kind
    else:
        members.setdefault(path[0], []).append(".".join(path[1:]))
for name in sorted(kinds):
    line = f"{kinds[name]} {name}"
    if sys.argv[2] == "--members":
        line += ": " + ", ".join(sorted(set(members.get(name, []))))
    print(line)
print(f"{len(kinds)} public types, {len(graph['symbols'])} public symbols", file=sys.stderr)
PY
