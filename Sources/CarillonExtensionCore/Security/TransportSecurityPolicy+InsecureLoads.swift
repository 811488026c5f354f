extension TransportSecurityPolicy {
    /// What an exception allowing insecure HTTP loads means for one download: nothing, since Carillon's
    /// helper downloads over HTTPS only (its README: "downloads over HTTPS") — said once, naming the
    /// exception, when one applies to the host of any of `urls` (the image URL, each hop, each `Location`);
    /// nil when none does.
    public func insecureHTTPLoadsNote(urls: [String]) -> String? {
        // Without such an exception (every run without `--app`) no URL is looked at: finding a host by
        // Characters cost 30,000 instructions a URL, a twelfth of a small image's download.
        guard exceptions.contains(where: \.allowsInsecureHTTPLoads) else { return nil }
        for url in urls {
            guard let host = Self.host(of: url), let exception = exception(forHost: host), exception.allowsInsecureHTTPLoads else {
                continue
            }
            return "the extension's App Transport Security exception for '\(exception.domain)' allows insecure HTTP loads"
                + " (NSExceptionAllowsInsecureHTTPLoads), which changes nothing here: Carillon's helper downloads over HTTPS only"
        }
        return nil
    }

    /// The host of an absolute URL of any scheme (`http://h:80/p` → `h`, `https://[::1]/` → `::1`); nil
    /// when it has none.
    static func host(of url: String) -> String? {
        guard let scheme = url.firstRange(of: "://") else { return nil }
        let rest = url[scheme.upperBound...]
        var authority = rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        if let at = authority.lastIndex(of: "@") { authority = authority[authority.index(after: at)...] }
        if authority.hasPrefix("[") {
            guard let close = authority.firstIndex(of: "]") else { return nil }
            return String(authority[authority.index(after: authority.startIndex)..<close])
        }
        let host = authority.prefix { $0 != ":" }
        return host.isEmpty ? nil : String(host)
    }
}
