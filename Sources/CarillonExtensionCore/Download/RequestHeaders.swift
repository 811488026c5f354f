/// The header fields an image request carries: those the extension's `URLSession` sends (SPEC §2), with
/// any the caller replaces or adds. A name given again replaces the default of that name (compared
/// without regard to case), never duplicates it.
public struct RequestHeaders: Sendable, Equatable {
    /// The fields sent, in order: the defaults with any replaced, then the added ones.
    public private(set) var fields: [HTTPField]

    /// The codings `URLSession` asks for and decodes, as it writes them.
    static let acceptEncoding = "gzip, deflate, br"
    /// A US English device's preferred languages.
    public static let defaultAcceptLanguage = "en-US,en;q=0.9"
    /// The extension's executable name, the first product of its `User-Agent` (an app extension's
    /// `URLSession` names the extension's own bundle, not the app's).
    static let extensionExecutable = "CarillonNotificationService"

    /// `<executable>/<bundle version> CFNetwork/<v> Darwin/<v>`, as the device sends it.
    public static var defaultUserAgent: String {
        "\(extensionExecutable)/\(CarillonVersion.current) \(DeviceVersions.cfNetworkAndDarwin)"
    }

    /// The `User-Agent` an extension's `URLSession` sends, built from its bundle as CFNetwork builds it:
    /// `<CFBundleExecutable>/<CFBundleVersion> CFNetwork/<v> Darwin/<v>`. A character outside an HTTP
    /// token (a space, a slash, anything not ASCII) is percent-encoded, as its UTF-8 bytes, so that the
    /// product stays one token.
    public static func userAgent(executable: String, bundleVersion: String) -> String {
        "\(tokenEncoded(executable))/\(tokenEncoded(bundleVersion)) \(DeviceVersions.cfNetworkAndDarwin)"
    }

    private static func tokenEncoded(_ text: String) -> String {
        let digits = Array("0123456789ABCDEF")
        var encoded = ""
        for byte in text.utf8 {
            let scalar = Unicode.Scalar(byte)
            if byte < 0x80, byte != UInt8(ascii: "%"), isTokenCharacter(scalar) {
                encoded.unicodeScalars.append(scalar)
            } else {
                encoded += "%" + String(digits[Int(byte >> 4)]) + String(digits[Int(byte & 0x0F)])
            }
        }
        return encoded
    }

    /// The request `URLSession` sends from the extension.
    // swift-format-ignore: DontRepeatTypeInStaticProperties
    public static let iPhone = RequestHeaders()

    /// The defaults, with `userAgent` and `acceptLanguage` when given, then `extra` applied in order.
    public init(userAgent: String? = nil, acceptLanguage: String? = nil, extra: [HTTPField] = []) {
        fields = [
            HTTPField(name: "User-Agent", value: userAgent ?? Self.defaultUserAgent),
            HTTPField(name: "Accept", value: "*/*"),
            HTTPField(name: "Accept-Language", value: acceptLanguage ?? Self.defaultAcceptLanguage),
            HTTPField(name: "Accept-Encoding", value: Self.acceptEncoding),
        ]
        for field in extra { set(field) }
    }

    /// Replaces the field of the same name (case-insensitive), or appends it.
    public mutating func set(_ field: HTTPField) {
        let wanted = field.name.lowercased()
        if let index = fields.firstIndex(where: { $0.name.lowercased() == wanted }) {
            fields[index] = field
        } else {
            fields.append(field)
        }
    }

    /// `Name: value` lines for `CURLOPT_HTTPHEADER`.
    var lines: [String] { fields.map { "\($0.name): \($0.value)" } }

    /// The fields as a trace shows them: the value of `Authorization` and `Cookie` (and their proxy
    /// forms) is never shown.
    var redacted: [HTTPField] {
        fields.map { field in
            Self.secretNames.contains(field.name.lowercased()) ? HTTPField(name: field.name, value: "(redacted)") : field
        }
    }

    static let secretNames: Set<String> = ["authorization", "cookie", "proxy-authorization"]

    /// Parses a header field written `Name: value`: a name of RFC 9110 token characters, a colon,
    /// then a value without CR, LF or NUL (leading and trailing spaces dropped).
    ///
    /// - Returns: the field, or why it is malformed.
    public static func parse(_ text: String) -> Result<HTTPField, HeaderError> {
        guard let colon = text.firstIndex(of: ":") else {
            return .failure(HeaderError(text: text, problem: "has no ':' between a name and a value"))
        }
        let name = String(text[..<colon])
        guard !name.isEmpty else { return .failure(HeaderError(text: text, problem: "has an empty name")) }
        guard name.unicodeScalars.allSatisfy(isTokenCharacter) else {
            return .failure(HeaderError(text: text, problem: "has a name that is not an HTTP token"))
        }
        let value = text[text.index(after: colon)...].trimmed()
        guard !value.unicodeScalars.contains(where: { $0 == "\r" || $0 == "\n" || $0 == "\0" }) else {
            return .failure(HeaderError(text: text, problem: "has a CR, LF or NUL in its value"))
        }
        return .success(HTTPField(name: name, value: String(value)))
    }

    /// `tchar` of RFC 9110 §5.6.2.
    private static func isTokenCharacter(_ scalar: Unicode.Scalar) -> Bool {
        guard scalar.isASCII, scalar.value > 0x20, scalar.value < 0x7F else { return false }
        return !"\"(),/:;<=>?@[\\]{}".unicodeScalars.contains(scalar)
    }

    /// A `Name: value` text that is not a header field.
    public struct HeaderError: Error, Sendable, Equatable {
        /// The value as given.
        public var text: String
        /// What is wrong with it, as a sentence.
        public var problem: String
    }
}
