/// What a result bundle keeps of one payload beside its line (SPEC §6c): a record's `data`, read
/// (``init(_:)``) and written (``json``) by this one type, every key named here and nowhere else. It is
/// what a merge takes of every payload without parsing its line: the name, the outcome and time, the image
/// and its attachment, the alert's text for the report's preview, what its request came to (SPEC §12)
/// and, for an image's first attached payload, the image's digest (three distinct URLs answering the same
/// bytes are a campaign's warning).
package struct BundledPayload: Sendable, Equatable {
    /// Where the payload came from: it decides what a run counts as a payload file and as a campaign.
    package enum Source: String, Sendable {
        /// A payload file, a directory's, or standard input read whole.
        case file
        /// A line of JSON Lines: a campaign's export.
        case line
        /// A payload the tool made (an image URL's).
        case made
    }

    /// The attached image, as the line gives it.
    package struct Attachment: Sendable, Equatable {
        package var type: ImageType
        package var byteCount: Int
        /// The bundle's image (``BundledImage``) the report shows, by index; nil when it is not embedded.
        package var index: Int?

        package init(type: ImageType, byteCount: Int, index: Int? = nil) {
            self.type = type
            self.byteCount = byteCount
            self.index = index
        }
    }

    /// The alert's text, for the report's preview.
    package struct Alert: Sendable, Equatable {
        package var title: String
        package var subtitle: String
        package var body: String

        package init(title: String, subtitle: String, body: String) {
            self.title = title
            self.subtitle = subtitle
            self.body = body
        }
    }

    /// What the request that carried the payload came to, as a campaign counts it (SPEC §12).
    package struct Request: Sendable, Equatable {
        /// APNs' answer: "accepted", "unknown", Apple's reason name, or the refusal before APNs.
        package var apnsReason: String
        /// APNs (or the provider before it) refuses the request.
        package var refused: Bool
        package var extensionRuns: Bool
        /// The attached image is `not-shown` on some surface.
        package var notShown: Bool

        package init(apnsReason: String, refused: Bool, extensionRuns: Bool, notShown: Bool) {
            self.apnsReason = apnsReason
            self.refused = refused
            self.extensionRuns = extensionRuns
            self.notShown = notShown
        }
    }

    /// The payload's name, as its line gives it.
    package var name: String
    /// Whether the input was read as a payload (else its reason is `invalid-payload`).
    package var read: Bool
    package var source: Source
    package var reason: Reason
    package var detail: String
    package var elapsedMilliseconds: Double
    /// The payload's `carillon.image`, routed or not.
    package var imageURL: String?
    package var routed: Bool
    /// Its receipt was to be stored and was not.
    package var receiptFailed: Bool
    package var attachment: Attachment?
    /// The attached image's SHA-256 (hex), on the first payload of each image that attached it.
    package var imageSHA256: String?
    package var alert: Alert?
    /// Nil for a payload that came without a request.
    package var request: Request?

    package init(
        name: String, read: Bool, source: Source, reason: Reason, detail: String, elapsedMilliseconds: Double, imageURL: String?,
        routed: Bool, receiptFailed: Bool = false, attachment: Attachment? = nil, imageSHA256: String? = nil, alert: Alert? = nil,
        request: Request? = nil
    ) {
        self.name = name
        self.read = read
        self.source = source
        self.reason = reason
        self.detail = detail
        self.elapsedMilliseconds = elapsedMilliseconds
        self.imageURL = imageURL
        self.routed = routed
        self.receiptFailed = receiptFailed
        self.attachment = attachment
        self.imageSHA256 = imageSHA256
        self.alert = alert
        self.request = request
    }

    /// The image the payload's outcome is about: its URL when it was routed.
    package var routedImage: String? { routed ? imageURL : nil }

    /// A record's `data` as written.
    package var json: JSONValue {
        var members: [(key: String, value: JSONValue)] = [
            (key: Key.read, value: .bool(read)),
            (key: Key.payload, value: .string(name)),
            (key: Key.source, value: .string(source.rawValue)),
            (key: Key.reason, value: .string(reason.code)),
            (key: Key.detail, value: .string(detail)),
            (key: Key.elapsed, value: .number(JSONWriter.milliseconds(elapsedMilliseconds))),
            (key: Key.imageURL, value: imageURL.map { .string($0) } ?? .null),
            (key: Key.routed, value: .bool(routed)),
            (key: Key.receiptFailed, value: .bool(receiptFailed)),
        ]
        if let attachment {
            var file: [(key: String, value: JSONValue)] = [
                (key: Key.type, value: .string(attachment.type.rawValue)), (key: Key.bytes, value: .number(String(attachment.byteCount))),
            ]
            if let index = attachment.index { file.append((key: Key.index, value: .number(String(index)))) }
            members.append((key: Key.attachment, value: .object(file)))
        }
        if let imageSHA256 { members.append((key: Key.imageSHA256, value: .string(imageSHA256))) }
        if let alert {
            members += [
                (key: Key.title, value: .string(alert.title)), (key: Key.subtitle, value: .string(alert.subtitle)),
                (key: Key.body, value: .string(alert.body)),
            ]
        }
        if let request {
            members.append(
                (
                    key: Key.request,
                    value: .object([
                        (key: Key.apns, value: .string(request.apnsReason)), (key: Key.refused, value: .bool(request.refused)),
                        (key: Key.extensionRuns, value: .bool(request.extensionRuns)), (key: Key.notShown, value: .bool(request.notShown)),
                    ])
                ))
        }
        return .object(members)
    }

    /// A record's `data` as read, in one pass over its members; nil when it is not what ``json`` writes
    /// (a member of the wrong type, or one of the name, read, reason, detail and time missing).
    package init?(_ value: JSONValue) {
        guard case .object(let members) = value else { return nil }
        var fields = Fields()
        for member in members {
            guard fields.take(member.key, member.value) else { return nil }
        }
        guard let name = fields.name, let read = fields.read, let reason = fields.reason, let detail = fields.detail,
            let elapsed = fields.elapsed
        else { return nil }
        self.init(
            name: name, read: read, source: fields.source, reason: reason, detail: detail, elapsedMilliseconds: elapsed,
            imageURL: fields.imageURL, routed: fields.routed, receiptFailed: fields.receiptFailed, attachment: fields.attachment,
            imageSHA256: fields.imageSHA256, alert: fields.alert, request: fields.request)
    }

    /// Every key of a record's `data`.
    private enum Key {
        static let read = "read", payload = "payload", source = "source", reason = "reason", detail = "detail"
        static let elapsed = "elapsed_ms", imageURL = "image_url", routed = "routed", receiptFailed = "receipt_failed"
        static let attachment = "attachment", type = "type", bytes = "bytes", index = "index", imageSHA256 = "image_sha256"
        static let title = "title", subtitle = "subtitle", body = "body"
        static let request = "request", apns = "apns", refused = "refused", extensionRuns = "extension_runs", notShown = "not_shown"
    }

    /// The members read so far.
    private struct Fields {
        var name: String?
        var read: Bool?
        var source = Source.file
        var reason: Reason?
        var detail: String?
        var elapsed: Double?
        var imageURL: String?
        var routed = false
        var receiptFailed = false
        var attachment: Attachment?
        var imageSHA256: String?
        var title: String?
        var subtitle: String?
        var body: String?
        var request: Request?

        var alert: Alert? {
            guard title != nil || subtitle != nil || body != nil else { return nil }
            return Alert(title: title ?? "", subtitle: subtitle ?? "", body: body ?? "")
        }

        /// Takes one member; false when its value is of the wrong type. Unknown keys are skipped.
        mutating func take(_ key: String, _ value: JSONValue) -> Bool {
            switch (key, value) {
            case (Key.payload, .string(let text)): name = text
            case (Key.read, .bool(let flag)): read = flag
            case (Key.source, .string(let text)):
                guard let known = Source(rawValue: text) else { return false }
                source = known
            case (Key.reason, .string(let code)):
                guard let known = Reason(rawValue: code) else { return false }
                reason = known
            case (Key.detail, .string(let text)): detail = text
            case (Key.elapsed, .number(let text)): elapsed = Double(text)
            case (Key.imageURL, .string(let text)): imageURL = text
            case (Key.imageURL, .null): imageURL = nil
            case (Key.routed, .bool(let flag)): routed = flag
            case (Key.receiptFailed, .bool(let flag)): receiptFailed = flag
            case (Key.attachment, .object):
                guard let file = BundledPayload.attachment(value) else { return false }
                attachment = file
            case (Key.imageSHA256, .string(let text)): imageSHA256 = text
            case (Key.title, .string(let text)): title = text
            case (Key.subtitle, .string(let text)): subtitle = text
            case (Key.body, .string(let text)): body = text
            case (Key.request, .object):
                guard let found = BundledPayload.request(value) else { return false }
                request = found
            case (Key.payload, _), (Key.read, _), (Key.source, _), (Key.reason, _), (Key.detail, _), (Key.elapsed, _), (Key.imageURL, _),
                (Key.routed, _), (Key.receiptFailed, _), (Key.attachment, _), (Key.imageSHA256, _), (Key.title, _), (Key.subtitle, _),
                (Key.body, _), (Key.request, _):
                return false
            default: break
            }
            return true
        }
    }

    private static func attachment(_ value: JSONValue) -> Attachment? {
        guard case .string(let typeText)? = value[Key.type], let type = ImageType(rawValue: typeText),
            let bytes = ResultBundle.count(value[Key.bytes])
        else { return nil }
        let index = value[Key.index].map { ResultBundle.count($0) }
        guard index != .some(nil) else { return nil }
        return Attachment(type: type, byteCount: bytes, index: index ?? nil)
    }

    private static func request(_ value: JSONValue) -> Request? {
        guard case .string(let reason)? = value[Key.apns], case .bool(let refused)? = value[Key.refused],
            case .bool(let runs)? = value[Key.extensionRuns], case .bool(let notShown)? = value[Key.notShown]
        else { return nil }
        return Request(apnsReason: reason, refused: refused, extensionRuns: runs, notShown: notShown)
    }
}
