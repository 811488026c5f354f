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
