/// A key for the Carillon API, sent only as `Authorization: Bearer <key>`.
///
/// It describes itself by its kind (`<mobile key>`, `<secret key>`), so an interpolation, a log line or
/// an error can never show it; only ``authorizationHeader`` holds it in words.
package struct APIKey: Sendable, CustomStringConvertible {
    private let value: String

    /// What a key's prefix says it is (the seed: `carillon_mk_…` posts events, `carillon_sk_…` reads).
    package enum Kind: String, Sendable, Equatable {
        /// `carillon_mk_…`: an app's mobile key.
        case mobile = "mobile key"
        /// `carillon_sk_…`: a secret key, for reading back.
        case secret = "secret key"
        /// Neither prefix (a test's or a staging key).
        case unknown = "key"
    }

    /// Why a key cannot be used (never quoting it).
    package struct Problem: Error, Sendable, Equatable {
        /// What is wrong with the key, without quoting it.
        package var message: String
    }

    /// A key from text: its first line, without a trailing `\r`. It must be non-empty visible ASCII
    /// (a header value cannot hold a control character, and a space would end the token).
    ///
    /// - Throws: ``Problem`` saying what is wrong (the key's text is never quoted).
    package init(firstLineOf text: String) throws(Problem) {
        // By bytes: "\r\n" is one Character, so splitting by Character would keep a CRLF file's "\r".
        var line = text.utf8.prefix { $0 != 0x0A }
        if line.last == 0x0D { line = line.dropLast() }
        guard !line.isEmpty else { throw Problem(message: "the first line is empty") }
        guard line.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else {
            throw Problem(message: "the key holds a space, a control character or a non-ASCII character")
        }
        value = String(decoding: line, as: UTF8.self)
    }

    /// The kind its prefix names.
    package var kind: Kind {
        if value.hasPrefix("carillon_mk_") { return .mobile }
        if value.hasPrefix("carillon_sk_") { return .secret }
        return .unknown
    }

    /// `Authorization: Bearer <key>`.
    var authorizationHeader: String { "Authorization: Bearer \(value)" }

    /// `text` with the key, should a server echo it, replaced by its description.
    func redacting(_ text: String) -> String { text.replacing(value, with: description) }

    /// `<mobile key>`, `<secret key>` or `<key>`: never the key.
    package var description: String { "<\(kind.rawValue)>" }
}
