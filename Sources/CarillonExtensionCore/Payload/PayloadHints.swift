/// "Did you mean" warnings for a payload whose keys look like the ones that matter but are not them,
/// and for images put where other SDKs read them: most "image not shown" reports are "the extension
/// never ran" or "it ran and found no `carillon.image`". A hint is given only where it changes the
/// outcome: when the key it names is missing (or, for `mutable-content`, of the wrong type).
@_spi(Tooling) public enum PayloadHints {
    /// The hints for a payload's top-level object, in a stable order.
    public static func warnings(_ userInfo: JSONValue) -> [String] {
        guard case .object(let top) = userInfo else { return [] }
        var hints = lookAlikes(top, wanted: ["aps", "carillon"], scope: "top-level key")
        if userInfo["aps"]?["mutable-content"] == nil {
            hints += misplacedMutableContent(top)
            if let override = overrideDroppedMutableContent(userInfo) { hints.append(override) }
        }

        if case .object(let aps)? = userInfo["aps"] {
            hints += lookAlikes(aps, wanted: ["mutable-content", "alert"], scope: "aps key")
            switch aps.first(where: { $0.key == "mutable-content" })?.value {
            case .string(let text)?:
                hints.append(
                    "aps.mutable-content is the string \(Quoting.double(text)): did you mean the number 1 (\"mutable-content\": 1)? iOS runs the extension only for the number"
                )
            case .bool(true)?:
                hints.append(
                    "aps.mutable-content is true: did you mean the number 1 (\"mutable-content\": 1)? iOS runs the extension only for the number"
                )
            default:
                break
            }
        }

        let stamp = stampObject(userInfo["carillon"])
        if let stamp {
            hints += lookAlikes(stamp, wanted: ["delivery_id", "image"], scope: "carillon key", extra: stampLookAlikes)
        }
        let image = stamp?.first(where: { $0.key == "image" })?.value
        if image == nil {
            hints += otherSDKImages(top, userInfo)
        }
        if case .string(let text)? = image, mayHoldTemplate(text), text.contains("{{") && text.contains("}}") {
            hints.append(
                "carillon.image \(Quoting.single(text)) is a template: replace {{BASE_URL}} with the test server's base_url (TestAssets/run-samples.sh does)"
            )
        }
        return hints
    }

    /// False when `text`'s UTF-8 has no `{{` or no `}}`, in which case its Characters cannot either; so
    /// an ordinary URL never reaches `String.contains(_:)`, whose code (in _StringProcessing) a run would
    /// otherwise map only for this (TestAssets/Bench/README.md, "peak RSS").
    static func mayHoldTemplate(_ text: String) -> Bool {
        var previous: UInt8 = 0
        var opens = false
        var closes = false
        for byte in text.utf8 {
            if byte == previous {
                if byte == UInt8(ascii: "{") { opens = true }
                if byte == UInt8(ascii: "}") { closes = true }
            }
            previous = byte
        }
        return opens && closes
    }

