@_spi(Tooling) import CarillonExtensionCore
import Foundation

extension FuzzChecks {
    // MARK: - FuzzPayload

    /// Both payload targets' checks on one input: ``jsonLayer(_:)`` (`FuzzJSON`) and ``pipeline(_:)``
    /// (`FuzzPayload`). What the regression test replays for every saved payload input.
    public static func payload(_ bytes: [UInt8]) throws(FuzzFailure) {
        try jsonLayer(bytes)
        try pipeline(bytes)
    }

    /// The JSON layer (`FuzzJSON`): any value (not only objects) writes and re-parses to itself;
    /// `Payload` refuses only what is not a JSON object, and its `userInfo` is the parser's value. Three
    /// parses and two writes of each input: a target of its own, so that `FuzzPayload` parses once.
    public static func jsonLayer(_ bytes: [UInt8]) throws(FuzzFailure) {
        let body = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? Array(bytes.dropFirst(3)) : bytes
        let parsed = try? JSONParser.parse(body)
        if let parsed { try jsonRoundTrip(parsed) }
        let payload: Payload
        do {
            payload = try Payload(bytes: bytes)
        } catch {
            try check(
                parsed == nil || parsed?.isObject == false || bytes.isEmpty,
                "Payload refused a JSON object: \(error.message)")
            return
        }
        try check(parsed == payload.userInfo, "Payload's userInfo differs from JSONParser's value")
    }

    /// bytes → `Payload` → `Routing.decide` → `CarillonStamp` → `ImageURL` → `NotificationContent`
    /// (`FuzzPayload`), and the escaping rule on every text a person reads of the payload.
    public static func pipeline(_ bytes: [UInt8]) throws(FuzzFailure) {
        guard let payload = try? Payload(bytes: bytes) else { return }

        // Routing: a routed payload has aps as an object, mutable-content numerically 1, a displayable alert.
        let decision = Routing.decide(payload.userInfo)
        if let decision {
            try check(
                decision.reason == .notMutable || decision.reason == .noAlert,
                "routing refused with reason \(decision.reason.code)")
        } else {
            guard case .object? = payload.userInfo["aps"] else { throw FuzzFailure(message: "routed, but aps is not an object") }
            guard case .number(let text)? = payload.userInfo["aps"]?["mutable-content"], Double(text) == 1 else {
                throw FuzzFailure(message: "routed, but aps.mutable-content is not numerically 1")
            }
            switch payload.userInfo["aps"]?["alert"] {
            case .string(let text)?: try check(!text.isEmpty, "routed with an empty alert string")
            case let alert? where alert.isObject:
                try check(
                    Routing.alertKeys.contains { alert[$0]?.stringValue?.isEmpty == false },
                    "routed with an alert object that displays nothing")
            default: throw FuzzFailure(message: "routed without an alert string or object")
            }
        }

        // The stamp: delivery id canonical, image accepted only when valid.
        let stamp = CarillonStamp(userInfo: payload.userInfo)
        if let id = stamp.deliveryID { try deliveryID(id) }
        switch stamp.image {
        case .absent:
            break
        case .url(let url):
            try imageURL(url)
        case .rejected(let outcome):
            try check(
                outcome.reason == .invalidURL || outcome.reason == .insecureURL,
                "image rejected with reason \(outcome.reason.code)")
        }
        // ImageURL directly on any string the stamp could hold (also the Android string form's inner value).
        if case .string(let text)? = payload.userInfo["carillon"]?["image"] {
            if let url = try? ImageURL(validating: text) { try imageURL(url) }
        }

        // The content: a fallback delivers the original bytes unchanged.
        let content = NotificationContent(payload: payload)
        try check(content.userInfoBytes == bytes, "NotificationContent.userInfoBytes differ from the input bytes")
        try check(content.userInfo == payload.userInfo, "NotificationContent.userInfo differs from the payload")
        try check(content.attachments.isEmpty, "a new NotificationContent has attachments")

        // The text a person reads of this payload (--format text, stderr, the report's messages): each
        // string shown by the escaping rule holds no control or bidi character.
        try shownByTheRule(content.title)
        try shownByTheRule(content.subtitle)
        try shownByTheRule(content.body)
        if let decision { try shownByTheRule(decision.detail) }
        if case .rejected(let outcome) = stamp.image { try shownByTheRule(outcome.detail) }
        for warning in payload.warnings { try shownByTheRule(warning) }
        for warning in stamp.warnings { try shownByTheRule(warning) }
        for warning in PayloadHints.warnings(payload.userInfo) { try shownByTheRule(warning) }
    }

