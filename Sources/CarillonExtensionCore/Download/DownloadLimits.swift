/// The limits every image download runs under (SPEC §2).
public struct DownloadLimits: Sendable, Equatable {
    /// Wall time for the whole download — DNS, connect, TLS, redirects, body — from its start.
    public var budget: Duration
    /// Largest body accepted, in bytes; exactly this many is accepted.
    public var maximumBytes: Int
    /// Redirects followed at most.
    public var maximumRedirects: Int

    /// 20 seconds, 10 MiB, 5 redirects: what the product's extension uses.
    public static let standard = DownloadLimits(budget: .seconds(20), maximumBytes: 10_485_760, maximumRedirects: 5)

    /// Limits of your own; ``standard`` is what the product's extension uses.
    public init(budget: Duration, maximumBytes: Int, maximumRedirects: Int = 5) {
        self.budget = budget
        self.maximumBytes = maximumBytes
        self.maximumRedirects = maximumRedirects
    }
}
