/// Whether a request was made, and how it ended.
enum TransferStart: Sendable, Equatable {
    /// It was made and ended so.
    case ended(HopEnding)
    /// It was never made; the chain ends with this libcurl code.
    case notStarted(code: Int32)
}
