/// What an exporter said about an entry in its own fields: hints for notes, never a verdict.
@_spi(Tooling) public struct HAREntryHints: Sendable, Equatable {
    /// Chrome's `_fromCache` (`memory`, `disk`) or Safari's `_fetchType` when it names a cache.
    public var fromCache: String?
    /// Chrome's and Safari's `_error` (why no response arrived).
    public var error: String?
    /// Chrome's `_resourceType` (`image`, `script`...).
    public var resourceType: String?
    /// Safari's `_fetchType` as written.
    public var fetchType: String?
    /// Playwright's `_securityDetails.protocol` (the only TLS fact any exporter writes).
    public var securityProtocol: String?
    /// Firefox's `_securityState`.
    public var securityState: String?
    /// `comment` of the entry, when non-empty.
    public var comment: String?

    /// No hints.
    public init(
        fromCache: String? = nil, error: String? = nil, resourceType: String? = nil, fetchType: String? = nil,
        securityProtocol: String? = nil, securityState: String? = nil, comment: String? = nil
    ) {
        self.fromCache = fromCache
        self.error = error
        self.resourceType = resourceType
        self.fetchType = fetchType
        self.securityProtocol = securityProtocol
        self.securityState = securityState
        self.comment = comment
    }
}
