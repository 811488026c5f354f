/// curl's command-line options as data: which take an argument, and the short letters. Read from curl
/// 7.88.1's own list of its options (Debian 12's; its `help all` listing), with the few later releases
/// added that a pasted command may carry (`variable`, `ip-tos`, `ech`…). A command is split the way curl
/// splits it; an option curl does not know is refused, as curl refuses it, since whether it takes an
/// argument decides what every later word is.
enum CurlOptions {
    /// Long options that take an argument (the next word, or the rest of a short-option cluster).
    static let takingArgument: Set<String> = [
        "abstract-unix-socket", "alt-svc", "aws-sigv4", "cacert", "capath", "cert", "cert-type", "ciphers", "config",
        "connect-timeout", "connect-to", "continue-at", "cookie", "cookie-jar", "create-file-mode", "crlfile", "curves", "data",
        "data-ascii", "data-binary", "data-raw", "data-urlencode", "delegation", "dns-interface", "dns-ipv4-addr", "dns-ipv6-addr",
        "dns-servers", "doh-url", "dump-header", "egd-file", "engine", "etag-compare", "etag-save", "expect100-timeout", "form",
        "form-string", "ftp-account", "ftp-alternative-to-user", "ftp-method", "ftp-port", "ftp-ssl-ccc-mode",
        "happy-eyeballs-timeout-ms", "header", "help", "hostpubmd5", "hostpubsha256", "hsts", "interface", "json", "keepalive-time",
        "key", "key-type", "krb", "libcurl", "limit-rate", "local-port", "login-options", "mail-auth", "mail-from", "mail-rcpt",
        "max-filesize", "max-redirs", "max-time", "netrc-file", "noproxy", "oauth2-bearer", "output", "output-dir", "parallel-max",
        "pass", "pinnedpubkey", "preproxy", "proto", "proto-default", "proto-redir", "proxy", "proxy-cacert", "proxy-capath",
        "proxy-cert", "proxy-cert-type", "proxy-ciphers", "proxy-crlfile", "proxy-header", "proxy-key", "proxy-key-type",
        "proxy-pass", "proxy-pinnedpubkey", "proxy-service-name", "proxy-tls13-ciphers", "proxy-tlsauthtype", "proxy-tlspassword",
        "proxy-tlsuser", "proxy-user", "proxy1.0", "pubkey", "quote", "random-file", "range", "rate", "referer", "request",
        "request-target", "resolve", "retry", "retry-delay", "retry-max-time", "sasl-authzid", "service-name", "socks4", "socks4a",
        "socks5", "socks5-gssapi-service", "socks5-hostname", "speed-limit", "speed-time", "stderr", "telnet-option",
        "tftp-blksize", "time-cond", "tls-max", "tls13-ciphers", "tlsauthtype", "tlspassword", "tlsuser", "trace", "trace-ascii",
        "unix-socket", "upload-file", "url", "url-query", "user", "user-agent", "write-out",
        // Later than 7.88.
        "variable", "ip-tos", "vlan-priority", "ech", "trace-config", "keepalive-cnt", "sigalgs", "proxy-sigalgs",
    ]

    /// Long options that take none (their `no-` forms too).
    static let flags: Set<String> = [
        "anyauth", "append", "basic", "cert-status", "compressed", "compressed-ssh", "create-dirs", "crlf", "digest", "disable",
        "disable-eprt", "disable-epsv", "disallow-username-in-url", "doh-cert-status", "doh-insecure", "fail", "fail-early",
        "fail-with-body", "false-start", "form-escape", "ftp-create-dirs", "ftp-pasv", "ftp-pret", "ftp-skip-pasv-ip", "ftp-ssl-ccc",
        "ftp-ssl-control", "get", "globoff", "haproxy-protocol", "head", "http0.9", "http1.0", "http1.1", "http2",
        "http2-prior-knowledge", "http3", "http3-only", "ignore-content-length", "include", "insecure", "ipv4", "ipv6",
        "junk-session-cookies", "list-only", "location", "location-trusted", "mail-rcpt-allowfails", "manual", "metalink",
        "negotiate", "netrc", "netrc-optional", "next", "no-alpn", "no-buffer", "no-clobber", "no-keepalive", "no-npn",
        "no-progress-meter", "no-sessionid", "ntlm", "ntlm-wb", "parallel", "parallel-immediate", "path-as-is", "post301", "post302",
        "post303", "progress-bar", "proxy-anyauth", "proxy-basic", "proxy-digest", "proxy-insecure", "proxy-negotiate", "proxy-ntlm",
        "proxy-ssl-allow-beast", "proxy-ssl-auto-client-cert", "proxy-tlsv1", "proxytunnel", "raw", "remote-header-name",
        "remote-name", "remote-name-all", "remote-time", "remove-on-error", "retry-all-errors", "retry-connrefused", "sasl-ir",
        "show-error", "silent", "socks5-basic", "socks5-gssapi", "socks5-gssapi-nec", "ssl", "ssl-allow-beast",
        "ssl-auto-client-cert", "ssl-no-revoke", "ssl-reqd", "ssl-revoke-best-effort", "sslv2", "sslv3", "styled-output",
        "suppress-connect-headers", "tcp-fastopen", "tcp-nodelay", "tftp-no-options", "tlsv1", "tlsv1.0", "tlsv1.1", "tlsv1.2",
        "tlsv1.3", "tr-encoding", "trace-time", "use-ascii", "verbose", "version", "xattr",
        // Later than 7.88.
        "ca-native", "proxy-ca-native", "mptcp", "skip-existing", "proxy-http2", "show-headers",
    ]

