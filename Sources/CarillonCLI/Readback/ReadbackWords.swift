@_spi(Tooling) import CarillonExtensionCore

/// The tool's words for a read-back that failed: which key is wrong and why, which message is missing,
/// why retries stopped, with the options that set each limit. Never the key.
enum ReadbackWords {
    static func failure(_ failure: MessageReader.Failure, message: String, opens: Bool) -> String {
        let route = opens ? "GET /v1/messages/\(message)/opens" : "GET /v1/messages/\(message)"
        switch failure {
        case .refused(let status, let kind, let apiError):
            return "\(route): \(refusal(status: status, kind: kind, opens: opens))" + said(apiError)
        case .notFound(let apiError):
            return "\(route): no message '\(Quoting.display(message))' for this key's app (HTTP 404)" + said(apiError)
        case .unexpectedStatus(let status, let apiError):
            return "\(route): HTTP \(status), not an answer the API documents" + said(apiError)
        case .gaveUp(let why, let status, let lastFailure):
            let last = lastFailure ?? status.map { "HTTP \($0)" } ?? "no answer"
            return "\(route): gave up: \(APIWords.giveUp(why)); last: \(last)"
        case .deadlinePassed(let deadline): return "\(route): \(APIWords.deadlinePassed(deadline))"
        case .oversized(let limit): return "\(route): the answer is larger than \(limit) bytes, not the documented JSON"
        case .notDocumented(let problem): return "\(route): not the documented JSON: \(problem.message)"
        case .noHandle: return "cannot create a libcurl handle (curl_easy_init failed)"
        }
    }

    /// Which key is wrong, and why: a mobile key where a secret key is needed, a missing scope, a key
    /// the API does not know.
    static func refusal(status: Int, kind: APIKey.Kind, opens: Bool) -> String {
        if kind == .mobile {
            return "the API refused the key (HTTP \(status)): it is a mobile key (carillon_mk_…), which can only post events; "
                + "reading back needs a secret key (carillon_sk_…) in --key-file or $\(ReadbackCommand.keyVariable)"
        }
        if status == 403 && opens {
            return
                "the API refused the secret key (HTTP 403): the hourly opens (--opens) need a secret key carrying the deliveries:read scope"
        }
        if status == 401 {
            return
                "the API did not accept the \(kind.rawValue) (HTTP 401): unknown or revoked; check --key-file or $\(ReadbackCommand.keyVariable)"
        }
        return "the API refused the \(kind.rawValue) (HTTP \(status))"
    }

    private static func said(_ apiError: String?) -> String {
        apiError.map { " (the API says: '\(Quoting.display($0))')" } ?? ""
    }

    /// Why the stored time is what it is, for a verdict line.
    static func detail(_ verdict: ReadbackVerdict, line: SentLogLine, delivery: DeliveryView?, sampled: Int) -> String? {
        let field = line.event.type == .opened ? "opened_at" : "received_at"
        let stored = delivery?.stored(line.event.type)?.iso8601 ?? "null"
        switch verdict {
        case .recorded: return nil
        case .substituted:
            return "the clock rule: at \(line.event.at.iso8601) was "
                + (line.event.at > (delivery?.stored(line.event.type) ?? line.sentAt) ? "in the future" : "more than 30 days old")
                + " when the API received it; it stored that moment, \(stored)"
        case .superseded: return "an earlier report won (first report wins): the API holds \(stored)"
        case .missing: return "the delivery is listed and its \(field) is null: the API did not record this event"
        case .differs: return "sent \(line.event.at.iso8601), the API holds \(stored)"
        case .notSampled:
            return "the delivery is not among the \(sampled) sampled deliveries: unknowable from this endpoint"
        }
    }
}
