import CarillonFuzzChecks

/// libFuzzer's entry point: the input is an embedded.mobileprovision (CMS SignedData in BER), or DER entitlements; see `FuzzChecks.provisioningProfile`.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafeRawPointer, _ size: Int) -> CInt {
    let bytes = Array(UnsafeRawBufferPointer(start: data, count: size))
    do {
        try FuzzChecks.provisioningProfile(bytes)
    } catch {
        fatalError("FuzzProvisioningProfile: \(error.message)")
    }
    return 0
}
