/// The response of an entry.
package struct HARResponse: Sendable {
    /// `status`; 0 means no response arrived (Chrome, with `_error` saying why).
    package var status: Int
    /// `statusText`.
    package var statusText: String
    /// The version and header fields.
    package var message: HARMessage
    /// `redirectURL`, when non-empty.
    package var redirectURL: String?
    /// `content`.
    package var content: HARContent
    /// `bodySize` (−1 or absent: unknown).
    package var bodySize: Int?

    /// A response; the reader makes these.
    package init(
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
    package var headers: [HTTPField] { message.headers }

    /// The first value of the field called `name` (case-insensitive).
    package func header(_ name: String) -> String? { message.header(name) }
}

/// `response.content`: the decoded body as the exporter stored it, not yet turned into bytes
/// (``HARBodyReading`` does that, under a cap).
package struct HARContent: Sendable, Equatable {
    /// `size` (its meaning depends on the exporter: ``HARExporter/contentSizeIsWire``); nil when absent or negative.
    package var size: Int?
    /// `mimeType`, as written.
    package var mimeType: String
    /// `text`; nil when absent (or not a string: `textProblem` says so).
    package var text: String?
    /// `encoding`; nil when absent.
    package var encoding: String?
    /// `comment`, where exporters say why a body is missing.
    package var comment: String?
    /// `_file`: the body in a file beside the HAR (Playwright's and carillon's convention).
    package var file: String?
    /// Why `text` or `encoding` could not be read (a wrong JSON type), if so.
    package var problem: String?

    /// A content; the reader makes these.
    package init(
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
