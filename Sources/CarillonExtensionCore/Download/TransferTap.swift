/// What a recording listens to during a download: every request of the chain as it starts, the
/// request head as the transport sent it, the body bytes as they came over the wire, and every piece
/// of the decoded body whatever the decisions made of it (so the piece that passed the cap, or that
/// the sink refused, is heard too), told whether the sink took it. It decides nothing and cannot stop
/// the transfer.
///
/// Only a recording sets one (``TransferFeed/run(_:configuration:source:tap:sink:)``); a live run and a
/// replay have none. The transport calls ``requestHead(_:)`` and ``wire(_:)`` only when it can see
/// them (libcurl's debug callback, which is on only for a recording's downloaders).
protocol TransferTap: AnyObject {
    /// Request `number` of the chain (from 1) starts: what follows belongs to it.
    func startHop(number: Int)
    /// Part of the request head as sent (request line and fields; may come in several parts).
    func requestHead(_ bytes: UnsafeRawBufferPointer)
    /// Body bytes as received, before any decoding (content codings, chunk framing included as the
    /// transport sees them).
    func wire(_ bytes: UnsafeRawBufferPointer)
    /// One piece of the decoded body, once the decisions have dealt with it: `taken` when the sink took
    /// it (a sink that writes a file has appended it there by then), false when it was refused,
    /// discarded or stopped at.
    func body(_ piece: UnsafeRawBufferPointer, taken: Bool)
}
