/// App Transport Security as iOS applies it to the extension's downloads (SPEC §2), with the two
/// exceptions an extension's Info.plist can declare.
public struct TransportSecurity: Sendable, Equatable {
    /// A TLS protocol version, as `NSExceptionMinimumTLSVersion` names it.
    public enum TLSVersion: String, CaseIterable, Sendable, Comparable {
        // swift-format-ignore: AlwaysUseLowerCamelCase
        // The versions' own names: `v10` would read as ten.
        /// TLS 1.0.
        case v1_0 = "1.0"
        // swift-format-ignore: AlwaysUseLowerCamelCase
        /// TLS 1.1.
        case v1_1 = "1.1"
        // swift-format-ignore: AlwaysUseLowerCamelCase
        /// TLS 1.2: the lowest version ATS accepts without an exception.
        case v1_2 = "1.2"
        // swift-format-ignore: AlwaysUseLowerCamelCase
        /// TLS 1.3.
        case v1_3 = "1.3"

        public static func < (a: TLSVersion, b: TLSVersion) -> Bool {
            allCases.firstIndex(of: a)! < allCases.firstIndex(of: b)!
        }
    }

    /// The lowest TLS version accepted (`NSExceptionMinimumTLSVersion`; ATS: 1.2).
    public var minimumTLS: TLSVersion
    /// Under TLS 1.2 and below, only ECDHE suites (`NSExceptionRequiresForwardSecrecy`; ATS: YES).
    public var requiresForwardSecrecy: Bool

    /// ATS without exceptions: what an extension gets by default. (Named as Apple names it,
    /// `NSAppTransportSecurity`.)
    // swift-format-ignore: DontRepeatTypeInStaticProperties
    public static let appTransportSecurity = TransportSecurity()

    /// ATS with the given exceptions; the defaults are ATS without any (``appTransportSecurity``).
    public init(minimumTLS: TLSVersion = .v1_2, requiresForwardSecrecy: Bool = true) {
        self.minimumTLS = minimumTLS
        self.requiresForwardSecrecy = requiresForwardSecrecy
    }

    /// The suites ATS accepts with forward secrecy (Apple's list, in OpenSSL's names): ECDHE with AES.
    static let forwardSecretSuites = [
        "ECDHE-ECDSA-AES256-GCM-SHA384", "ECDHE-ECDSA-AES128-GCM-SHA256", "ECDHE-ECDSA-AES256-SHA384",
        "ECDHE-ECDSA-AES128-SHA256", "ECDHE-ECDSA-AES256-SHA", "ECDHE-ECDSA-AES128-SHA",
        "ECDHE-RSA-AES256-GCM-SHA384", "ECDHE-RSA-AES128-GCM-SHA256", "ECDHE-RSA-AES256-SHA384",
        "ECDHE-RSA-AES128-SHA256", "ECDHE-RSA-AES256-SHA", "ECDHE-RSA-AES128-SHA",
    ]

    /// The suites `NSExceptionRequiresForwardSecrecy` NO adds: RSA key exchange with AES (no DHE).
    static let rsaKeyExchangeSuites = [
        "AES256-GCM-SHA384", "AES128-GCM-SHA256", "AES256-SHA256", "AES128-SHA256", "AES256-SHA", "AES128-SHA",
    ]

    /// `CURLOPT_SSL_CIPHER_LIST`: the suites offered under TLS 1.2 and below (TLS 1.3's suites are
    /// all forward secret and stay as they are). TLS 1.0 and 1.1 need OpenSSL's security level 0;
    /// the certificate rules still apply.
    var cipherList: String {
        var suites = TransportSecurity.forwardSecretSuites
        if !requiresForwardSecrecy { suites += TransportSecurity.rsaKeyExchangeSuites }
        if minimumTLS < .v1_2 { suites.append("@SECLEVEL=0") }
        return suites.joined(separator: ":")
    }

    /// The App Transport Security rule a failed handshake broke, as a value: a caller can word it and
    /// name, in its own terms, the exception that would let the server through.
    public enum HandshakeRule: Sendable, Equatable {
        /// The server offers no TLS version from `minimum` up; a lower `NSExceptionMinimumTLSVersion`
        /// would accept an older one.
        case tlsVersion(minimum: TLSVersion)
        /// Under TLS 1.2 the server offers none of the cipher suites allowed. With
        /// `requiresForwardSecrecy`, `NSExceptionRequiresForwardSecrecy` NO would add RSA key exchange.
        case cipherSuite(requiresForwardSecrecy: Bool)

        /// The rule in the library's words, with libcurl's message after it: the exception that would
        /// allow the server is named as an extension's Info.plist names it, unless the caller names its
        /// own setting for each (`minimumTLS`, and `forwardSecrecy` for what adds RSA key exchange).
        public func detail(
            libcurlMessage curl: String, minimumTLS: String = "NSExceptionMinimumTLSVersion",
            forwardSecrecy: String = "NSExceptionRequiresForwardSecrecy NO"
        ) -> String {
            switch self {
            case .tlsVersion(let minimum):
                return
                    "TLS version: the server offers no version from TLS \(minimum.rawValue) up (App Transport Security; \(minimumTLS)) (\(curl))"
            case .cipherSuite(let requiresForwardSecrecy):
                let allowed =
                    requiresForwardSecrecy
                    ? "ECDHE with AES (forward secrecy; \(forwardSecrecy) adds RSA key exchange)"
                    : "ECDHE or RSA key exchange with AES (no finite-field DHE)"
                return
                    "cipher suite: under TLS 1.2 App Transport Security allows only \(allowed), and the server offers none of them (\(curl))"
            }
        }
    }

    /// The rule a failed handshake broke, from OpenSSL's words in libcurl's message; nil when it names
    /// no rule (a certificate ATS refused has its own detail).
    func handshakeRule(_ curl: String) -> HandshakeRule? {
        let text = curl.lowercased()
        if text.contains("protocol version") || text.contains("unsupported protocol") || text.contains("no protocols available")
            || text.contains("wrong version number")
        {
            return .tlsVersion(minimum: minimumTLS)
        }
        if text.contains("handshake failure") || text.contains("no shared cipher") || text.contains("no ciphers available") {
            return .cipherSuite(requiresForwardSecrecy: requiresForwardSecrecy)
        }
        return nil
    }
}
