import CarillonFuzzChecks

/// libFuzzer's entry point: the input is an APNs payload file, run through the whole pre-network pipeline
/// (`Payload` → `Routing` → `CarillonStamp` → `ImageURL` → `NotificationContent`); see `FuzzChecks.payload`.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafeRawPointer, _ size: Int) -> CInt {
    let bytes = Array(UnsafeRawBufferPointer(start: data, count: size))
    do {
        try FuzzChecks.payload(bytes)
    } catch {
        fatalError("FuzzPayload: \(error.message)")
    }
    return 0
}
