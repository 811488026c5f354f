/// Where a request goes, split from a URL (`https://api.push.apple.com:443/3/device/…`) or from a request
/// line's parts: scheme, host, port and path (the query kept on the path, as `:path` carries it).
package struct RequestTarget: Sendable, Equatable {
    package var scheme: String?
    package var host: String?
    package var port: Int?
    package var path: String

    package init(scheme: String? = nil, host: String? = nil, port: Int? = nil, path: String) {
        self.scheme = scheme
        self.host = host
        self.port = port
        self.path = path
    }

    /// Splits `text`: an absolute URL (`scheme://authority/path`), a URL without a scheme (curl assumes
    /// one: the host comes first), or a path alone (`/3/device/…`). A port that is not a number from 1
    /// to 65535 leaves `port` nil and the host as written. Never fails: what is not there is nil.
    package init(url text: String) {
        var rest = Substring(text)
        if let range = rest.firstRange(of: "://") {
            scheme = rest[..<range.lowerBound].lowercased()
            rest = rest[range.upperBound...]
        } else if rest.hasPrefix("/") {
            path = String(rest)
            return
        }
        let authorityEnd = rest.firstIndex { $0 == "/" || $0 == "?" || $0 == "#" } ?? rest.endIndex
        var authority = rest[..<authorityEnd]
        var remainder = rest[authorityEnd...]
        if let hash = remainder.firstIndex(of: "#") { remainder = remainder[..<hash] }
        path = remainder.isEmpty ? "/" : (remainder.hasPrefix("?") ? "/" + remainder : String(remainder))
        if let at = authority.lastIndex(of: "@") { authority = authority[authority.index(after: at)...] }
        if authority.hasPrefix("["), let close = authority.firstIndex(of: "]") {
            host = String(authority[...close]).lowercased()
            let after = authority[authority.index(after: close)...]
            if after.hasPrefix(":") { port = Self.port(after.dropFirst()) }
        } else if let colon = authority.lastIndex(of: ":") {
            host = String(authority[..<colon]).lowercased()
            port = Self.port(authority[authority.index(after: colon)...])
        } else {
            host = authority.isEmpty ? nil : authority.lowercased()
        }
    }

    private static func port(_ text: Substring) -> Int? {
        guard !text.isEmpty, text.count <= 5, text.allSatisfy({ $0.isASCII && $0.isNumber }), let value = Int(text), value >= 1,
            value <= 65535
        else { return nil }
        return value
    }

    /// The port a connection uses: the one written, or the scheme's (443 for https, 80 for http).
    package var effectivePort: Int? { port ?? (scheme == "http" ? 80 : scheme == "https" ? 443 : nil) }
}
