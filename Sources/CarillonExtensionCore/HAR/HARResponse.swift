/// The response of an entry.
@_spi(Tooling) public struct HARResponse: Sendable {
    /// `status`; 0 means no response arrived (Chrome, with `_error` saying why).
    public var status: Int
    /// `statusText`.
    public var statusText: String
    /// The version and header fields.
    public var message: HARMessage
    /// `redirectURL`, when non-empty.
    public var redirectURL: String?
    /// `content`.
    public var content: HARContent
    /// `bodySize` (−1 or absent: unknown).
    public var bodySize: Int?

    /// A response; the reader makes these.
    public init(
        status: Int, statusText: String = "", message: HARMessage, redirectURL: String? = nil, content: HARContent,
        bodySize: Int? = nil
    ) {
        self.status = status
        self.statusText = statusText
        self.message = message
        self.redirectURL = redirectURL
        self.content = content
        self.bodySize = bodySize
    }

    /// The header fields, pseudo-headers left out.
    public var headers: [HARHeader] { message.headers }

    /// The first value of the field called `name` (case-insensitive).
    public func header(_ name: String) -> String? { message.header(name) }
}

/// `response.content`: the decoded body as the exporter stored it, not yet turned into bytes
/// (``HARBodyReading`` does that, under a cap).
@_spi(Tooling) public struct HARContent: Sendable, Equatable {
    /// `size` (its meaning depends on the exporter: ``HARExporter/contentSizeIsWire``); nil when absent or negative.
    public var size: Int?
    /// `mimeType`, as written.
    public var mimeType: String
    /// `text`; nil when absent (or not a string: `textProblem` says so).
    public var text: String?
    /// `encoding`; nil when absent.
    public var encoding: String?
    /// `comment`, where exporters say why a body is missing.
    public var comment: String?
    /// `_file`: the body in a file beside the HAR (Playwright's and carillon's convention).
    public var file: String?
    /// Why `text` or `encoding` could not be read (a wrong JSON type), if so.
    public var problem: String?

    /// A content; the reader makes these.
    public init(
        size: Int? = nil, mimeType: String = "", text: String? = nil, encoding: String? = nil, comment: String? = nil,
        file: String? = nil, problem: String? = nil
    ) {
        self.size = size
        self.mimeType = mimeType
        self.text = text
        self.encoding = encoding
        self.comment = comment
        self.file = file
        self.problem = problem
    }
}