    /// The short letters and the long options they stand for.
    static let short: [UInt8: String] = [
        UInt8(ascii: "a"): "append", UInt8(ascii: "E"): "cert", UInt8(ascii: "K"): "config", UInt8(ascii: "C"): "continue-at",
        UInt8(ascii: "b"): "cookie", UInt8(ascii: "c"): "cookie-jar", UInt8(ascii: "d"): "data", UInt8(ascii: "q"): "disable",
        UInt8(ascii: "D"): "dump-header", UInt8(ascii: "f"): "fail", UInt8(ascii: "F"): "form", UInt8(ascii: "P"): "ftp-port",
        UInt8(ascii: "G"): "get", UInt8(ascii: "g"): "globoff", UInt8(ascii: "I"): "head", UInt8(ascii: "H"): "header",
        UInt8(ascii: "h"): "help", UInt8(ascii: "0"): "http1.0", UInt8(ascii: "i"): "include", UInt8(ascii: "k"): "insecure",
        UInt8(ascii: "4"): "ipv4", UInt8(ascii: "6"): "ipv6", UInt8(ascii: "j"): "junk-session-cookies", UInt8(ascii: "l"): "list-only",
        UInt8(ascii: "L"): "location", UInt8(ascii: "M"): "manual", UInt8(ascii: "m"): "max-time", UInt8(ascii: "n"): "netrc",
        UInt8(ascii: ":"): "next", UInt8(ascii: "N"): "no-buffer", UInt8(ascii: "o"): "output", UInt8(ascii: "Z"): "parallel",
        UInt8(ascii: "#"): "progress-bar", UInt8(ascii: "x"): "proxy", UInt8(ascii: "U"): "proxy-user", UInt8(ascii: "p"): "proxytunnel",
        UInt8(ascii: "Q"): "quote", UInt8(ascii: "r"): "range", UInt8(ascii: "e"): "referer", UInt8(ascii: "J"): "remote-header-name",
        UInt8(ascii: "O"): "remote-name", UInt8(ascii: "R"): "remote-time", UInt8(ascii: "X"): "request", UInt8(ascii: "S"): "show-error",
        UInt8(ascii: "s"): "silent", UInt8(ascii: "Y"): "speed-limit", UInt8(ascii: "y"): "speed-time", UInt8(ascii: "2"): "sslv2",
        UInt8(ascii: "3"): "sslv3", UInt8(ascii: "t"): "telnet-option", UInt8(ascii: "z"): "time-cond", UInt8(ascii: "1"): "tlsv1",
        UInt8(ascii: "T"): "upload-file", UInt8(ascii: "B"): "use-ascii", UInt8(ascii: "u"): "user", UInt8(ascii: "A"): "user-agent",
        UInt8(ascii: "v"): "verbose", UInt8(ascii: "V"): "version", UInt8(ascii: "w"): "write-out",
    ]

    /// Whether a long option (without its dashes) takes an argument; nil when curl does not know it.
    static func takesArgument(_ name: String) -> Bool? {
        if takingArgument.contains(name) { return true }
        if flags.contains(name) || negatedFlags.contains(name) { return false }
        return nil
    }

    /// Every flag's `no-` form, made once.
    private static let negatedFlags: Set<String> = Set(flags.map { "no-" + $0 })
}
