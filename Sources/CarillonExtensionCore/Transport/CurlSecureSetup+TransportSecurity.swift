internal import CCurl
internal import COpenSSL

/// App Transport Security in the handshake: the protocol floor and cipher suites as libcurl options,
/// and the certificate rules in a verification callback installed on OpenSSL's context.
extension CurlSecureSetup {
    /// `CURLOPT_SSLVERSION`, `CURLOPT_SSL_CIPHER_LIST`, `CURLOPT_SSL_CTX_FUNCTION` and its data for `security`.
    static func transportSecurityOptions(
        _ easy: UnsafeMutableRawPointer, _ security: TransportSecurity, _ handshake: HandshakeState
    ) -> [(CURLoption, CURLcode)] {
        protocolOptions(easy, security) + [
            (
                CURLOPT_SSL_CTX_DATA,
                carillon_easy_setopt_pointer(easy, CURLOPT_SSL_CTX_DATA, Unmanaged.passUnretained(handshake).toOpaque())
            ),
            // Before each handshake: OpenSSL's chain verification is replaced by one that runs it and
            // then the ATS certificate rules, with the handshake state as its argument; and a server's
            // request for a client certificate is noted (none is ever sent, as from an extension).
            (
                CURLOPT_SSL_CTX_FUNCTION,
                carillon_easy_setopt_ssl_ctx_callback(easy, CURLOPT_SSL_CTX_FUNCTION) { _, sslContext, userData in
                    carillon_ssl_ctx_set_cert_verify(
                        sslContext,
                        { store, argument in
                            guard let store, let argument else { return 0 }
                            let handshake = Unmanaged<HandshakeState>.fromOpaque(argument).takeUnretainedValue()
                            return CurlSecureSetup.verify(store, handshake)
                        }, userData)
                    if let userData {
                        let handshake = Unmanaged<HandshakeState>.fromOpaque(userData).takeUnretainedValue()
                        carillon_ssl_ctx_note_client_certificate_request(sslContext, handshake.clientCertificateFlag)
                    }
                    return CURLE_OK
                }
            ),
        ]
    }

    /// `CURLOPT_SSLVERSION` and `CURLOPT_SSL_CIPHER_LIST` for `security`: what differs from one host's
    /// rules to another's (``TransportSecurityPolicy``), set again before a request whose host's differ.
    static func protocolOptions(_ easy: UnsafeMutableRawPointer, _ security: TransportSecurity) -> [(CURLoption, CURLcode)] {
        // A minimum: the maximum stays libcurl's default (the highest it supports).
        let version =
            switch security.minimumTLS {
            case .v1_0: Int(CURL_SSLVERSION_TLSv1_0)
            case .v1_1: Int(CURL_SSLVERSION_TLSv1_1)
            case .v1_2: Int(CURL_SSLVERSION_TLSv1_2)
            case .v1_3: Int(CURL_SSLVERSION_TLSv1_3)
            }
        return [
            (CURLOPT_SSLVERSION, carillon_easy_setopt_long(easy, CURLOPT_SSLVERSION, version)),
            (CURLOPT_SSL_CIPHER_LIST, carillon_easy_setopt_string(easy, CURLOPT_SSL_CIPHER_LIST, security.cipherList)),
        ]
    }

    /// OpenSSL's own verification, then the ATS rules on the verified chain (``CertificateJudgement``,
    /// the same code that judges a recorded chain); a broken rule is kept in `handshake` for the detail
    /// and fails the handshake.
    private static func verify(_ store: OpaquePointer, _ handshake: HandshakeState) -> Int32 {
        if handshake.keepsChain { handshake.sentChain = sentChain(store) }
        let judged = CertificateJudgement.judge(store, host: handshake.host)
        guard judged.verified == 1 else { return judged.verified }
        guard let rule = judged.rule else { return 1 }
        handshake.brokenRule = rule
        carillon_set_application_error(store)
        return 0
    }

    /// The certificates the server sent, leaf first, DER (`i2d_X509`).
    static func sentChain(_ store: OpaquePointer) -> [[UInt8]] {
        var chain: [[UInt8]] = []
        var index: Int32 = 0
        while true {
            let length = Int(carillon_sent_der(store, index, nil, 0))
            guard length > 0 else { return chain }
            chain.append(
                [UInt8](unsafeUninitializedCapacity: length) { buffer, count in
                    count = Int(carillon_sent_der(store, index, buffer.baseAddress, Int32(length)))
                })
            index += 1
        }
    }
}
