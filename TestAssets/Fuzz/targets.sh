# The fuzz targets and each one's dictionary: sourced by smoke.sh and oss-fuzz/build.sh, so that a new
# target is added in one place.
all_targets=(FuzzPayload FuzzImageVerifier FuzzImageDecoders FuzzReceipt FuzzEventQueueFile FuzzArguments)

dictionary() {
    case "$1" in
        FuzzPayload) echo payload.dict ;;
        FuzzImageVerifier | FuzzImageDecoders) echo image.dict ;;
        FuzzReceipt | FuzzEventQueueFile) echo record.dict ;;
        FuzzArguments) echo arguments.dict ;;
    esac
}

# Each target's seed files: its own Corpus/<target>/, plus the repository's fixtures where they are
# seeds (one source per fixture: the sample payloads and images are not copied into Corpus/).
seed_files() {
    find "Corpus/$1" -maxdepth 1 -type f ! -name '.*'
    case "$1" in
        FuzzPayload) find ../Payloads -type f -name '*.json' ;;
        FuzzImageVerifier | FuzzImageDecoders) find ../Images -type f ! -name '*.md' ! -name '*.py' ;;
    esac
}

# The directories libFuzzer reads them from (it reads each recursively).
seed_directories() {
    echo "Corpus/$1"
    case "$1" in
        FuzzPayload) echo ../Payloads ;;
        FuzzImageVerifier | FuzzImageDecoders) echo ../Images ;;
    esac
}
