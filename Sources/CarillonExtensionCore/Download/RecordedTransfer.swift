/// What a recording says one download's server sent, request by request: the input of
/// ``RecordedTransferSource``, which feeds it to the same decisions as a live download
/// (``TransferMachine``), and of a replaying ``ExtensionRuntime``.
///
/// A reader fills it from a HAR (`_carillon` format 1 or a foreign export); the recording side
/// fills it from a live download. Everything is as received, never as concluded: the head's lines in
/// order, the decoded body, and how each request ended.
package struct RecordedTransfer: Sendable, Equatable {
    /// Every request recorded, in any order: a request of the chain is matched by its URL
    /// (``RecordedHop/url``, by the source's ``RecordedURLMatch``), the first unused hop with that URL first.
    package var hops: [RecordedHop]
    /// The connections the hops name (``RecordedHop/connection``), with their TLS facts and chains.
    package var connections: [RecordedConnection]
    /// The App Transport Security settings the recording was made under, when it says: a refused
    /// handshake without ``RecordedConnection/offered`` facts is undetermined under looser ones.
    package var recordedSecurity: TransportSecurity?
    /// Certificates the recording trusted beside the system's store (DER): the extra trust the live run
    /// had, public by nature, so that its chains are judged offline under the same trust.
    package var trust: [[UInt8]] = []
    /// How an `undetermined` detail names the recording ("the HAR"), as in "redirect target not in the HAR".
    package var called: String

    /// A recorded transfer of `hops` over `connections`, named `called` in details.
    package init(hops: [RecordedHop], connections: [RecordedConnection] = [], called: String = "the recording") {
        self.hops = hops
        self.connections = connections
        self.called = called
    }

    /// The connection called `id`, if recorded.
    package func connection(_ id: String?) -> RecordedConnection? {
        guard let id else { return nil }
        return connections.first { $0.id == id }
    }
}
