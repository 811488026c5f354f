/// A target's `NSAppTransportSecurity`, read as Apple documents each key (``TransportSecurityKeys``: a
/// value of another type is a problem, and read as absent), and the
/// ``TransportSecurityPolicy`` its downloads obey (``policy``):
/// - `NSAllowsArbitraryLoads` turns ATS's extended checks off for every host no exception names (TLS
///   1.0 up, any key exchange; the certificate's trust evaluation stays), and is ignored when
///   `NSAllowsArbitraryLoadsForMedia`, `NSAllowsArbitraryLoadsInWebContent` or `NSAllowsLocalNetworking`
///   is present (iOS 10 and later);
/// - each `NSExceptionDomains` entry holds its own rules whatever `NSAllowsArbitraryLoads` says:
///   `NSExceptionMinimumTLSVersion` (`TLSv1.0`…`TLSv1.3`, default `TLSv1.2`),
///   `NSExceptionRequiresForwardSecrecy` (default YES), `NSIncludesSubdomains`,
///   `NSExceptionAllowsInsecureHTTPLoads`.
package struct AppTransportSecurity: Sendable, Equatable {
    /// The dictionary as written; nil when the target declares none.
    package var declared: PropertyListValue?
    /// `NSAllowsArbitraryLoads` YES.
    package var allowsArbitraryLoads = false
    /// `NSAllowsArbitraryLoads` is YES but ignored, because one of the narrower keys is present.
    package var arbitraryLoadsIgnored = false
    /// `NSExceptionDomains`.
    package var exceptions: [TransportSecurityPolicy.DomainException] = []
    /// What could not be read as Apple documents it (a value of the wrong type, an unknown TLS version).
    package var problems: [String] = []

    /// The rules `NSAllowsArbitraryLoads` leaves: the extended checks off (the certificate's trust
    /// evaluation stays, and is the tool's certificate rules).
    static let arbitraryLoads = TransportSecurity(minimumTLS: .v1_0, requiresForwardSecrecy: false)

    /// Reads an `NSAppTransportSecurity` value (nil: none declared).
    package init(_ value: PropertyListValue?) {
        declared = value
        guard let value else { return }
        guard value.members != nil else {
            problems.append("NSAppTransportSecurity is a \(value.typeName), not a dict")
            return
        }
        problems += TransportSecurityKeys.mistyped(value.members ?? [], TransportSecurityKeys.topLevel, where: "")
        let narrower = ["NSAllowsArbitraryLoadsForMedia", "NSAllowsArbitraryLoadsInWebContent", "NSAllowsLocalNetworking"]
        if value["NSAllowsArbitraryLoads"]?.bool == true {
            allowsArbitraryLoads = !narrower.contains { value[$0]?.bool != nil }
            arbitraryLoadsIgnored = !allowsArbitraryLoads
        }
        for (domain, settings) in value["NSExceptionDomains"]?.members ?? [] {
            if let problem = TransportSecurityKeys.domainProblem(domain) { problems.append(problem) }
            guard let members = settings.members else {
                problems.append(
                    "NSExceptionDomains \(Quoting.single(domain)) is \(TransportSecurityKeys.described(settings)), where Apple documents a Dictionary"
                )
                continue
            }
            problems += TransportSecurityKeys.mistyped(
                members, TransportSecurityKeys.domain, where: "NSExceptionDomains \(Quoting.single(domain)): ")
            exceptions.append(exception(domain, settings))
        }
    }

    private mutating func exception(_ domain: String, _ settings: PropertyListValue) -> TransportSecurityPolicy.DomainException {
        var security = TransportSecurity.appTransportSecurity
        if let text = settings["NSExceptionMinimumTLSVersion"]?.string {
            if let version = Self.tlsVersion(text) {
                security.minimumTLS = version
            } else {
                problems.append("NSExceptionDomains '\(domain)': NSExceptionMinimumTLSVersion '\(text)' is not TLSv1.0 to TLSv1.3")
            }
        }
        if settings["NSExceptionRequiresForwardSecrecy"]?.bool == false { security.requiresForwardSecrecy = false }
        return TransportSecurityPolicy.DomainException(
            domain: domain, includesSubdomains: settings["NSIncludesSubdomains"]?.bool ?? false, security: security,
            allowsInsecureHTTPLoads: settings["NSExceptionAllowsInsecureHTTPLoads"]?.bool ?? false)
    }

    /// `TLSv1.0` … `TLSv1.3` as a version.
    package static func tlsVersion(_ text: String) -> TransportSecurity.TLSVersion? {
        guard text.hasPrefix("TLSv") else { return nil }
        return TransportSecurity.TLSVersion(rawValue: String(text.dropFirst(4)))
    }

    /// The rules the target's downloads obey, host by host.
    package var policy: TransportSecurityPolicy {
        TransportSecurityPolicy(standard: allowsArbitraryLoads ? Self.arbitraryLoads : .appTransportSecurity, exceptions: exceptions)
    }
}
