import CarillonFuzzChecks

/// libFuzzer's entry point: the input is a result bundle (`process --bundle`, read by `merge`), read by
/// `ResultBundle.Contents`; see `FuzzChecks.resultBundle`.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafeRawPointer, _ size: Int) -> CInt {
    let bytes = Array(UnsafeRawBufferPointer(start: data, count: size))
    do {
        try FuzzChecks.resultBundle(bytes)
    } catch {
        fatalError("FuzzResultBundle: \(error.message)")
    }
    return 0
}
