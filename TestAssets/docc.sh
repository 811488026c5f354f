#!/usr/bin/env bash
# Builds CarillonExtensionCore's DocC archive with the toolchain's own tools, no package plugin: the
# compiler's symbol graph of the public API (symbols behind @_spi(Tooling) are left out), then
# `docc convert` of Sources/CarillonExtensionCore/CarillonExtensionCore.docc with warnings as errors,
# then a check that every public symbol has a doc comment (DocC itself does not require one).
# Writes .build/CarillonExtensionCore.doccarchive, transformed for static hosting.
# Usage: TestAssets/docc.sh           build and check the archive
#        TestAssets/docc.sh preview   serve the catalog with `docc preview` on 127.0.0.1 (Ctrl-C ends it)
set -euo pipefail
cd "$(dirname "$0")/.."
module=CarillonExtensionCore
catalog=Sources/$module/$module.docc
graphs=.build/symbol-graphs/$module
archive=.build/$module.doccarchive

swift build --target "$module" >/dev/null
bin=$(swift build --show-bin-path)
rm -rf "$graphs"
mkdir -p "$graphs"
# The same search paths the package's build uses: the C targets' module maps (CCRC32's is generated
# under the build directory).
swift symbolgraph-extract -module-name "$module" -target "$(uname -m)-unknown-linux-gnu" -minimum-access-level public \
    -I "$bin/Modules" -I Sources/CCurl -I Sources/COpenSSL -I Sources/CZlib \
    -Xcc -fmodule-map-file="$bin/CCRC32.build/module.modulemap" -Xcc -I -Xcc Sources/CCRC32/include \
    -output-dir "$graphs"

converter=(docc convert "$catalog" --additional-symbol-graph-dir "$graphs" --fallback-display-name "$module"
    --fallback-bundle-identifier "com.carillon.$module" --fallback-default-module-kind "Framework")
if [ "${1:-}" = preview ]; then
    exec docc preview "${converter[@]:2}" --port "${DOCC_PORT:-8080}"
fi
rm -rf "$archive"
"${converter[@]}" --output-dir "$archive" --warnings-as-errors --transform-for-static-hosting

# Every public symbol the compiler reports, except what it synthesizes (Equatable's ==, a RawValue's
# init), has a doc comment of its own.
python3 - "$graphs/$module.symbols.json" <<'PY'
import json, sys
symbols = json.load(open(sys.argv[1]))["symbols"]
missing = [s for s in symbols if not s.get("docComment") and "::SYNTHESIZED::" not in s["identifier"]["precise"]]
for s in missing:
    where = s.get("location", {})
    file = where.get("uri", "").split("/Sources/")[-1]
    line = where.get("position", {}).get("line", -1) + 1
    print(f"Sources/{file}:{line}: public '{'.'.join(s['pathComponents'])}' has no doc comment", file=sys.stderr)
if missing:
    sys.exit(f"docc: {len(missing)} of {len(symbols)} public symbols have no doc comment")
print(f"docc: {len(symbols)} public symbols, every one documented", file=sys.stderr)
PY
echo "docc: $archive (open: TestAssets/docc.sh preview, or serve $archive and visit /documentation/$(echo $module | tr A-Z a-z)/)" >&2
