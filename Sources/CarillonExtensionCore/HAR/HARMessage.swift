/// The request or response half of an entry: its line's facts and its header fields.
package struct HARMessage: Sendable, Equatable {
    /// `request.method` (empty for a response).
    package var method: String
    /// `request.url` (empty for a response).
    package var url: String
    /// `httpVersion` as written.
    package var httpVersionText: String
    /// `httpVersion` mapped to "1.0", "1.1", "2" or "3"; nil when the string is not one of those.
    package var httpVersion: String?
    /// The header fields, in order, HTTP/2 pseudo-header fields (`:method`, `:status`...) left out.
    package var headers: [HTTPField]
    /// The pseudo-header fields the exporter wrote among the headers, set aside.
    package var pseudoHeaders: [HTTPField]

    /// A message; the reader makes these.
    package init(
        method: String = "", url: String = "", httpVersionText: String = "", headers: [HTTPField] = [],
        pseudoHeaders: [HTTPField] = []
    ) {
        self.method = method
        self.url = url
        self.httpVersionText = httpVersionText
        self.httpVersion = HARHTTPVersion.normalised(httpVersionText)
        self.headers = headers
        self.pseudoHeaders = pseudoHeaders
    }

    /// Every value of the fields called `name` (case-insensitive), in order.
    package func values(_ name: String) -> [String] {
        let wanted = name.lowercased()
        return headers.filter { $0.name.lowercased() == wanted }.map(\.value)
    }

    /// The first value of the field called `name` (case-insensitive).
    package func header(_ name: String) -> String? { values(name).first }
}
