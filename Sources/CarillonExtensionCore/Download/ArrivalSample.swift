/// One sample of a recorded body's arrival (``RecordedHop/arrival``).
package struct ArrivalSample: Sendable, Equatable {
    /// Milliseconds from the download's start.
    package var milliseconds: Double
    /// Decoded bytes received by then.
    package var bytes: Int

    package init(milliseconds: Double, bytes: Int) {
        self.milliseconds = milliseconds
        self.bytes = bytes
    }
}
