/// App Transport Security as an app's Info.plist configures it: the rules for hosts no exception names
/// (``standard``), and the exceptions of `NSExceptionDomains`, each for a domain (and, with
/// `NSIncludesSubdomains`, its subdomains), an IP address or an address range. A download asks it for
/// the ``TransportSecurity`` of each host it connects to (``security(forHost:)``), on every hop.
public struct TransportSecurityPolicy: Sendable, Equatable {
    /// The rules for a host that no exception names: ATS without exceptions, or, with
    /// `NSAllowsArbitraryLoads`, ATS's extended checks off.
    public var standard: TransportSecurity
    /// `NSExceptionDomains`, in the order read.
    public var exceptions: [DomainException]

    /// One host's exception: an entry of `NSExceptionDomains`.
    public struct DomainException: Sendable, Equatable {
        /// The key as written: a lowercase domain name, an IPv4 or IPv6 address, or a CIDR range.
        public var domain: String
        /// `NSIncludesSubdomains` (no effect for an address).
        public var includesSubdomains: Bool
        /// What the exception's `NSExceptionMinimumTLSVersion` and `NSExceptionRequiresForwardSecrecy`
        /// make of ATS (each key left out keeps ATS's default).
        public var security: TransportSecurity
        /// `NSExceptionAllowsInsecureHTTPLoads`.
        public var allowsInsecureHTTPLoads: Bool

        /// An exception for `domain`.
        public init(
            domain: String, includesSubdomains: Bool = false, security: TransportSecurity = .appTransportSecurity,
            allowsInsecureHTTPLoads: Bool = false
        ) {
            self.domain = domain
            self.includesSubdomains = includesSubdomains
            self.security = security
            self.allowsInsecureHTTPLoads = allowsInsecureHTTPLoads
        }

        /// Whether the exception applies to `host` (a host name, or an address without brackets), as
        /// Apple's `NSExceptionDomains` documents it: a name in any case matches itself, and with
        /// `NSIncludesSubdomains` a name one label longer (`a.example.com` for `example.com`, not
        /// `b.a.example.com`); an address matches an equal address, a range every address in it; a name
        /// never matches an address, nor an address a name.
        public func matches(_ host: String) -> Bool {
            if let range = IPAddressRange(domain) {
                guard let address = IPAddressRange.address(host) else { return false }
                return range.contains(address)
            }
            if IPAddressRange.address(host) != nil { return false }
            let name = host.lowercased()
            let domain = domain.lowercased()
            if name == domain { return true }
            guard includesSubdomains, name.hasSuffix("." + domain) else { return false }
            return !name.dropLast(domain.count + 1).contains(".")
        }
    }

    /// A policy with `standard` for every host and `exceptions` for theirs.
    public init(standard: TransportSecurity = .appTransportSecurity, exceptions: [DomainException] = []) {
        self.standard = standard
        self.exceptions = exceptions
    }

    /// The exception that applies to `host`: one naming it exactly first, then the one of the longest
    /// domain or the narrowest range; nil when none does.
    public func exception(forHost host: String) -> DomainException? {
        let matching = exceptions.filter { $0.matches(host) }
        if let exact = matching.first(where: { $0.domain.lowercased() == host.lowercased() }) { return exact }
        return matching.max { specificity($0) < specificity($1) }
    }

    private func specificity(_ exception: DomainException) -> Int {
        IPAddressRange(exception.domain)?.prefixLength ?? exception.domain.count
    }

    /// The rules a connection to `host` is held to.
    public func security(forHost host: String) -> TransportSecurity {
        exception(forHost: host)?.security ?? standard
    }

    /// The same policy with `minimumTLS` and `requiresForwardSecrecy`, where given, in force for every
    /// host: an explicit answer to "would this exception have fixed it?" wins over the app's own.
    public func overriding(minimumTLS: TransportSecurity.TLSVersion?, requiresForwardSecrecy: Bool?) -> TransportSecurityPolicy {
        func apply(_ security: TransportSecurity) -> TransportSecurity {
            var security = security
            if let minimumTLS { security.minimumTLS = minimumTLS }
            if let requiresForwardSecrecy { security.requiresForwardSecrecy = requiresForwardSecrecy }
            return security
        }
        var policy = self
        policy.standard = apply(standard)
        for index in policy.exceptions.indices { policy.exceptions[index].security = apply(policy.exceptions[index].security) }
        return policy
    }
}
