import CarillonFuzzChecks

/// libFuzzer's entry point: the input is a zip archive (an .ipa), read from memory; see `FuzzChecks.zipArchive`.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafeRawPointer, _ size: Int) -> CInt {
    let bytes = Array(UnsafeRawBufferPointer(start: data, count: size))
    do {
        try FuzzChecks.zipArchive(bytes)
    } catch {
        fatalError("FuzzZipArchive: \(error.message)")
    }
    return 0
}
