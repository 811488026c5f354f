import Testing

@_spi(Tooling) @testable import CarillonExtensionCore

/// What an input is, recognised from its content (SPEC §12), and hostile inputs: a clear problem or a
/// payload as before, in bounded time, never a trap.
@Suite struct RequestReaderTests {
    enum Kind: String, Sendable {
        case payload
        case apnsText = "apns-text"
        case curl, fcm, problem
    }

    static func kind(_ text: String) -> Kind {
        kind(Array(text.utf8))
    }

    static func kind(_ bytes: [UInt8]) -> Kind {
        do {
            switch try RequestReader.read(bytes, files: .none) {
            case .payload: return .payload
            case .request(let request): return Kind(rawValue: request.form.rawValue)!
            }
        } catch {
            return .problem
        }
    }

    @Test(arguments: [
        (#"{"aps":{"alert":"x"}}"#, Kind.payload),
        (#"{"aps":{"alert":"x"},"message":{"a":1}}"#, .payload),
        (#"{"message":"a text message"}"#, .payload),
        ("\u{FEFF}" + #"{"message":{"token":"t"}}"#, .fcm),
        ("  \n" + #"{"validate_only":true,"message":{"token":"t"}}"#, .fcm),
        ("POST /3/device/ab HTTP/2\n\n{}", .apnsText),
        (":method: POST\n:path: /3/device/ab\n\n{}", .apnsText),
        ("curl -d '{}' https://api.push.apple.com/3/device/ab", .curl),
        ("#!/bin/sh\nT=1\ncurl -d '{}' https://h/3/device/$T", .curl),
        // An unreadable curl command is one when it mentions a push, so that its line says why.
        ("curl -d '{} https://api.push.apple.com/3/device/ab", .problem),
        ("curl -H 'apns-topic: a' -d '{} https://h", .problem),
        // curl for anything else — a script fetching an image, a note — is not a request (Requests.md).
        ("curl -d '{} https://h", .payload),
        ("curl -sSfo s.png https://example.com/s.png", .payload),
        ("#!/bin/sh\ncurl -sSfo s.png https://example.com/s.png\n", .payload),
        ("See:\ncurl -v https://example.com/status\n", .payload),
        ("curl -d 'a=b' https://example.com/form", .payload),
        ("curl -d '{\"message\":\"hi\"}' https://hooks.example.com/x", .payload),
        // What aims at APNs or FCM, or carries apns-* fields or an aps payload, is one.
        ("curl -v https://api.push.apple.com/3/device/TOKEN", .curl),
        ("curl -v https://API.SANDBOX.PUSH.APPLE.COM/3/device/ab", .curl),
        ("curl -d '{}' https://relay.example.com/3/device/ab", .curl),
        ("curl -H 'apns-push-type: alert' -d '{}' https://relay.example.com/send", .curl),
        ("curl -H'APNS-topic: a' -d '{}' https://relay.example.com/send", .curl),
        ("curl -d '{\"aps\":{\"alert\":\"x\"}}' https://relay.example.com/send", .curl),
        ("curl -d '{}' https://fcm.googleapis.com/v1/projects/p/messages:send", .curl),
        ("curl -o x.png https://cdn.example.com/x.png\ncurl -d '{}' https://api.push.apple.com/3/device/ab", .curl),
        ("echo hello", .payload),
        ("", .payload),
        ("[1,2]", .payload),
    ])
    func recognisedFromContent(text: String, kind: Kind) {
        #expect(Self.kind(text) == kind)
        let isRequest = kind == .fcm || kind == .apnsText || kind == .curl || kind == .problem
        #expect(RequestReader.isRequest(Array(text.utf8)) == isRequest)
    }

    @Test func binaryGarbageIsAPayloadThatThePayloadReaderRefuses() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<300 {
            var bytes = (0..<Int.random(in: 1..<2048, using: &generator)).map { _ in UInt8.random(in: 0...255, using: &generator) }
            bytes[0] = UInt8.random(in: 0x80...0xFF, using: &generator)
            #expect(Self.kind(bytes) != .apnsText)
            _ = RequestReader.isRequest(bytes)
        }
    }

    @Test func deepJSONIsRefusedAsBefore() {
        let deep = #"{"message":"# + String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000) + "}"
        #expect(Self.kind(deep) == .payload)
        #expect(throws: Payload.InvalidPayload.self) { try Payload(bytes: Array(deep.utf8)) }
        let deepFCM =
            #"{"message":{"token":"t","data":"# + String(repeating: #"{"a":"#, count: 600) + "1" + String(repeating: "}", count: 602)
        #expect(Self.kind(deepFCM) == .payload, "past the parser's depth: not read as a message")
    }

    @Test func tenMegabytesOfCurlAreBoundedInTime() {
        let started = ContinuousClock.now
        let huge =
            "curl -H 'apns-topic: \(String(repeating: "t", count: 10_000_000))' -d '{\"aps\":{}}' https://api.push.apple.com/3/device/ab"
        #expect(Self.kind(huge) == .curl)
        let unbalanced = "curl https://api.push.apple.com/3/device/ab -d \"" + String(repeating: "x", count: 10_000_000)
        #expect(Self.kind(unbalanced) == .problem)
        #expect(ContinuousClock.now - started < .seconds(30))
    }

    @Test func aCurlCommandWithAnUnbalancedQuoteNamesTheLine() {
        let error = #expect(throws: RequestProblem.self) {
            try RequestReader.read(Array("# send\ncurl -v \\\n  -d '{\"aps\":{}}\n".utf8), files: .none)
        }
        #expect(
            error?.message.contains("line 3") == true && error?.message.contains("single quote") == true, "\(String(describing: error))")
    }

    @Test func aCurlCommandToFCMCarriesAnFCMMessage() throws {
        let script =
            #"curl -H 'Authorization: Bearer ya29' -d '{"message":{"token":"t","notification":{"title":"T"}}}' https://fcm.googleapis.com/v1/projects/p/messages:send"#
        guard case .request(let request) = try RequestReader.read(Array(script.utf8), files: .none) else {
            Issue.record("not a request")
            return
        }
        #expect(request.form == .curl && request.sender == .fcm)
        #expect(request.body == Array(#"{"aps":{"alert":{"title":"T"}}}"#.utf8))
        #expect(throws: RequestProblem.self) {
            try RequestReader.read(Array("curl -d 'not json' https://fcm.googleapis.com/v1/projects/p/messages:send".utf8), files: .none)
        }
    }

    @Test func theFirstPushRequestOfAScriptIsJudged() throws {
        let script = "curl -o x.png https://cdn.example.com/x.png\ncurl -d '{}' https://api.push.apple.com/3/device/ab\n"
        guard case .request(let request) = try RequestReader.read(Array(script.utf8), files: .none) else {
            Issue.record("not a request")
            return
        }
        #expect(request.target?.host == "api.push.apple.com")
        #expect(request.notes.contains { $0.contains("the first push request, on line 2") })
    }
}
