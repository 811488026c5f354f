import CarillonFuzzChecks

/// libFuzzer's entry point: the input is a Mach-O executable, thin or fat, with its code signature; see `FuzzChecks.machO`.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafeRawPointer, _ size: Int) -> CInt {
    let bytes = Array(UnsafeRawBufferPointer(start: data, count: size))
    do {
        try FuzzChecks.machO(bytes)
    } catch {
        fatalError("FuzzMachO: \(error.message)")
    }
    return 0
}
