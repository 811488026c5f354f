import CarillonFuzzChecks

/// libFuzzer's entry point: the input is a request someone pasted — a curl command in a shell script, an
/// APNs request as text, anything — read by the shell-quoting reader and the request readers, judged,
/// and its NUL-separated pieces quoted and read back; see `FuzzChecks.curlCommand`.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafeRawPointer, _ size: Int) -> CInt {
    let bytes = Array(UnsafeRawBufferPointer(start: data, count: size))
    do {
        try FuzzChecks.curlCommand(bytes)
    } catch {
        fatalError("FuzzCurlCommand: \(error.message)")
    }
    return 0
}
