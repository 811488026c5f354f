/// One `log.entries[]` member as JSON → a ``HAREntry``: every field's JSON type checked, the fields
/// exporters leave out defaulted, pseudo-header fields set aside, other tools' `_` fields read as hints.
enum HAREntryDecoding {
    /// Why an entry cannot be read.
    struct Problem: Error, Equatable {
        var message: String
    }

    /// The entry at `index`; `ownFields`: carillon wrote the file, so its `_carillon` is read (another
    /// tool's custom fields are hints at most, as the format says).
    static func entry(_ value: JSONValue, index: Int, ownFields: Bool = false) -> Result<HAREntry, Problem> {
        guard value.isObject else { return .failure(Problem(message: "it is a \(value.typeName), not an object")) }
        guard let request = value["request"], request.isObject else {
            return .failure(Problem(message: "it has no \"request\" object"))
        }
        guard let url = request["url"]?.stringValue else { return .failure(Problem(message: "\"request.url\" is not a string")) }
        let startedText = value["startedDateTime"]?.stringValue ?? ""
        var response: HARResponse?
        if let raw = value["response"], raw.isObject { response = decodeResponse(raw) }
        return .success(
            HAREntry(
                index: index, startedText: startedText, started: HARStartTime.parse(startedText),
                request: message(request, method: request["method"]?.stringValue ?? "GET", url: url),
                response: response, timings: timings(value["timings"]),
                serverIPAddress: nonEmpty(value["serverIPAddress"]?.stringValue), connection: text(value["connection"]),
                hints: hints(value, response: value["response"]),
                carillon: ownFields ? HARCarillon.Entry(value[HARCarillon.member]) : nil))
    }

    private static func message(_ value: JSONValue, method: String = "", url: String = "") -> HARMessage {
        var headers: [HTTPField] = []
        var pseudo: [HTTPField] = []
        if case .array(let fields) = value["headers"] {
            for field in fields {
                guard let name = field["name"]?.stringValue else { continue }
                let header = HTTPField(name: name, value: text(field["value"]) ?? "")
                if name.hasPrefix(":") { pseudo.append(header) } else { headers.append(header) }
            }
        }
        return HARMessage(
            method: method, url: url, httpVersionText: value["httpVersion"]?.stringValue ?? "", headers: headers, pseudoHeaders: pseudo)
    }

    private static func decodeResponse(_ value: JSONValue) -> HARResponse {
        let status = value["status"]?.doubleValue.flatMap { $0.isFinite && abs($0) < 1e6 ? Int($0) : nil } ?? 0
        let content = value["content"] ?? .null
        var problem: String?
        var bodyText: String?
        var encoding: String?
        if let raw = content["text"] {
            if let string = raw.stringValue {
                bodyText = string
            } else if raw != .null {
                problem = "\"content.text\" is a \(raw.typeName), not a string"
            }
        }
        if let raw = content["encoding"] {
            if let string = raw.stringValue {
                encoding = string
            } else if raw != .null {
                problem = "\"content.encoding\" is a \(raw.typeName), not a string"
            }
        }
        return HARResponse(
            status: status, statusText: value["statusText"]?.stringValue ?? "", message: message(value),
            redirectURL: nonEmpty(value["redirectURL"]?.stringValue),
            content: HARContent(
                size: count(content["size"]), mimeType: content["mimeType"]?.stringValue ?? "", text: bodyText, encoding: encoding,
                comment: nonEmpty(content["comment"]?.stringValue), file: nonEmpty(content["_file"]?.stringValue), problem: problem),
            bodySize: count(value["bodySize"]))
    }

    private static func timings(_ value: JSONValue?) -> HARTimings {
        func step(_ name: String) -> Double? {
            guard let number = value?[name]?.doubleValue, number.isFinite, number >= 0 else { return nil }
            return number
        }
        return HARTimings(
            blocked: step("blocked"), dns: step("dns"), connect: step("connect"), ssl: step("ssl"), send: step("send"),
            wait: step("wait"), receive: step("receive"))
    }

    private static func hints(_ entry: JSONValue, response: JSONValue?) -> HAREntryHints {
        let fetchType = entry["_fetchType"]?.stringValue
        var fromCache = entry["_fromCache"]?.stringValue
        if fromCache == nil, let fetchType, fetchType.lowercased().contains("cache") { fromCache = fetchType }
        let error = nonEmpty(entry["_error"]?.stringValue) ?? nonEmpty(response?["_error"]?.stringValue)
        return HAREntryHints(
            fromCache: fromCache, error: error, resourceType: entry["_resourceType"]?.stringValue, fetchType: fetchType,
            securityProtocol: entry["_securityDetails"]?["protocol"]?.stringValue,
            securityState: entry["_securityState"]?.stringValue, comment: nonEmpty(entry["comment"]?.stringValue))
    }

    /// A non-negative whole number, or nil (absent, −1, not a number).
    private static func count(_ value: JSONValue?) -> Int? {
        guard let number = value?.doubleValue, number.isFinite, number >= 0, number < 1e15 else { return nil }
        return Int(number)
    }

    /// A string, or a number's text (`connection` is either), or nil.
    private static func text(_ value: JSONValue?) -> String? {
        switch value {
        case .string(let string): string
        case .number(let number): number
        case .bool(let flag): String(flag)
        default: nil
        }
    }

    private static func nonEmpty(_ text: String?) -> String? {
        guard let text, !text.isEmpty else { return nil }
        return text
    }
}
