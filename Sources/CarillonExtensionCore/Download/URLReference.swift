/// RFC 3986 reference resolution (§5.2): how a redirect's `Location` becomes the next URL.
///
/// Pure string work, as the RFC states it, so that it is tested from the RFC's own examples (§5.4).
/// Whether the result is an acceptable image URL is ``ImageURL``'s decision, not this one's.
enum URLReference {
    /// The five components of a URI reference (RFC 3986 Appendix B); nil means absent, which differs
    /// from empty (`?` with nothing after it is an empty query).
    struct Components: Equatable {
        var scheme: Substring?
        var authority: Substring?
        var path: Substring
        var query: Substring?
        var fragment: Substring?
    }

    /// Splits `text` as Appendix B's regular expression does. The delimiters are ASCII, so they are
    /// looked for among the UTF-8 code units (an index there is a character's boundary): searching by
    /// Character would segment every grapheme of a long URL, for every comparison of a capture's URLs.
    static func split(_ text: String) -> Components {
        var rest = Substring(text)
        var components = Components(path: "")
        if let hash = rest.utf8.firstIndex(of: UInt8(ascii: "#")) {
            components.fragment = rest[rest.utf8.index(after: hash)...]
            rest = rest[..<hash]
        }
        if let question = rest.utf8.firstIndex(of: UInt8(ascii: "?")) {
            components.query = rest[rest.utf8.index(after: question)...]
            rest = rest[..<question]
        }
        if let colon = rest.utf8.firstIndex(of: UInt8(ascii: ":")), colon != rest.startIndex,
            !rest.utf8[..<colon].contains(UInt8(ascii: "/"))
        {
            components.scheme = rest[..<colon]
            rest = rest[rest.utf8.index(after: colon)...]
        }
        if rest.utf8.starts(with: "//".utf8) {
            let afterSlashes = rest[rest.utf8.index(rest.startIndex, offsetBy: 2)...]
            let end = afterSlashes.utf8.firstIndex(of: UInt8(ascii: "/")) ?? afterSlashes.endIndex
            components.authority = afterSlashes[..<end]
            rest = afterSlashes[end...]
        }
        components.path = rest
        return components
    }

    /// The target URI of `reference` against the absolute `base` (§5.2.2, strict: a reference with a
    /// scheme is absolute even when it is the base's scheme).
    static func resolve(_ reference: String, against base: String) -> String {
        let r = split(reference)
        let b = split(base)
        var t = Components(path: "")
        if r.scheme != nil {
            t.scheme = r.scheme
            t.authority = r.authority
            t.path = Substring(removeDotSegments(String(r.path)))
            t.query = r.query
        } else {
            if r.authority != nil {
                t.authority = r.authority
                t.path = Substring(removeDotSegments(String(r.path)))
                t.query = r.query
            } else {
                if r.path.isEmpty {
                    t.path = b.path
                    t.query = r.query ?? b.query
                } else {
                    if r.path.hasPrefix("/") {
                        t.path = Substring(removeDotSegments(String(r.path)))
                    } else {
                        t.path = Substring(removeDotSegments(merge(base: b, String(r.path))))
                    }
                    t.query = r.query
                }
                t.authority = b.authority
            }
            t.scheme = b.scheme
        }
        t.fragment = r.fragment
        return recompose(t)
    }

    /// §5.2.3: a relative path against the base's.
    private static func merge(base: Components, _ path: String) -> String {
        if base.authority != nil && base.path.isEmpty { return "/" + path }
        guard let slash = base.path.lastIndex(of: "/") else { return path }
        return String(base.path[...slash]) + path
    }

    /// §5.2.4: removes `.` and `..` segments.
    static func removeDotSegments(_ path: String) -> String {
        var input = Substring(path)
        var output: [Substring] = []  // segments, each with its leading "/" when it had one
        while !input.isEmpty {
            if input.hasPrefix("../") {
                input = input.dropFirst(3)
            } else if input.hasPrefix("./") {
                input = input.dropFirst(2)
            } else if input.hasPrefix("/./") {
                input = input.dropFirst(2)
            } else if input == "/." {
                input = "/"
            } else if input.hasPrefix("/../") {
                input = input.dropFirst(3)
                if !output.isEmpty { output.removeLast() }
            } else if input == "/.." {
                input = "/"
                if !output.isEmpty { output.removeLast() }
            } else if input == "." || input == ".." {
                input = ""
            } else {
                let searchStart = input.hasPrefix("/") ? input.index(after: input.startIndex) : input.startIndex
                let end = input[searchStart...].firstIndex(of: "/") ?? input.endIndex
                output.append(input[..<end])
                input = input[end...]
            }
        }
        return output.joined()
    }

    /// §5.3.
    private static func recompose(_ t: Components) -> String {
        var result = ""
        if let scheme = t.scheme { result += scheme + ":" }
        if let authority = t.authority { result += "//" + authority }
        result += t.path
        if let query = t.query { result += "?" + query }
        if let fragment = t.fragment { result += "#" + fragment }
        return result
    }
}
