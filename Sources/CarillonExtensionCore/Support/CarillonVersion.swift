/// The version of this package, one string (what a tool built on it reports as its version).
@_spi(Tooling) public enum CarillonVersion {
    public static let current = "0.1.0"
}

extension CarillonVersion {
    /// The libcurl in use and its TLS library, e.g. "libcurl/7.88.1 OpenSSL/3.0.17 ...".
    public static var libcurl: String { CurlDownloader.versionDescription }
}
