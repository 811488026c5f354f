internal import CCurl
internal import COpenSSL

/// What libcurl knows about a request, read with `curl_easy_getinfo` for the transfer trace.
extension CurlDownloader {
    /// The negotiated protocol, cipher and key exchange group of the transfer's connection, while it is
    /// live (`CURLINFO_TLS_SSL_PTR`, `SSL_get_version`, `SSL_get_current_cipher`, the server's ephemeral
    /// key); nil before a handshake.
    static func negotiatedTLS(_ easy: UnsafeMutableRawPointer) -> DownloadTrace.TLS? {
        guard let ssl = carillon_easy_tls_ssl(easy), let cipher = carillon_ssl_cipher(ssl),
            let version = carillon_ssl_protocol(ssl)
        else { return nil }
        var tls = DownloadTrace.TLS(version: String(cString: version), cipher: String(cString: cipher))
        var name = [CChar](repeating: 0, count: 64)
        if carillon_ssl_group(ssl, &name, name.count) > 0 { tls.group = String(cString: name) }
        return tls
    }

    /// The TLS connection the transfer is on, while it is attached (its OpenSSL object's address): a
    /// connection reused by a later request is the same one.
    static func connectionIdentity(_ easy: UnsafeMutableRawPointer) -> UInt? {
        carillon_easy_tls_ssl(easy).map { UInt(bitPattern: $0) }
    }

    /// ``negotiatedTLS(_:)`` once libcurl reports the handshake done (`CURLINFO_APPCONNECT_TIME_T`).
    static func handshakeTLS(_ easy: UnsafeMutableRawPointer) -> DownloadTrace.TLS? {
        var done: curl_off_t = 0
        carillon_easy_getinfo_off_t(easy, CURLINFO_APPCONNECT_TIME_T, &done)
        return done > 0 ? negotiatedTLS(easy) : nil
    }

    /// The request's HTTP version, peer address, wire bytes and timings, once it has ended (the machine
    /// adds what the head says).
    static func requestFacts(_ easy: UnsafeMutableRawPointer, tls: DownloadTrace.TLS?) -> TransferHop.Facts {
        var facts = TransferHop.Facts()
        var version = 0
        carillon_easy_getinfo_long(easy, CURLINFO_HTTP_VERSION, &version)
        switch version {
        case Int(CURL_HTTP_VERSION_1_0): facts.httpVersion = "1.0"
        case Int(CURL_HTTP_VERSION_1_1): facts.httpVersion = "1.1"
        case Int(CURL_HTTP_VERSION_2_0): facts.httpVersion = "2"
        case 30: facts.httpVersion = "3"
        default: facts.httpVersion = nil
        }
        var ip: UnsafeMutablePointer<CChar>?
        var port = 0
        carillon_easy_getinfo_string(easy, CURLINFO_PRIMARY_IP, &ip)
        carillon_easy_getinfo_long(easy, CURLINFO_PRIMARY_PORT, &port)
        if let ip, ip.pointee != 0 {
            let address = String(cString: ip)
            facts.remote = address.contains(":") ? "[\(address)]:\(port)" : "\(address):\(port)"
        }
        facts.tls = tls
        var wire: curl_off_t = 0
        carillon_easy_getinfo_off_t(easy, CURLINFO_SIZE_DOWNLOAD_T, &wire)
        facts.wireBytes = Int(wire)
        facts.microseconds = [
            CURLINFO_NAMELOOKUP_TIME_T, CURLINFO_CONNECT_TIME_T, CURLINFO_APPCONNECT_TIME_T, CURLINFO_STARTTRANSFER_TIME_T,
            CURLINFO_TOTAL_TIME_T,
        ].map { info in
            var value: curl_off_t = 0
            carillon_easy_getinfo_off_t(easy, info, &value)
            return Int64(value)
        }
        return facts
    }
}
