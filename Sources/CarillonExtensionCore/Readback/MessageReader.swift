/// Reads a message and its hourly opens back from the API (SPEC §10) with a secret key, through the
/// ``APIClient`` (TLS verified, the key never in a value, retries of no answer, 408, 429 and 5xx by the
/// ``RetryPolicy``, honouring `Retry-After`, a deadline, a bounded answer), and reads the answers with
/// ``APIAnswerReader``. Never prints: what happened is a value.
package struct MessageReader: Sendable {
    /// Bytes of an answer read at most: 50 deliveries take about 15 KB.
    package static let maximumAnswerBytes = 1 << 20

    /// Why a read gave no documented answer.
    package enum Failure: Error, Sendable, Equatable {
        /// 401 or 403: the key was refused; the API's own words (the key redacted), if it gave any.
        case refused(status: Int, kind: APIKey.Kind, apiError: String?)
        /// 404: no such message for this key's app.
        case notFound(apiError: String?)
        /// Another status that is not retried.
        case unexpectedStatus(Int, apiError: String?)
        /// Retries ran out: why, and the last failure or status.
        case gaveUp(RetryPolicy.GiveUp, lastStatus: Int?, lastFailure: String?)
        /// The deadline passed before a request could start.
        case deadlinePassed(Duration)
        /// The answer was longer than the bound.
        case oversized(limit: Int)
        /// A 2xx whose body is not the documented JSON.
        case notDocumented(APIAnswerReader.Problem)
        /// libcurl could not create a handle.
        case noHandle
    }

    /// The API's base URL.
    package var endpoint: APIEndpoint
    /// The secret key.
    package var key: APIKey
    /// Retries and the deadline, which spans every read of one reader's run.
    package var policy: RetryPolicy
    /// A PEM file of extra trusted certificate authorities (tests, staging); verification stays on.
    package var extraCAFile: String?
    /// The longest a transfer may move no byte.
    package var stallLimit: Duration
    /// Waits this long (the backoff); tests pass their own.
    package var sleep: @Sendable (Duration) -> Void

    /// A reader.
    package init(
        endpoint: APIEndpoint, key: APIKey, policy: RetryPolicy = .standard, extraCAFile: String? = nil,
        stallLimit: Duration = .seconds(30), sleep: @escaping @Sendable (Duration) -> Void = { Pause.sleep(for: $0) }
    ) {
        self.endpoint = endpoint
        self.key = key
        self.policy = policy
        self.extraCAFile = extraCAFile
        self.stallLimit = stallLimit
        self.sleep = sleep
    }

    /// `GET /v1/messages/{id}`, read. `onRetry` hears each attempt tried again (its status or failure
    /// and the wait).
    package func message(
        _ id: String, started: ContinuousClock.Instant = .now, onRetry: (_ status: Int?, _ wait: Duration) -> Void = { _, _ in }
    ) -> Result<MessageView, Failure> {
        get("/v1/messages/\(Self.pathSegment(id))", started: started, onRetry: onRetry).flatMap { bytes in
            Result { () throws(APIAnswerReader.Problem) in try APIAnswerReader.message(bytes) }.mapError { .notDocumented($0) }
        }
    }

    /// `GET /v1/messages/{id}/opens`, read.
    package func opens(
        _ id: String, started: ContinuousClock.Instant = .now, onRetry: (_ status: Int?, _ wait: Duration) -> Void = { _, _ in }
    ) -> Result<[HourlyOpens], Failure> {
        get("/v1/messages/\(Self.pathSegment(id))/opens", started: started, onRetry: onRetry).flatMap { bytes in
            Result { () throws(APIAnswerReader.Problem) in try APIAnswerReader.opens(bytes) }.mapError { .notDocumented($0) }
        }
    }

    private func get(
        _ path: String, started: ContinuousClock.Instant, onRetry: (_ status: Int?, _ wait: Duration) -> Void
    ) -> Result<[UInt8], Failure> {
        guard
            let client = APIClient(
                endpoint: endpoint, key: key, transportSecurity: .appTransportSecurity, extraCAFile: extraCAFile,
                maximumBodyBytes: Self.maximumAnswerBytes, stallLimit: stallLimit)
        else { return .failure(.noHandle) }
        let ending = client.exchange(
            .get, path, policy: policy, started: started, isRetryable: { Self.isRetryable($0.status) },
            random: { Int.random(in: 0...max($0, 0)) }, sleep: sleep, onRetry: { onRetry($0.response.status, $0.wait ?? .zero) })
        switch ending {
        case .deadlinePassed: return .failure(.deadlinePassed(policy.deadline))
        case .gaveUp(let attempt, let why):
            return .failure(.gaveUp(why, lastStatus: attempt.response.status, lastFailure: attempt.response.failure))
        case .answered(let attempt):
            return classify(attempt.response)
        }
    }

    /// No answer, 408, 429 and 5xx are tried again.
    static func isRetryable(_ status: Int?) -> Bool {
        guard let status else { return true }
        return status == 408 || status == 429 || (500...599).contains(status)
    }

    private func classify(_ response: APIClient.Response) -> Result<[UInt8], Failure> {
        let status = response.status ?? 0
        let apiError = APIAnswerReader.errorMessage(response.body).map(key.redacting)
        switch status {
        case 200...299:
            return response.oversized ? .failure(.oversized(limit: Self.maximumAnswerBytes)) : .success(response.body)
        case 401, 403: return .failure(.refused(status: status, kind: key.kind, apiError: apiError))
        case 404: return .failure(.notFound(apiError: apiError))
        default: return .failure(.unexpectedStatus(status, apiError: apiError))
        }
    }

    /// `id` percent-encoded for one path segment (unreserved characters kept).
    static func pathSegment(_ id: String) -> String {
        var out = ""
        for byte in id.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
                out.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                let hex = Array("0123456789ABCDEF".unicodeScalars)
                out += "%" + String(hex[Int(byte >> 4)]) + String(hex[Int(byte & 15)])
            }
        }
        return out
    }
}
