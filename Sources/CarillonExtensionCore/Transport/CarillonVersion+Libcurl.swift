internal import CCurl

extension CarillonVersion {
    /// The libcurl in use and its TLS library, e.g. "libcurl/7.88.1 OpenSSL/3.0.17 ...": `curl_version`.
    public static var libcurl: String { String(cString: curl_version()) }

    /// libcurl and what a download goes through, in `curl_version()`'s words: its TLS library, the
    /// decoders and HTTP/2, e.g. "libcurl/7.88.1 OpenSSL/3.0.17 zlib/1.2.13 brotli/1.0.9 zstd/1.5.4
    /// nghttp2/1.52.0", as a recording names them. From `curl_version_info`: `curl_version()` also asks
    /// OpenLDAP for its version, which initialises it and so loads every SASL plugin installed (nine
    /// libraries here, 1 MiB of a recording's peak RSS) for a protocol no download uses.
    package static var transferLibraries: String {
        let info = carillon_version_info().pointee
        var parts = ["libcurl/" + String(cString: info.version)]
        for (prefix, text) in [("", info.ssl_version), ("zlib/", info.libz_version)] {
            if let text { parts.append(prefix + String(cString: text)) }
        }
        // Each field exists from the struct's age that added it (libcurl's own order of words).
        let optional: [(since: CURLversion, prefix: String, text: UnsafePointer<CChar>?)] = [
            (CURLVERSION_FIFTH, "brotli/", info.brotli_version), (CURLVERSION_EIGHTH, "zstd/", info.zstd_version),
            (CURLVERSION_SIXTH, "nghttp2/", info.nghttp2_version),
        ]
        for (since, prefix, text) in optional where info.age.rawValue >= since.rawValue {
            if let text { parts.append(prefix + String(cString: text)) }
        }
        return parts.joined(separator: " ")
    }
}
