import CarillonFuzzChecks

/// One input under 4 KiB in this many is also written to a file (README "Speed"): for every one, the file
/// was a third of the target's time.
private let fileShare = 8

/// libFuzzer's entry point: the input is a downloaded image body, decided by `ImageVerifier`; one input
/// under 4 KiB in `fileShare` (by its bytes, so that a crash replays) is also written to a file and
/// decided by the file reader, which must agree. See `FuzzChecks.imageVerdict`; the streamed splits are
/// `FuzzImageStream`'s.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafeRawPointer, _ size: Int) -> CInt {
    let bytes = Array(UnsafeRawBufferPointer(start: data, count: size))
    do {
        try FuzzChecks.imageVerdict(bytes, checkFile: size < 4096 && FuzzSampling.oneIn(fileShare, bytes))
    } catch {
        fatalError("FuzzImageVerifier: \(error.message)")
    }
    return 0
}
