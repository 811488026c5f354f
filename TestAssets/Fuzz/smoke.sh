#!/usr/bin/env bash
# Builds every fuzz target with libFuzzer and AddressSanitizer, replays the saved regression inputs, then
# fuzzes each target for SECONDS, one at a time. Exits 0 when all is clean; non-zero on a crash, a leak, a
# timeout, running out of memory, or a build without coverage instrumentation.
#
#   TestAssets/Fuzz/smoke.sh SECONDS [TARGET...]      (CI: TestAssets/Fuzz/smoke.sh 20)
#
# New inputs go to .build/corpus/<target>/ (kept between runs, git-ignored; delete it to start over),
# never into the checked-in seeds in Corpus/<target>/. Crash, leak, timeout and OOM inputs go to
# .build/artifacts/<target>/; the full logs to .build/logs/. See README.md for what to do with a crash.
set -euo pipefail

usage() { echo "usage: $0 SECONDS [TARGET...]" >&2; exit 64; }
[[ $# -ge 1 && "$1" =~ ^[0-9]+$ && "$1" -gt 0 ]] || usage
seconds=$1
shift

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
cd "$here"
. "$here/targets.sh"
if [[ $# -gt 0 ]]; then targets=("$@"); else targets=("${all_targets[@]}"); fi
for target in "${targets[@]}"; do
    [[ " ${all_targets[*]} " == *" $target "* ]] || { echo "unknown target '$target' (one of: ${all_targets[*]})" >&2; exit 64; }
done

started=$(date +%s)

# FuzzImageDecoders links the reference decoders (libpng, libjpeg-turbo, giflib; never the main package):
# their Debian development packages are installed here when missing.
decoder_packages=(libpng-dev libjpeg62-turbo-dev libgif-dev)
missing=()
for package in "${decoder_packages[@]}"; do
    dpkg -s "$package" >/dev/null 2>&1 || missing+=("$package")
done
if [[ ${#missing[@]} -gt 0 ]]; then
    echo "== installing ${missing[*]} (the reference decoders of FuzzImageDecoders)"
    as_root=()
    [[ $(id -u) -ne 0 ]] && command -v sudo >/dev/null 2>&1 && as_root=(sudo)
    export DEBIAN_FRONTEND=noninteractive
    if ! "${as_root[@]}" apt-get install -y -qq "${missing[@]}" >/dev/null 2>&1; then
        "${as_root[@]}" apt-get update -qq && "${as_root[@]}" apt-get install -y -qq "${missing[@]}" >/dev/null \
            || { echo "FAIL: cannot install ${missing[*]} with apt-get" >&2; exit 1; }
    fi
fi

# The same build as oss-fuzz/build.sh (fuzz_build_flags in targets.sh): optimised, libFuzzer and
# AddressSanitizer. (`--sanitize=fuzzer --sanitize=address` compiles the Swift code with only one of the
# two: checked below.)
fuzz_build_flags address
echo "== building the fuzz targets (release, libFuzzer + AddressSanitizer)"
build_log=$(mktemp)
if ! swift build "${build_flags[@]}" >"$build_log" 2>&1; then
    grep -v "Cannot export local symbol" "$build_log" | tail -40 >&2
    rm -f "$build_log"
    echo "FAIL: the fuzz targets do not build" >&2
    exit 1
fi
rm -f "$build_log"
bin=$(swift build "${build_flags[@]}" --show-bin-path)
built=$(date +%s)
echo "   built in $((built - started)) s"

# Both instrumentations must be in the project's own code: coverage (else libFuzzer explores blind) and
# ASan (else unsafe-pointer bugs pass silently). Measured here with Swift 6.3.1: `--sanitize=fuzzer
# --sanitize=address` keeps coverage but silently drops ASan from the Swift code.
if command -v nm >/dev/null 2>&1; then
    for module in CarillonExtensionCore CarillonFuzzChecks; do
        symbols=$(nm "$bin/$module.build/"*.o 2>/dev/null || true)
        for what in __sanitizer_cov __asan_; do
            if ! grep -q "$what" <<<"$symbols"; then
                echo "FAIL: $module was built without $what instrumentation; check the build flags" >&2
                exit 1
            fi
        done
    done
fi

# Without this the Swift runtime's backtracer takes a crash first and libFuzzer saves no input.
export SWIFT_BACKTRACE=enable=no
# ASan's default quarantine (256 MB) dominates memory; leaks are reported.
export ASAN_OPTIONS=quarantine_size_mb=16:detect_leaks=1
# The targets' own files (images, queues, sandboxes) and the seeds go to a scratch directory, in memory
# when possible.
scratch_parent=/tmp
[[ -d /dev/shm && -w /dev/shm ]] && scratch_parent=/dev/shm
scratch=$(mktemp -d "$scratch_parent/carillon-fuzz-smoke.XXXXXX")
trap 'rm -rf "$scratch"' EXIT
export TMPDIR=$scratch

mkdir -p .build/logs .build/artifacts
# A per-input time limit far above any input's real cost (a few ms), and a memory limit far above the
# ~120 MB the targets use with the small quarantine.
common=(-timeout=10 -rss_limit_mb=1536 -print_final_stats=1)
failures=()

# Problems that fail the run even if libFuzzer's exit status missed them.
problems='ERROR: (libFuzzer|AddressSanitizer|LeakSanitizer)|SUMMARY: (libFuzzer|AddressSanitizer|LeakSanitizer)|Fatal error|out-of-memory|Is the code instrumented for coverage|no interesting inputs'

echo "== replaying Regressions/"
for target in "${targets[@]}"; do
    folder=Regressions/$(regressions_target "$target")
    if [[ -z "$(find "$folder" -maxdepth 1 -type f ! -name '.*' ! -name README.md 2>/dev/null)" ]]; then
        printf '   %-20s no saved inputs\n' "$target"
        continue
    fi
    log=.build/logs/$target-regressions.log
    mkdir -p ".build/artifacts/$target"
    status=0
    "$bin/$target" "${common[@]}" -runs=0 -artifact_prefix=".build/artifacts/$target/" "$folder" >"$log" 2>&1 || status=$?
    count=$(find "$folder" -maxdepth 1 -type f ! -name '.*' ! -name README.md | wc -l)
    if [[ $status -ne 0 ]] || grep -Eq "$problems" "$log"; then
        printf '   %-20s FAILED (%s inputs, exit %s; log %s)\n' "$target" "$count" "$status" "$log"
        grep -E "$problems" "$log" | head -5 | sed 's/^/      /'
        failures+=("$target regressions")
    else
        printf '   %-20s %s inputs pass\n' "$target" "$count"
    fi
done

# CPU seconds (user + system) used so far by this script's finished children: the machine may be busy,
# and exec/s per CPU second says more about a target than libFuzzer's exec/s, which is per wall second.
# Sets cpu_now; `times` runs in this shell, not in a $(...) subshell, which has no finished children.
children_cpu() {
    times >"$scratch/times"
    cpu_now=$(tail -1 "$scratch/times" | awk '{ s = 0; for (i = 1; i <= 2; i++) { split($i, t, "m"); sub("s", "", t[2]); s += t[1] * 60 + t[2] } printf "%.2f", s }')
}

echo "== fuzzing each target for $seconds s"
summary=()
for target in "${targets[@]}"; do
    corpus=.build/corpus/$target
    mkdir -p "$corpus" ".build/artifacts/$target"
    log=.build/logs/$target.log
    status=0
    # The scratch corpus comes first: libFuzzer writes new inputs into the first directory only.
    seed_directory "$target" "$scratch/seeds-$target"
    children_cpu
    cpu_before=$cpu_now
    "$bin/$target" "${common[@]}" -max_total_time="$seconds" -dict="$(dictionary "$target")" \
        -artifact_prefix=".build/artifacts/$target/" "$corpus" "$scratch/seeds-$target" >"$log" 2>&1 || status=$?
    children_cpu
    cpu=$(awk -v a="$cpu_before" -v b="$cpu_now" 'BEGIN { printf "%.1f", b - a }')
    execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
    rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -1)
    cpu_rate=$(awk -v e="${execs:-0}" -v c="$cpu" 'BEGIN { printf "%d", (c > 0 ? e / c : 0) }')
    last=$(grep -E '^#[0-9]+' "$log" | grep ' cov: ' | tail -1 || true)
    cov=$(sed -n 's/.* cov: \([0-9]*\).*/\1/p' <<<"$last")
    ft=$(sed -n 's/.* ft: \([0-9]*\).*/\1/p' <<<"$last")
    corp=$(sed -n 's/.* corp: \([^ ]*\).*/\1/p' <<<"$last")
    verdict=ok
    if [[ $status -ne 0 ]] || grep -Eq "$problems" "$log"; then
        verdict="FAILED (exit $status; log $log)"
        failures+=("$target")
    fi
    line=$(printf '%-20s execs %-9s exec/s %-6s per CPU-s %-6s (%s CPU-s) cov %-5s ft %-6s corpus %-8s %s' \
        "$target" "${execs:-?}" "${rate:-?}" "$cpu_rate" "$cpu" "${cov:-?}" "${ft:-?}" "${corp:-?}" "$verdict")
    summary+=("$line")
    echo "   $line"
    if [[ $verdict != ok ]]; then
        grep -E "$problems" "$log" | head -5 | sed 's/^/      /'
        ls ".build/artifacts/$target" | sed 's/^/      artifact: /'
    fi
done

finished=$(date +%s)
echo "== summary ($((finished - started)) s in all, $((built - started)) s of it building; load $(cut -d' ' -f1-3 /proc/loadavg))"
printf '   %s\n' "${summary[@]}"
if [[ ${#failures[@]} -gt 0 ]]; then
    echo "FAIL: ${failures[*]}" >&2
    echo "Minimise a crash with: $bin/<target> -minimize_crash=1 -runs=20000 -exact_artifact_path=min <artifact>" >&2
    exit 1
fi
echo "OK"
