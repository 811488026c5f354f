/// The tool that wrote a HAR file, and what it is known to do to one (the design's table of exporters):
/// the quirks are data the normaliser and the replay read, so that each is written down once.
package enum HARExporter: String, Sendable, CaseIterable {
    /// carillon itself (`process` recording): its `_carillon` fields are read.
    case carillon
    /// Chrome or Edge DevTools ("WebInspector"): HTTP/2 pseudo-headers, `h2`, `_fromCache`, `_error`,
    /// `status: 0`; since Chrome 130 the default export drops Cookie, Set-Cookie and Authorization.
    case chrome
    /// Safari's Web Inspector ("WebKit Web Inspector"): `_fetchType`, `content.size: 0` beside full bodies,
    /// headers from a dictionary (duplicates merged).
    case safari
    /// Firefox: image bodies usually left out, with a `comment` saying so.
    case firefox
    /// HTTP Toolkit: bodies over 40 KiB left out; duplicate header values joined with commas.
    case httpToolkit
    /// ProxyPin: binary bodies written as Latin-1 text without an `encoding`.
    case proxyPin
    /// Polly.js: before version 6, binary bodies in hex (`"encoding": "hex"`).
    case polly
    /// mitmproxy (`save.har`, `hardump`): `content.size` is the wire length; `.zhar` files are zlib.
    case mitmproxy
    /// Proxyman.
    case proxyman
    /// Charles.
    case charles
    /// Fiddler: bodies over its limit left out, with a `comment`.
    case fiddler
    /// Playwright: `_securityDetails`, `_serverPort`, `content._file`.
    case playwright
    /// Xcode Instruments' HTTP Traffic export.
    case instruments
    /// Anything else.
    case unknown

    /// Recognises the exporter from `log.creator.name`, or failing that from a custom field its entries
    /// carry (`fieldNames`: the `_` names seen on the first entries).
    package static func recognise(creatorName: String, fieldNames: Set<String> = []) -> HARExporter {
        let name = creatorName.lowercased()
        let byName: [(String, HARExporter)] = [
            ("carillon", .carillon), ("webkit", .safari), ("safari", .safari), ("webinspector", .chrome),
            ("chrome", .chrome), ("edge", .chrome), ("firefox", .firefox), ("http toolkit", .httpToolkit),
            ("httptoolkit", .httpToolkit), ("proxypin", .proxyPin), ("polly", .polly), ("mitmproxy", .mitmproxy),
            ("proxyman", .proxyman), ("charles", .charles), ("fiddler", .fiddler), ("playwright", .playwright),
            ("instruments", .instruments),
        ]
        if let match = byName.first(where: { name.contains($0.0) }) { return match.1 }
        if fieldNames.contains("_fetchType") { return .safari }
        if fieldNames.contains("_fromCache") || fieldNames.contains("_resourceType") || fieldNames.contains("_initiator") {
            return .chrome
        }
        return .unknown
    }

    /// The name people know it by, for notes.
    package var displayName: String {
        switch self {
        case .carillon: "carillon-nse"
        case .chrome: "Chrome"
        case .safari: "Safari's Web Inspector"
        case .firefox: "Firefox"
        case .httpToolkit: "HTTP Toolkit"
        case .proxyPin: "ProxyPin"
        case .polly: "Polly.js"
        case .mitmproxy: "mitmproxy"
        case .proxyman: "Proxyman"
        case .charles: "Charles"
        case .fiddler: "Fiddler"
        case .playwright: "Playwright"
        case .instruments: "Instruments"
        case .unknown: "an unknown exporter"
        }
    }

    /// An intercepting proxy: the device's TLS and HTTP version were the proxy's, not the origin's.
    package var isProxy: Bool {
        switch self {
        case .httpToolkit, .proxyPin, .mitmproxy, .proxyman, .charles, .fiddler: true
        default: false
        }
    }

    /// The body size over which the exporter leaves bodies out, when it has one.
    package var bodyLimit: Int? {
        self == .httpToolkit ? 40_960 : nil
    }

    /// `content.size` counts the bytes on the wire (before decoding), the inverse of the format's meaning.
    package var contentSizeIsWire: Bool { self == .mitmproxy }

    /// `content.size` cannot be trusted at all (Safari writes 0 beside complete bodies).
    package var contentSizeUnreliable: Bool { self == .safari }

    /// Duplicate response header fields do not survive the export (merged into one, or joined with commas),
    /// so duplicates and conflicts between them cannot be seen.
    package var mergesDuplicateHeaders: Bool { self == .safari || self == .httpToolkit }

    /// Why a body is missing when this exporter leaves one out, in words for a detail.
    package var missingBodyExplanation: String? {
        switch self {
        case .firefox: "Firefox leaves image bodies out of HARs"
        case .httpToolkit: "HTTP Toolkit leaves bodies over 40 KiB out of HARs"
        case .fiddler: "Fiddler leaves bodies over its size limit out of HARs"
        case .playwright: "Playwright leaves bodies out when recording with content \"omit\""
        default: nil
        }
    }
}
