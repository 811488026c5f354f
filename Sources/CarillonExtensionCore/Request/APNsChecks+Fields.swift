extension APNsChecks {
    static func priority(_ context: Context) -> [Finding] {
        guard let value = context.request.header("apns-priority")?.value else { return [] }
        if let open = context.open("apns-priority", value) { return [open] }
        return value == "10" || value == "5" || value == "1"
            ? [] : [.refuse(.badPriority, "apns-priority \(Quoting.single(value, limit: 20)) is not 10, 5 or 1")]
    }

    /// An absent apns-priority is 10, APNs' default (FCM's request always carries one, its own default).
    static func priorityBackground(_ context: Context) -> [Finding] {
        let field = context.request.header("apns-priority")
        guard field?.value == "10" || (field == nil && !context.viaFCM) else { return [] }
        let defaulted =
            field == nil
            ? " (APNs' default: the request has no apns-priority)"
            : context.request.defaultedHeaders.contains("apns-priority") ? " (FCM's default where apns.headers give none)" : ""
        if context.pushType == "background" {
            return [.refuse(.badPriority, "apns-priority 10\(defaulted) on a background push, which must be 5")]
        }
        if context.pushType == nil, case .object(let aps)? = context.payload?["aps"], aps.count == 1, aps[0].key == "content-available" {
            return [.refuse(.badPriority, "apns-priority 10\(defaulted) on a payload of content-available alone, which must be 5")]
        }
        return []
    }

    static func expiration(_ context: Context) -> [Finding] {
        guard let value = context.request.header("apns-expiration")?.value,
            !context.request.defaultedHeaders.contains("apns-expiration")
        else { return [] }
        if let open = context.open("apns-expiration", value) { return [open] }
        guard !value.isEmpty, value.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }), value.count <= 19 else {
            return [.refuse(.badExpirationDate, "apns-expiration \(Quoting.single(value, limit: 30)) is not an integer number of seconds")]
        }
        return []
    }

    static func collapseID(_ context: Context) -> [Finding] {
        guard let value = context.request.header("apns-collapse-id")?.value else { return [] }
        if let open = context.open("apns-collapse-id", value) { return [open] }
        let bytes = value.utf8.count
        return bytes <= 64 ? [] : [.refuse(.badCollapseId, "apns-collapse-id is \(bytes) bytes, over APNs' 64")]
    }

    static func apnsID(_ context: Context) -> [Finding] {
        guard let value = context.request.header("apns-id")?.value else { return [] }
        if let open = context.open("apns-id", value) { return [open] }
        let groups = value.split(separator: "-", omittingEmptySubsequences: false).map(\.count)
        let valid = groups == [8, 4, 4, 4, 12] && value.utf8.allSatisfy { $0 == UInt8(ascii: "-") || isHexDigit($0) }
        return valid ? [] : [.refuse(.badMessageId, "apns-id \(Quoting.single(value, limit: 60)) is not a canonical UUID")]
    }

    static func payloadEmpty(_ context: Context) -> [Finding] {
        context.request.body.isEmpty ? [.refuse(.payloadEmpty, "the request has no payload")] : []
    }

    /// The limit APNs puts on a push type's payload: 5120 bytes for VoIP, 4096 for every other.
    static func payloadLimit(pushType: String?) -> Int { pushType == "voip" ? 5120 : 4096 }

    static func payloadSize(_ context: Context) -> [Finding] {
        let limit = payloadLimit(pushType: context.pushType)
        let bytes = context.request.body.count
        guard bytes > limit else { return [] }
        return [
            .refuse(
                .payloadTooLarge, "the payload is \(bytes) bytes as sent, over the \(limit) APNs takes\(limit == 5120 ? " for voip" : "")")
        ]
    }

    /// The host against the app's `aps-environment` when it is known; a host that is not APNs' is unknown.
    static func host(_ context: Context) -> [Finding] {
        guard !context.viaFCM else { return [] }
        guard let host = context.request.target?.host else {
            return [.unknown("the host and the device token: the request does not say them")]
        }
        if let open = context.open("the host", host) { return [open] }
        let environments = [
            "api.push.apple.com": "production", "api.sandbox.push.apple.com": "development",
            "api.development.push.apple.com": "development",
        ]
        guard let environment = environments[host] else {
            return [.unknown("the host \(Quoting.single(host, limit: 80)) is not APNs' (api.push.apple.com, api.sandbox.push.apple.com)")]
        }
        var findings: [Finding] = []
        if let port = context.request.target?.effectivePort, port != 443 && port != 2197 {
            findings.append(.unknown("port \(port): APNs answers on 443 and 2197"))
        }
        if let app = context.facts.apsEnvironment, app != environment {
            findings.append(
                .refuse(
                    .badDeviceToken,
                    "the app's aps-environment is \(app), and \(host) is \(environment)'s host: its tokens are refused there"))
        }
        return findings
    }

    /// The hosts APNs answers on, and their environment.
    static let environments = [
        "api.push.apple.com": "production", "api.sandbox.push.apple.com": "development", "api.development.push.apple.com": "development",
    ]

    /// Why the request does not go to APNs at all (a host that is not APNs'), or nil.
    static func elsewhere(_ context: Context) -> String? {
        guard !context.viaFCM, let host = context.request.target?.host, context.open("the host", host) == nil, environments[host] == nil
        else { return nil }
        return "the request goes to \(Quoting.single(host, limit: 80)), not to APNs (api.push.apple.com, api.sandbox.push.apple.com): "
            + "what that server answers is its own"
    }

    static func http2(_ context: Context) -> [Finding] {
        guard let version = context.request.httpVersion else { return [] }
        return [.unknown("HTTP/\(version): APNs speaks HTTP/2 only, and what it answers HTTP/\(version) is not documented")]
    }

    /// What always needs the credentials or the device.
    static func credentials(_ context: Context) -> [String] {
        if context.viaFCM {
            return ["the APNs key or certificate FCM holds for the app, and whether the device token is registered: FCM's and APNs' to say"]
        }
        let authentication =
            context.bearer
            ? "whether the provider token is valid (its signature, its key, under an hour old)"
            : context.request.header("authorization") == nil
                ? "the client certificate (no authorization field: certificate-based authentication)"
                : "the authorization field, which is not a bearer token"
        return [authentication, "whether the device token is registered for this topic and environment"]
    }
}
