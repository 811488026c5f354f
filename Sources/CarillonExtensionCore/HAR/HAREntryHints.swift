/// What an exporter said about an entry in its own fields: hints for notes, never a verdict.
package struct HAREntryHints: Sendable, Equatable {
    /// Chrome's `_fromCache` (`memory`, `disk`) or Safari's `_fetchType` when it names a cache.
    package var fromCache: String?
    /// Chrome's and Safari's `_error` (why no response arrived).
    package var error: String?
    /// Chrome's `_resourceType` (`image`, `script`...).
    package var resourceType: String?
    /// Safari's `_fetchType` as written.
    package var fetchType: String?
    /// Playwright's `_securityDetails.protocol` (the only TLS fact any exporter writes).
    package var securityProtocol: String?
    /// Firefox's `_securityState`.
    package var securityState: String?
    /// `comment` of the entry, when non-empty.
    package var comment: String?

    /// No hints.
    package init(
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
