/// The app's mobile key for the events API, sent only as `Authorization: Bearer <key>`.
///
/// It describes itself as `<mobile key>`, so an interpolation, a log line or an error can never show
/// it; only the request's header holds it in words.
public struct MobileKey: Sendable, CustomStringConvertible {
    /// The key, as the API client sends it.
    let key: APIKey

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
        do {
            key = try APIKey(firstLineOf: text)
        } catch {
            throw Problem(message: error.message)
        }
    }

    /// `text` with the key, should a server echo it, replaced by `<mobile key>`.
    func redacting(_ text: String) -> String { key.redacting(text).replacing(key.description, with: description) }

    public var description: String { "<mobile key>" }
}
