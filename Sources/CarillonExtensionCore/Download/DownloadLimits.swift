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

/// How downloads are made: their limits, App Transport Security, and any extra certificate
/// authorities to trust.
public struct DownloadConfiguration: Sendable, Equatable {
    /// The budget, the size cap and the redirect limit of each download.
    public var limits: DownloadLimits
    /// A PEM file of extra trusted certificate authorities (tests, staging). The system's trust store
    /// stays in use and verification is never switched off.
    public var extraCAFile: String?
    /// ATS, by default without exceptions, as iOS applies it.
    public var transportSecurity: TransportSecurity
    /// The request's header fields, by default the ones the extension's `URLSession` sends.
    public var requestHeaders: RequestHeaders

    /// A configuration; by default the standard limits, the system's trust store alone, and ATS without exceptions.
    public init(
        limits: DownloadLimits = .standard, extraCAFile: String? = nil, transportSecurity: TransportSecurity = .appTransportSecurity,
        requestHeaders: RequestHeaders = .iPhone
    ) {
        self.limits = limits
        self.extraCAFile = extraCAFile
        self.transportSecurity = transportSecurity
        self.requestHeaders = requestHeaders
    }
}
