import CarillonFuzzChecks

/// libFuzzer's entry point: the input is an FCM HTTP v1 message (or any JSON), mapped to the APNs request
/// FCM sends for it and judged; see `FuzzChecks.fcmMessage`.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafeRawPointer, _ size: Int) -> CInt {
    let bytes = Array(UnsafeRawBufferPointer(start: data, count: size))
    do {
        try FuzzChecks.fcmMessage(bytes)
    } catch {
        fatalError("FuzzFCMMessage: \(error.message)")
    }
    return 0
}