    /// A key spelled without case, `-`, `_`, spaces and dots, to compare look-alikes.
    ///
    /// An ASCII key (every key a payload is expected to hold) is folded byte by byte: the same string,
    /// since ASCII lowercases to ASCII and none of the four is part of a longer Character there. Folding
    /// by Characters was a fifth of a payload's cost when its stamp lacks `image`.
    static func folded(_ key: String) -> String {
        let count = key.utf8.count
        guard key.utf8.allSatisfy({ $0 < 0x80 }) else { return String(key.lowercased().filter { !"-_ .".contains($0) }) }
        return String(unsafeUninitializedCapacity: count) { buffer in
            var kept = 0
            for byte in key.utf8 {
                switch byte {
                case UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: " "), UInt8(ascii: "."): continue
                case UInt8(ascii: "A")...UInt8(ascii: "Z"): buffer[kept] = byte | 0x20
                default: buffer[kept] = byte
                }
                kept += 1
            }
            return kept
        }
    }

    /// Names that people give an image URL, folded.
    static let imageLookAlikes: Set<String> = [
        "imageurl", "img", "imgurl", "imageuri", "picture", "media", "mediaurl", "attachment", "attachmenturl", "images",
    ]

    /// The stamp's extra look-alikes, built once (not a dictionary per payload).
    static let stampLookAlikes: [String: Set<String>] = ["image": imageLookAlikes]

    /// Hints for members of `object` that fold to a `wanted` key (or one of its `extra` look-alikes)
    /// without being it, when the wanted key itself is absent.
    static func lookAlikes(
        _ object: [(key: String, value: JSONValue)], wanted: [String], scope: String, extra: [String: Set<String>] = [:]
    ) -> [String] {
        // A well-formed object has every wanted key: nothing to fold, nothing to allocate.
        if wanted.allSatisfy({ name in object.contains(where: { $0.key == name }) }) { return [] }
        var hints: [String] = []
        for name in wanted where !object.contains(where: { $0.key == name }) {
            let target = folded(name)
            for member in object where member.key != name {
                let key = folded(member.key)
                guard key == target || extra[name]?.contains(key) == true else { continue }
                hints.append(
                    "\(scope) \(Quoting.single(member.key)) is not \(Quoting.single(name)): did you mean \(Quoting.single(name))? (keys are exact)"
                )
            }
        }
        return hints
    }

    /// `mutable-content` put beside `aps` instead of inside it: spelt as in `aps` or with `_` (any case),
    /// or FCM's `gcm.notification.mutable-content`, which Firebase's own SDK moves into `aps` but a
    /// hand-written APNs payload does not. Asked only when `aps.mutable-content` is missing.
    static func misplacedMutableContent(_ top: [(key: String, value: JSONValue)]) -> [String] {
        top.filter { ["mutablecontent", "gcmnotificationmutablecontent"].contains(folded($0.key)) }.map { member in
            "top-level key \(Quoting.single(member.key)) is not 'aps.mutable-content': did you mean 'aps.mutable-content'? "
                + "(iOS reads it inside aps only)"
        }
    }

    /// The seed's own case ("Notification images"): a payload that carries `carillon.image` and an alert
    /// whose `aps` has no `mutable-content` at all was most likely made by an apns override that replaced
    /// `aps` wholesale. Said wherever it shows, whatever the input's form.
    package static func overrideDroppedMutableContent(_ userInfo: JSONValue) -> String? {
        // Any spelling of mutable-content, in aps or beside it, is a look-alike's hint instead.
        guard case .object(let aps)? = userInfo["aps"], !aps.contains(where: { folded($0.key) == "mutablecontent" }),
            case .object(let top) = userInfo,
            !top.contains(where: { ["mutablecontent", "gcmnotificationmutablecontent"].contains(folded($0.key)) }),
            stampObject(userInfo["carillon"])?.contains(where: { $0.key == "image" }) == true,
            aps.contains(where: { $0.key == "alert" }), Routing.decide(userInfo)?.reason == .notMutable
        else { return nil }
        return "aps has no mutable-content, yet the payload carries carillon.image and an alert: an apns override that replaced aps "
            + "wholesale drops mutable-content: 1; keep it in the override"
    }

    /// Where other SDKs read a notification's image (Firebase, OneSignal, common custom keys).
    static func otherSDKImages(_ top: [(key: String, value: JSONValue)], _ userInfo: JSONValue) -> [String] {
        var found: [String] = []
        if case .object? = userInfo["fcm_options"], userInfo["fcm_options"]?["image"] != nil { found.append("fcm_options.image") }
        for key in ["att", "attachment-url", "media-url", "image_url", "imageUrl", "image"] where top.contains(where: { $0.key == key }) {
            found.append(key)
        }
        if case .object(let aps)? = userInfo["aps"] {
            for key in ["attachment-url", "media-url", "image_url", "imageUrl", "image"] where aps.contains(where: { $0.key == key }) {
                found.append("aps.\(key)")
            }
        }
        return found.map { "\(Quoting.single($0)) holds an image for another SDK: Carillon reads `carillon.image`" }
    }

    /// The stamp as an object: the iOS form, or the Android form's string holding one.
    static func stampObject(_ raw: JSONValue?) -> [(key: String, value: JSONValue)]? {
        switch raw {
        case .object(let members)?: return members
        case .string(let text)?:
            if case .object(let members)? = try? JSONParser.parse(Array(text.utf8)) { return members }
            return nil
        default: return nil
        }
    }
}
