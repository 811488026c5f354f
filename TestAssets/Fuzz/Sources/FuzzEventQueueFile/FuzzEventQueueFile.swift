import CarillonFuzzChecks

/// libFuzzer's entry point: the input is one or more event-queue records, one per line, decoded as the
/// queue reads its files and made into `POST /v1/events` batches. One input in eight (by length) is also
/// written into a real queue directory and read back with `EventQueue.contents`. See
/// `FuzzChecks.eventQueueFile`.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafeRawPointer, _ size: Int) -> CInt {
    let bytes = Array(UnsafeRawBufferPointer(start: data, count: size))
    do {
        try FuzzChecks.eventQueueFile(bytes, throughQueue: size % 8 == 0)
    } catch {
        fatalError("FuzzEventQueueFile: \(error.message)")
    }
    return 0
}
