import CarillonFuzzChecks

/// libFuzzer's entry point: the input is a downloaded image body, decided by `ImageVerifier`; inputs under
/// 4 KiB are also written to a file and decided by the file reader, which must agree. See
/// `FuzzChecks.imageVerifier`.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafeRawPointer, _ size: Int) -> CInt {
    let bytes = Array(UnsafeRawBufferPointer(start: data, count: size))
    do {
        try FuzzChecks.imageVerifier(bytes, checkFile: size < 4096)
    } catch {
        fatalError("FuzzImageVerifier: \(error.message)")
    }
    return 0
}
