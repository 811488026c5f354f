import CarillonFuzzChecks

/// libFuzzer's entry point: the input is an answer of the read-back API (`GET /v1/messages/{id}`, its
/// `/opens`, an error) or a sent-log line, read by `APIAnswerReader` and `SentLogLine`; see
/// `FuzzChecks.apiAnswers`.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafeRawPointer, _ size: Int) -> CInt {
    let bytes = Array(UnsafeRawBufferPointer(start: data, count: size))
    do {
        try FuzzChecks.apiAnswers(bytes)
    } catch {
        fatalError("FuzzAPIAnswers: \(error.message)")
    }
    return 0
}
