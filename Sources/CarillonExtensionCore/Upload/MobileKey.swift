/// The app's mobile key for the events API, sent only as `Authorization: Bearer <key>`.
///
/// It describes itself as `<mobile key>`, so an interpolation, a log line or an error can never show
/// it; only `authorizationHeader` holds it in words.
public struct MobileKey: Sendable, CustomStringConvertible {
    private let value: String

    /// Why a key cannot be used (never quoting it).
    public struct Problem: Error, Sendable, Equatable {
        /// What is wrong with the key, without quoting it.
        public var message: String
    }

    /// A key from text: its first line, without a trailing `\r`. It must be non-empty visible ASCII
    /// (a header value cannot hold a control character, and a space would end the token).
    ///
    /// - Throws: ``Problem`` saying what is wrong (the key's text is never quoted).
    public init(firstLineOf text: String) throws(Problem) {
        // By bytes: "\r\n" is one Character, so splitting by Character would keep a CRLF file's "\r".
        var line = text.utf8.prefix { $0 != 0x0A }
        if line.last == 0x0D { line = line.dropLast() }
        guard !line.isEmpty else { throw Problem(message: "the first line is empty") }
        guard line.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else {
            throw Problem(message: "the key holds a space, a control character or a non-ASCII character")
        }
        value = String(decoding: line, as: UTF8.self)
    }

    /// `Authorization: Bearer <key>`.
    var authorizationHeader: String { "Authorization: Bearer \(value)" }

    public var description: String { "<mobile key>" }
}
