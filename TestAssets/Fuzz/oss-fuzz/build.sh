#!/bin/bash -eu
# OSS-Fuzz / ClusterFuzzLite build for carillon-nse: builds the fuzz package in TestAssets/Fuzz/ and
# copies each target, its dictionary and its seed corpus to $OUT.
#
# Runs in base-builder-swift with $SRC, $OUT, $SANITIZER, $CFLAGS and $CXXFLAGS set. It can be tried
# without Docker:  SRC=/tmp/src OUT=/tmp/out WORK=/tmp/work SANITIZER=address CFLAGS= CXXFLAGS= \
#                  TestAssets/Fuzz/oss-fuzz/build.sh       (from a checkout; see TestAssets/Fuzz/README.md)

# The checkout: $SRC/carillon-nse in the image, or the repository this script lives in.
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
if [ -d "$SRC/carillon-nse/TestAssets/Fuzz" ]; then
    repository=$SRC/carillon-nse
else
    repository=$(cd "$here/../../.." && pwd)
fi
fuzz=$repository/TestAssets/Fuzz

# The image's helper copies llvm-symbolizer and exports SWIFTFLAGS / SWIFT6_2FLAGS; it is absent outside.
if command -v precompile_swift >/dev/null 2>&1; then
    . precompile_swift
fi

. "$fuzz/targets.sh"
targets="${all_targets[*]}"

# Our own flags rather than $SWIFT6_2FLAGS: that one spells the sanitizers as `--sanitize=fuzzer
# --sanitize=$SANITIZER`, and the compiler keeps only the last -sanitize=, which builds WITHOUT coverage
# instrumentation. fuzz_build_flags (targets.sh) is the build smoke.sh runs too: release, libFuzzer and
# the sanitizer, `-enable-testing` for the `@testable import`s. Added here: a static Swift standard
# library and an rpath that finds the reference decoders of FuzzImageDecoders, copied to $OUT/lib below,
# because the runner image has neither Swift nor those. Measured with Swift 6.3.1: with a static standard
# library, libFuzzer's own copy of the input is not an ASan allocation, so a read past the end of the
# `data` pointer goes unnoticed (allocations made by Swift code are still checked). Every entry point
# copies the input into an Array before anything reads it; smoke.sh, with the shared runtime, would
# catch a target that does not.
fuzz_build_flags "${SANITIZER:-address}"
build_flags+=(-Xswiftc -static-stdlib --static-swift-stdlib -Xlinker -rpath -Xlinker '$ORIGIN/lib')
if [ "${SANITIZER:-address}" != "coverage" ]; then
    for flag in ${CFLAGS:-}; do build_flags+=("-Xcc=$flag"); done
fi

cd "$fuzz"
swift build "${build_flags[@]}"
bin=$(swift build "${build_flags[@]}" --show-bin-path)

mkdir -p "$OUT/lib"
for library in png16 jpeg gif; do
    cp -L "$(ldconfig -p | sed -n "s|.*lib$library\.so\.[0-9]* .*=> \(.*\)|\1|p" | head -1)" "$OUT/lib/"
done
for target in $targets; do
    cp "$bin/$target" "$OUT/$target"
    cp "$(dictionary "$target")" "$OUT/$target.dict"
    # The seeds and the saved regression inputs, flat in one zip.
    rm -f "$OUT/${target}_seed_corpus.zip"
    zip -q -j "$OUT/${target}_seed_corpus.zip" $(seed_files "$target") $(find "Regressions/$(regressions_target "$target")" -maxdepth 1 -type f ! -name '.*' ! -name README.md)
done

# Both instrumentations in the project's own code (`--sanitize=fuzzer --sanitize=address` keeps coverage
# but silently drops ASan from the Swift code with Swift 6.3.1).
if [ "${SANITIZER:-address}" = "address" ] && command -v nm >/dev/null 2>&1; then
    if ! nm "$bin"/CarillonExtensionCore.build/*.o 2>/dev/null | grep -q __asan_; then
        echo "CarillonExtensionCore was built without AddressSanitizer instrumentation" >&2
        exit 1
    fi
fi

# A build without coverage runs but finds nothing: refuse it here rather than fuzz blind. (Skipped for the
# coverage build, whose binaries have no fuzzing instrumentation by design.)
if [ "${SANITIZER:-address}" != "coverage" ]; then
    check=$(mktemp -d)
    for target in $targets; do
        # An empty scratch directory first: libFuzzer writes new inputs into the first one.
        mkdir "$check/corpus-$target"
        seed_directory "$target" "$check/seeds-$target"
        SWIFT_BACKTRACE=enable=no ASAN_OPTIONS=detect_leaks=0:quarantine_size_mb=16 TMPDIR=$check \
            "$OUT/$target" -runs=2000 -seed=1 "$check/corpus-$target" "$check/seeds-$target" >"$check/$target.log" 2>&1 || true
        if grep -Eq "Is the code instrumented for coverage|no interesting inputs" "$check/$target.log" \
            || ! grep -q " cov: " "$check/$target.log"; then
            echo "$target was built without coverage instrumentation:" >&2
            tail -5 "$check/$target.log" >&2
            exit 1
        fi
    done
    rm -rf "$check"
fi
