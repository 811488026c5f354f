/// How downloads are made: their limits, App Transport Security, and any extra certificate
/// authorities to trust.
public struct DownloadConfiguration: Sendable, Equatable {
    /// The budget, the size cap and the redirect limit of each download.
    public var limits: DownloadLimits
    /// A PEM file of extra trusted certificate authorities (tests, staging). The system's trust store
    /// stays in use and verification is never switched off.
    public var extraCAFile: String?
    /// ATS per host, by default without exceptions for any host, as iOS applies it to an extension that
    /// declares none.
    public var transportSecurityPolicy: TransportSecurityPolicy
    /// ATS for the hosts no exception names (``TransportSecurityPolicy/standard``).
    public var transportSecurity: TransportSecurity {
        get { transportSecurityPolicy.standard }
        set { transportSecurityPolicy.standard = newValue }
    }
    /// The request's header fields, by default the ones the extension's `URLSession` sends.
    public var requestHeaders: RequestHeaders

    /// A configuration; by default the standard limits, the system's trust store alone, and ATS without exceptions.
    public init(
        limits: DownloadLimits = .standard, extraCAFile: String? = nil, transportSecurity: TransportSecurity = .appTransportSecurity,
        requestHeaders: RequestHeaders = .iPhone
    ) {
        self.limits = limits
        self.extraCAFile = extraCAFile
        transportSecurityPolicy = TransportSecurityPolicy(standard: transportSecurity)
        self.requestHeaders = requestHeaders
    }
}
