import CarillonFuzzChecks

/// libFuzzer's entry point: the input is a HAR file (or a compressed `.zhar`), read and normalised, its
/// bodies read under a cap, and read again with its entries reversed and unknown `_` fields added; see
/// `FuzzChecks.harImport`.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafeRawPointer, _ size: Int) -> CInt {
    let bytes = Array(UnsafeRawBufferPointer(start: data, count: size))
    do {
        try FuzzChecks.harImport(bytes)
    } catch {
        fatalError("FuzzHARImport: \(error.message)")
    }
    return 0
}
