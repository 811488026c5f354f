import CarillonFuzzChecks

/// libFuzzer's entry point: the input is a downloaded image body, fed to `ImageStreamVerifier` (what
/// downloads use) in pieces of 1, 7, an input-chosen size and 4096 bytes, each of which must decide
/// exactly as `ImageVerifier.verify(bytes:)`. Four whole verifications of every input: a target of their
/// own, so that `FuzzImageVerifier` runs at full speed. Its saved inputs go to
/// `Regressions/FuzzImageVerifier/`, which replays both. See `FuzzChecks.imageStreams`.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafeRawPointer, _ size: Int) -> CInt {
    let bytes = Array(UnsafeRawBufferPointer(start: data, count: size))
    do {
        try FuzzChecks.imageStreams(bytes)
    } catch {
        fatalError("FuzzImageStream: \(error.message)")
    }
    return 0
}
