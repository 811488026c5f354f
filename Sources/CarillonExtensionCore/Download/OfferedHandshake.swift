/// A recorded handshake that was refused for its TLS protocol or cipher suite, judged again under a
/// replay's settings: the refusal came before any certificate, so the recorded connection holds no
/// facts, only libcurl's words. When the recording asked the server again with those rules relaxed
/// (``RecordedConnection/offered``), that second connection says what the server offers: its protocol
/// and suite are judged by ``TransportSecurity/refusal(of:)``, the rule a live run's handshake follows.
package enum OfferedHandshake {
    /// What answers the refused request under the replay's settings.
    package enum Verdict: Sendable, Equatable {
        /// The recorded refusal: libcurl's words as recorded, the rule worded under the replay's settings.
        case asRecorded
        /// Refused for another rule than the recorded words name (OpenSSL-like words for it).
        case refused(words: String)
        /// The server's offer passes: the request is answered by the hops recorded on the connection
        /// `connection` (with relaxed rules), whose handshake and chain are then judged as any other.
        case alternative(connection: String)
        /// The recording cannot say: `why`, for an `undetermined` verdict.
        case undetermined(why: String)
    }

    /// The refused handshake of `refused`, recorded with libcurl's `message`, under `security`.
    ///
    /// - Parameters:
    ///   - offered: the connection of the relaxed request (``RecordedConnection/offered``), nil when
    ///     none was made (or not recorded).
    ///   - recordedSecurity: the settings the recording was made under, when known.
    ///   - answered: whether a response on `offered` for the request's URL was recorded.
    package static func judge(
        message: String, offered: RecordedConnection?, security: TransportSecurity, recordedSecurity: TransportSecurity?,
        answered: Bool
    ) -> Verdict {
        guard let offered else {
            guard let recordedSecurity, let rule = security.handshakeRule(message), looser(security, than: recordedSecurity, for: rule)
            else { return .asRecorded }
            return .undetermined(
                why: "the handshake was refused for its TLS protocol or cipher suite, and the recording holds no answer from"
                    + " the server with those rules relaxed (recorded before it asked)")
        }
        guard let tls = offered.tls else {
            // The relaxed request was refused too: before any certificate, by every setting there is;
            // after one, for its chain, with its protocol and suite unknown.
            guard offered.chain.isEmpty else {
                return .undetermined(
                    why: "with relaxed TLS rules the server's chain was refused, so the protocol and suite it offers were not recorded")
            }
            return .asRecorded
        }
        guard let words = security.refusal(of: tls) else {
            guard answered else {
                return .undetermined(
                    why: "the server offers \(tls.version) with \(tls.cipher), accepted now, and its answer was not recorded")
            }
            return .alternative(connection: offered.id)
        }
        return sameRule(security.handshakeRule(words), security.handshakeRule(message)) ? .asRecorded : .refused(words: words)
    }

    /// Whether `security` lets through a server `recorded` refused for `rule`: a lower TLS minimum for a
    /// version; for a suite, forward secrecy no longer required, or a lower minimum (older suites).
    static func looser(_ security: TransportSecurity, than recorded: TransportSecurity, for rule: TransportSecurity.HandshakeRule)
        -> Bool
    {
        switch rule {
        case .tlsVersion:
            security.minimumTLS < recorded.minimumTLS
        case .cipherSuite:
            security.minimumTLS < recorded.minimumTLS || (recorded.requiresForwardSecrecy && !security.requiresForwardSecrecy)
        }
    }

    private static func sameRule(_ a: TransportSecurity.HandshakeRule?, _ b: TransportSecurity.HandshakeRule?) -> Bool {
        switch (a, b) {
        case (.tlsVersion?, .tlsVersion?), (.cipherSuite?, .cipherSuite?): true
        default: false
        }
    }
}
