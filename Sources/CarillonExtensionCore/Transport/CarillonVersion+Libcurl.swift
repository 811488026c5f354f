internal import CCurl

extension CarillonVersion {
    /// The libcurl in use and its TLS library, e.g. "libcurl/7.88.1 OpenSSL/3.0.17 ...": `curl_version`.
    public static var libcurl: String { String(cString: curl_version()) }
}
