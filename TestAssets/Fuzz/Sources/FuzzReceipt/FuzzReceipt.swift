import CarillonFuzzChecks

/// libFuzzer's entry point: the input is a receipt file from the shared container, read by
/// `Receipt.decode`; see `FuzzChecks.receipt`.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafeRawPointer, _ size: Int) -> CInt {
    let bytes = Array(UnsafeRawBufferPointer(start: data, count: size))
    do {
        try FuzzChecks.receipt(bytes)
    } catch {
        fatalError("FuzzReceipt: \(error.message)")
    }
    return 0
}
