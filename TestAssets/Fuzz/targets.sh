# The fuzz targets, each one's dictionary and seeds, and the build flags: sourced by smoke.sh and
# oss-fuzz/build.sh, so that a new target is added, and the build changed, in one place.
all_targets=(FuzzPayload FuzzJSON FuzzImageVerifier FuzzImageStream FuzzImageDecoders FuzzReceipt FuzzEventQueueFile FuzzEventLines FuzzAPIAnswers FuzzArguments FuzzHARImport FuzzResultBundle FuzzPropertyList FuzzZipArchive FuzzMachO FuzzProvisioningProfile)

dictionary() {
    case "$1" in
        FuzzPayload | FuzzJSON | FuzzAPIAnswers) echo payload.dict ;;
        FuzzImageVerifier | FuzzImageStream | FuzzImageDecoders) echo image.dict ;;
        FuzzReceipt | FuzzEventQueueFile | FuzzEventLines) echo record.dict ;;
        FuzzArguments) echo arguments.dict ;;
        FuzzHARImport) echo har.dict ;;
        FuzzResultBundle) echo bundle.dict ;;
        FuzzPropertyList | FuzzZipArchive | FuzzMachO | FuzzProvisioningProfile) echo app.dict ;;
    esac
}

# Each target's seed files: its own Corpus/<target>/, plus the repository's fixtures where they are
# seeds (one source per fixture: the sample payloads and images are not copied into Corpus/).
seed_files() {
    find "Corpus/$(regressions_target "$1")" -maxdepth 1 -type f ! -name '.*'
    case "$1" in
        FuzzPayload | FuzzJSON) find ../Payloads -type f -name '*.json' ;;
        FuzzImageVerifier | FuzzImageStream | FuzzImageDecoders) find ../Images -type f ! -name '*.md' ! -name '*.py' ! -name '*.sh' ;;
        FuzzHARImport) find ../HAR -type f ! -name '*.md' ! -name '*.py' ;;
        FuzzProvisioningProfile) find ../Apps/Real -type f -name '*.mobileprovision' ;;
    esac
}

# The folder name under Corpus/ and Regressions/ of a target's inputs. FuzzJSON reads payload files,
# FuzzImageStream image bodies and FuzzEventLines event records: they share FuzzPayload's,
# FuzzImageVerifier's and FuzzEventQueueFile's seeds and saved inputs (the regression test replays both
# targets' checks on each of those).
regressions_target() {
    case "$1" in
        FuzzJSON) echo FuzzPayload ;;
        FuzzImageStream) echo FuzzImageVerifier ;;
        FuzzEventLines) echo FuzzEventQueueFile ;;
        *) echo "$1" ;;
    esac
}

# Copies a target's seed files, flat, into the directory $2 (made if missing), for libFuzzer to read: the
# fixture folders also hold READMEs and scripts, which are no seeds (and whose size, 24 KiB for
# TestAssets/Images/make_images.py, would set libFuzzer's default -max_len).
seed_directory() {
    mkdir -p "$2"
    local file
    while IFS= read -r file; do
        cp "$file" "$2/$(tr / _ <<<"${file#../}")"
    done < <(seed_files "$1")
}

# The build of the fuzz targets, for smoke.sh and oss-fuzz/build.sh alike: optimised (`-c release`, as
# OSS-Fuzz builds Swift projects), with libFuzzer and the sanitizer $1 (default address), into the array
# build_flags. `--sanitize=fuzzer` makes SwiftPM link libFuzzer's main; `-Xswiftc -sanitize=fuzzer,…`
# instruments the Swift code for coverage and the sanitizer (`--sanitize=fuzzer --sanitize=address`, as
# the OSS-Fuzz image's $SWIFT6_2FLAGS spells it, keeps only one of the two: see README.md).
# `-enable-testing` because FuzzArguments and FuzzImageDecoders reach internal API through
# `@testable import`, which a release build otherwise refuses. For the coverage report (sanitizer
# `coverage`), coverage mapping instead of a sanitizer. oss-fuzz/build.sh adds a static Swift standard
# library (see there for what that costs).
fuzz_build_flags() {
    local sanitizer=${1:-address}
    build_flags=(-c release --sanitize=fuzzer -Xswiftc -enable-testing)
    if [[ $sanitizer == coverage ]]; then
        build_flags+=(-Xswiftc -sanitize=fuzzer -Xswiftc -profile-generate -Xswiftc -profile-coverage-mapping)
    else
        build_flags+=(-Xswiftc "-sanitize=fuzzer,$sanitizer")
    fi
}
