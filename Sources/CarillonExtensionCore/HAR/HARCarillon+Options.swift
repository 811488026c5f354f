extension HARCarillon {
    /// `log._carillon.options`: every setting a recording's verdict depended on, so that a replay of
    /// the file needs nothing that is not in it: the budget and time-will-expire, the byte cap, App
    /// Transport Security's two exceptions, the request's header fields, and the extra trust the
    /// chains were judged under (certificates, public by nature).
    package struct Options: Sendable, Equatable {
        /// The download's time budget.
        package var budget: Duration?
        /// The byte cap.
        package var maximumBytes: Int?
        /// App Transport Security's lowest TLS version, and whether forward secrecy was required.
        package var minimumTLS: TransportSecurity.TLSVersion?
        package var requiresForwardSecrecy: Bool?
        /// The request's header fields as configured, in order.
        package var requestHeaders: [HTTPField] = []
        /// When time-will-expire came after delivery.
        package var expireAfter: Duration?
        /// Certificates trusted beside the system's store (DER), as the extra CA file held them.
        package var trust: [[UInt8]] = []
        /// The app's App Transport Security exceptions per domain (its extension's `NSExceptionDomains`).
        package var exceptions: [TransportSecurityPolicy.DomainException] = []

        /// The settings of `configuration`, with time-will-expire and the extra trust it ran under.
        package init(_ configuration: DownloadConfiguration, expireAfter: Duration?, trust: [[UInt8]]) {
            budget = configuration.limits.budget
            maximumBytes = configuration.limits.maximumBytes
            minimumTLS = configuration.transportSecurity.minimumTLS
            requiresForwardSecrecy = configuration.transportSecurity.requiresForwardSecrecy
            requestHeaders = configuration.requestHeaders.fields
            exceptions = configuration.transportSecurityPolicy.exceptions
            self.expireAfter = expireAfter
            self.trust = trust
        }

        /// The options as read: a member of a wrong type, or out of range, reads as not recorded.
        init?(_ value: JSONValue) {
            guard value.isObject else { return nil }
            budget = Self.duration(value["budget_ms"])
            maximumBytes = HARCarillon.count(value["max_bytes"]).flatMap { $0 > 0 ? $0 : nil }
            minimumTLS = value["tls_minimum"]?.stringValue.flatMap(TransportSecurity.TLSVersion.init(rawValue:))
            if case .bool(let required)? = value["forward_secrecy"] { requiresForwardSecrecy = required }
            if case .array(let fields)? = value["request_headers"] {
                requestHeaders = fields.compactMap { field in
                    guard let name = field["name"]?.stringValue, let value = field["value"]?.stringValue else { return nil }
                    return HTTPField(name: name, value: value)
                }
            }
            expireAfter = Self.duration(value["expire_after_ms"])
            if case .array(let items)? = value["ats_exceptions"] { exceptions = items.compactMap(Self.exception) }
            if case .array(let certificates)? = value["trust"]?["certs"] {
                trust = certificates.compactMap { $0.stringValue.flatMap { try? Base64.decode($0) } }.filter { !$0.isEmpty }
            }
        }

        /// The options as written.
        var json: JSONValue {
            var members: [(key: String, value: JSONValue)] = [
                ("budget_ms", HARCarillon.number(budget.map { Int(clamping: $0.wholeMilliseconds) })),
                ("max_bytes", HARCarillon.number(maximumBytes)),
                ("tls_minimum", minimumTLS.map { .string($0.rawValue) } ?? .null),
                ("forward_secrecy", requiresForwardSecrecy.map { .bool($0) } ?? .null),
                (
                    "request_headers",
                    .array(requestHeaders.map { .object([("name", .string($0.name)), ("value", .string($0.value))]) })
                ),
                ("expire_after_ms", HARCarillon.number(expireAfter.map { Int(clamping: $0.wholeMilliseconds) })),
            ]
            if !exceptions.isEmpty { members.append(("ats_exceptions", .array(exceptions.map(Self.json)))) }
            if !trust.isEmpty {
                members.append(("trust", ["encoding": "base64-der", "certs": .array(trust.map { .string(Base64.encode($0)) })]))
            }
            return .object(members)
        }

        /// The App Transport Security settings, when both are recorded.
        package var transportSecurity: TransportSecurity? {
            guard let minimumTLS, let requiresForwardSecrecy else { return nil }
            return TransportSecurity(minimumTLS: minimumTLS, requiresForwardSecrecy: requiresForwardSecrecy)
        }

        /// One exception as read: a domain, and each key of ATS's it sets (a missing one keeps ATS's default).
        private static func exception(_ value: JSONValue) -> TransportSecurityPolicy.DomainException? {
            guard let domain = value["domain"]?.stringValue, !domain.isEmpty else { return nil }
            var security = TransportSecurity.appTransportSecurity
            if let minimum = value["tls_minimum"]?.stringValue.flatMap(TransportSecurity.TLSVersion.init(rawValue:)) {
                security.minimumTLS = minimum
            }
            if case .bool(let required)? = value["forward_secrecy"] { security.requiresForwardSecrecy = required }
            return TransportSecurityPolicy.DomainException(
                domain: domain, includesSubdomains: value["includes_subdomains"] == .bool(true), security: security,
                allowsInsecureHTTPLoads: value["insecure_http_loads"] == .bool(true))
        }

        private static func json(_ exception: TransportSecurityPolicy.DomainException) -> JSONValue {
            [
                "domain": .string(exception.domain), "includes_subdomains": .bool(exception.includesSubdomains),
                "tls_minimum": .string(exception.security.minimumTLS.rawValue),
                "forward_secrecy": .bool(exception.security.requiresForwardSecrecy),
                "insecure_http_loads": .bool(exception.allowsInsecureHTTPLoads),
            ]
        }

        /// Whole milliseconds over 0 as a duration.
        private static func duration(_ value: JSONValue?) -> Duration? {
            guard let milliseconds = value?.doubleValue, milliseconds.isFinite, milliseconds > 0, milliseconds < 1e12 else { return nil }
            return .milliseconds(Int64(milliseconds))
        }
    }
}
