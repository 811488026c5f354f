/// One HTTP exchange of a HAR file (`log.entries[]`), normalised.
@_spi(Tooling) public struct HAREntry: Sendable {
    /// The entry's position in the file's `entries` array, from 0 (what a person counts in the file).
    public var index: Int
    /// `startedDateTime` as written.
    public var startedText: String
    /// `startedDateTime` as an instant (a fraction past milliseconds dropped); nil when unreadable.
    public var started: Timestamp?
    /// The request.
    public var request: HARMessage
    /// The response; nil when the entry has none (a request that never got one, Proxyman's gaps).
    public var response: HARResponse?
    /// The durations of the entry's steps, in milliseconds.
    public var timings: HARTimings
    /// `serverIPAddress`, when a non-empty string.
    public var serverIPAddress: String?
    /// `connection`, when present (a string or a number, kept as text).
    public var connection: String?
    /// The exporter's own words about this entry, from its `_` fields and `comment`s (`_fromCache`,
    /// `_fetchType`, `_error`, `_securityDetails`...): for notes and details, never for a verdict.
    public var hints: HAREntryHints
    /// `_carillon` of the entry, when carillon wrote the file.
    public var carillon: JSONValue?

    /// An entry; the reader makes these.
    public init(
        index: Int, startedText: String, started: Timestamp?, request: HARMessage, response: HARResponse?,
        timings: HARTimings = HARTimings(), serverIPAddress: String? = nil, connection: String? = nil,
        hints: HAREntryHints = HAREntryHints(), carillon: JSONValue? = nil
    ) {
        self.index = index
        self.startedText = startedText
        self.started = started
        self.request = request
        self.response = response
        self.timings = timings
        self.serverIPAddress = serverIPAddress
        self.connection = connection
        self.hints = hints
        self.carillon = carillon
    }

    /// The response's MIME type, from `content.mimeType` or else its `Content-Type` header, lowercased and
    /// without parameters; nil when neither says.
    public var mimeType: String? {
        guard let response else { return nil }
        let raw = response.content.mimeType.isEmpty ? (response.header("Content-Type") ?? "") : response.content.mimeType
        let bare = raw.split(separator: ";", maxSplits: 1).first.map { $0.trimmingSpaces().lowercased() } ?? ""
        return bare.isEmpty ? nil : bare
    }

    /// Whether the entry is an image's: an `image/` type, or the browser said it loaded an image.
    public var isImage: Bool {
        if let mimeType, mimeType.hasPrefix("image/") { return true }
        if let type = response?.header("Content-Type")?.lowercased(), type.hasPrefix("image/") { return true }
        return hints.resourceType?.lowercased() == "image"
    }
}

/// The request or response half of an entry: its line's facts and its header fields.
@_spi(Tooling) public struct HARMessage: Sendable, Equatable {
    /// `request.method` (empty for a response).
    public var method: String
    /// `request.url` (empty for a response).
    public var url: String
    /// `httpVersion` as written.
    public var httpVersionText: String
    /// `httpVersion` mapped to "1.0", "1.1", "2" or "3"; nil when the string is not one of those.
    public var httpVersion: String?
    /// The header fields, in order, HTTP/2 pseudo-header fields (`:method`, `:status`...) left out.
    public var headers: [HARHeader]
    /// The pseudo-header fields the exporter wrote among the headers, set aside.
    public var pseudoHeaders: [HARHeader]

    /// A message; the reader makes these.
    public init(
        method: String = "", url: String = "", httpVersionText: String = "", headers: [HARHeader] = [],
        pseudoHeaders: [HARHeader] = []
    ) {
        self.method = method
        self.url = url
        self.httpVersionText = httpVersionText
        self.httpVersion = HARHTTPVersion.normalised(httpVersionText)
        self.headers = headers
        self.pseudoHeaders = pseudoHeaders
    }

    /// Every value of the fields called `name` (case-insensitive), in order.
    public func values(_ name: String) -> [String] {
        let wanted = name.lowercased()
        return headers.filter { $0.name.lowercased() == wanted }.map(\.value)
    }

    /// The first value of the field called `name` (case-insensitive).
    public func header(_ name: String) -> String? { values(name).first }
}

/// One `{name, value}` header field.
@_spi(Tooling) public struct HARHeader: Sendable, Equatable {
    /// The name as written.
    public var name: String
    /// The value as written.
    public var value: String

    /// A field.
    public init(name: String, value: String) {
        self.name = name
        self.value = value
    }
}

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

/// What an exporter said about an entry in its own fields: hints for notes, never a verdict.
@_spi(Tooling) public struct HAREntryHints: Sendable, Equatable {
    /// Chrome's `_fromCache` (`memory`, `disk`) or Safari's `_fetchType` when it names a cache.
    public var fromCache: String?
    /// Chrome's and Safari's `_error` (why no response arrived).
    public var error: String?
    /// Chrome's `_resourceType` (`image`, `script`...).
    public var resourceType: String?
    /// Safari's `_fetchType` as written.
    public var fetchType: String?
    /// Playwright's `_securityDetails.protocol` (the only TLS fact any exporter writes).
    public var securityProtocol: String?
    /// Firefox's `_securityState`.
    public var securityState: String?
    /// `comment` of the entry, when non-empty.
    public var comment: String?

    /// No hints.
    public init(
        fromCache: String? = nil, error: String? = nil, resourceType: String? = nil, fetchType: String? = nil,
        securityProtocol: String? = nil, securityState: String? = nil, comment: String? = nil
    ) {
        self.fromCache = fromCache
        self.error = error
        self.resourceType = resourceType
        self.fetchType = fetchType
        self.securityProtocol = securityProtocol
        self.securityState = securityState
        self.comment = comment
    }
}

extension Substring {
    /// Without leading and trailing spaces and tabs.
    fileprivate func trimmingSpaces() -> String {
        String(drop(while: { $0 == " " || $0 == "\t" }).reversed().drop(while: { $0 == " " || $0 == "\t" }).reversed())
    }
}
