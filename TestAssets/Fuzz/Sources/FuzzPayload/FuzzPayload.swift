import CarillonFuzzChecks

/// libFuzzer's entry point: the input is an APNs payload file, run through the whole pre-network pipeline
/// (`Payload` → `Routing` → `CarillonStamp` → `ImageURL` → `NotificationContent`); see `FuzzChecks.pipeline`.
/// The JSON layer's own checks (round trip, `Payload` against the parser) are `FuzzJSON`'s.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafeRawPointer, _ size: Int) -> CInt {
    let bytes = Array(UnsafeRawBufferPointer(start: data, count: size))
    do {
        try FuzzChecks.pipeline(bytes)
    } catch {
        fatalError("FuzzPayload: \(error.message)")
    }
    return 0
}
