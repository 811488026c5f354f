import CarillonFuzzChecks

/// libFuzzer's entry point: the input is event-queue records, one per line, as for `FuzzEventQueueFile`,
/// read as the Notification Center scan's JSON Lines and as one format-2 queue file (two more JSON parses
/// of every line: a target of their own, so that `FuzzEventQueueFile` runs at full speed). Its saved
/// inputs go to `Regressions/FuzzEventQueueFile/`, which replays both. See `FuzzChecks.eventLines`.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafeRawPointer, _ size: Int) -> CInt {
    let bytes = Array(UnsafeRawBufferPointer(start: data, count: size))
    do {
        try FuzzChecks.eventLines(bytes)
    } catch {
        fatalError("FuzzEventLines: \(error.message)")
    }
    return 0
}
