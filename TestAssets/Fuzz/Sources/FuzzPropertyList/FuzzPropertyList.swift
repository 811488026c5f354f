import CarillonFuzzChecks

/// libFuzzer's entry point: the input is a property list (an Info.plist, entitlements, a profile's content), XML or binary; see `FuzzChecks.propertyList`.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafeRawPointer, _ size: Int) -> CInt {
    let bytes = Array(UnsafeRawBufferPointer(start: data, count: size))
    do {
        try FuzzChecks.propertyList(bytes)
    } catch {
        fatalError("FuzzPropertyList: \(error.message)")
    }
    return 0
}