    /// `Quoting.display(text)` checked byte by byte against the rule, independently of how it is
    /// written: no C0 control, DEL, C1 control (C2 80–9F), bidi control (D8 9C; E2 80 8E/8F/AA–AE;
    /// E2 81 A6–A9) or escaped byte (F4 8F BE/BF) in its UTF-8; showing it again changes nothing; and a
    /// text with none of them is shown as it is. Allocates only when the text needs escaping.
    static func shownByTheRule(_ text: String) throws(FuzzFailure) {
        let shown = Quoting.display(text)
        let clean = !holdsEscapedCharacter(shown.utf8)
        try check(clean, "Quoting.display left a control or bidi character: \(shown.debugDescription.prefix(300))")
        try check(Quoting.display(shown) == shown, "Quoting.display is not stable: \(shown.debugDescription.prefix(300))")
        try check(
            holdsEscapedCharacter(text.utf8) == (shown != text) && Quoting.needsEscaping(text) == (shown != text),
            "Quoting.display changed a clean text or kept an unclean one: \(text.debugDescription.prefix(300))")
    }

    /// Whether `bytes` hold a character the rule escapes (see ``shownByTheRule(_:)``).
    static func holdsEscapedCharacter(_ bytes: String.UTF8View) -> Bool {
        var previous: (UInt8, UInt8) = (0, 0)
        for byte in bytes {
            defer { previous = (previous.1, byte) }
            if byte < 0x20 || byte == 0x7F { return true }
            switch previous {
            case (_, 0xC2) where (0x80...0x9F).contains(byte): return true
            case (_, 0xD8) where byte == 0x9C: return true
            case (0xE2, 0x80) where byte == 0x8E || byte == 0x8F || (0xAA...0xAE).contains(byte): return true
            case (0xE2, 0x81) where (0xA6...0xA9).contains(byte): return true
            case (0xF4, 0x8F) where byte == 0xBE || byte == 0xBF: return true
            default: continue
            }
        }
        return false
    }

    /// `JSONWriter.string(value)` re-parses to an equal value, and writing that gives the same text.
    static func jsonRoundTrip(_ value: JSONValue) throws(FuzzFailure) {
        let text = JSONWriter.string(value)
        let again: JSONValue
        do {
            again = try JSONParser.parse(Array(text.utf8))
        } catch {
            throw FuzzFailure(message: "JSONWriter output does not parse (\(error)): \(text.prefix(300))")
        }
        try check(again == value, "JSON round trip changed the value: \(text.prefix(300))")
        try check(JSONWriter.string(again) == text, "JSONWriter is not stable over a round trip")
    }

    /// A delivery id is 36 lowercase characters in the canonical form, and parses back to itself.
    static func deliveryID(_ id: DeliveryID) throws(FuzzFailure) {
        let utf8 = Array(id.rawValue.utf8)
        try check(utf8.count == 36, "DeliveryID \(id.rawValue) is not 36 bytes")
        for (index, byte) in utf8.enumerated() {
            if [8, 13, 18, 23].contains(index) {
                try check(byte == UInt8(ascii: "-"), "DeliveryID \(id.rawValue) lacks a dash at \(index)")
            } else {
                try check(
                    (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte),
                    "DeliveryID \(id.rawValue) is not lowercase hex at \(index)")
            }
        }
        try check(
            DeliveryID(id.rawValue) == id && DeliveryID(id.rawValue.uppercased()) == id,
            "DeliveryID \(id.rawValue) does not parse back to itself")
    }

    /// An accepted image URL: https in any case, a host, no '@' in the authority, nothing to escape.
    static func imageURL(_ url: ImageURL) throws(FuzzFailure) {
        let text = url.absoluteString
        try check(text.lowercased().hasPrefix("https://"), "accepted image URL without https: \(text)")
        try check(
            text.unicodeScalars.allSatisfy { $0.isASCII && $0.value > 0x20 && $0.value != 0x7F },
            "accepted image URL with a space, control or non-ASCII character: \(text)")
        let afterScheme = text.dropFirst("https://".count)
        let authority = afterScheme.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        try check(!authority.contains("@"), "accepted image URL with user info: \(text)")
        try check(!url.host.isEmpty, "accepted image URL without a host: \(text)")
        try check(authority.contains(url.host), "accepted image URL's host \(url.host) is not in its authority: \(text)")
        try check((try? ImageURL(validating: text)) == url, "ImageURL does not re-validate to itself: \(text)")
    }
}
