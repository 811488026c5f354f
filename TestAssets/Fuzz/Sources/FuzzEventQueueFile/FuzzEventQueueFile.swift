import CarillonFuzzChecks

/// One input in this many is also written into a real queue directory (README "Speed"): at one in eight,
/// the directory, its files, the queue's lock and fsyncs were over half of the target's time.
private let queueShare = 64

/// libFuzzer's entry point: the input is one or more event-queue records, one per line, decoded as the
/// queue reads its files and made into `POST /v1/events` batches. One input in `queueShare` (by its
/// bytes, so that a crash replays) is also written into a real queue directory and read back with
/// `EventQueue.contents`. See `FuzzChecks.eventRecords`; the same input read as the scan's JSON Lines and
/// as one format-2 queue file is `FuzzEventLines`'s.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafeRawPointer, _ size: Int) -> CInt {
    let bytes = Array(UnsafeRawBufferPointer(start: data, count: size))
    do {
        try FuzzChecks.eventRecords(bytes, throughQueue: FuzzSampling.oneIn(queueShare, bytes))
    } catch {
        fatalError("FuzzEventQueueFile: \(error.message)")
    }
    return 0
}
