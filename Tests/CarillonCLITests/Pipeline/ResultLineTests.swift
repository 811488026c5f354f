import CarillonTestSupport
import Testing

@_spi(Tooling) @testable import CarillonCLI
@_spi(Tooling) @testable import CarillonExtensionCore

/// The `process` line (SPEC §6): every field, in its order, from a result; names that are not UTF-8;
/// milliseconds with three decimals.
@Suite struct ResultLineTests {
    static func result(attached: Bool) throws -> ServiceResult {
        let payload = try Payload(bytes: Array(#"{"aps":{"alert":"x","mutable-content":1}}"#.utf8))
        var content = NotificationContent(payload: payload)
        if attached {
            content.attachments = [NotificationAttachment(identifier: "image-1", path: "att/image-1.png", type: .png, byteCount: 461)]
        }
        return ServiceResult(
            content: content, delivered: attached ? .modified : .original,
            outcome: attached ? Outcome(.attached, "png image of 461 bytes attached") : Outcome(.httpStatus, "the server answered 404"),
            routed: true, deliveryID: TestDeliveryID.make(42), receipt: .none, warnings: ["odd"], elapsed: .microseconds(7_500),
            imageURL: "https://127.0.0.1:1/img/png")
    }

    @Test func everyFieldInSpecOrder() throws {
        let line = ResultLine.make(.file("p.json", named: true), result: try Self.result(attached: true), payloadWarnings: ["first"])
        #expect(
            line == #"{"payload":"p.json","routed":true,"reason":"attached","detail":"png image of 461 bytes attached","#
                + #""delivered":"modified","delivery_id":"01937b21-0000-7000-8000-00000000002a","receipt":"none","#
                + #""attachments":[{"file":"att/image-1.png","type":"png","bytes":461}],"elapsed_ms":7.500,"#
                + #""warnings":["first","odd"],"image_url":"https://127.0.0.1:1/img/png","trace":null,"shared_with":null,"request":null}"#)
    }

    @Test func aFallbackHasNoAttachments() throws {
        let line = ResultLine.make(.standardInput, result: try Self.result(attached: false), payloadWarnings: [])
        #expect(line.hasPrefix(#"{"payload":"-","routed":true,"reason":"http-status","#))
        #expect(line.contains(#""delivered":"original""#) && line.contains(#""attachments":[]"#))
    }

    @Test func anInvalidInputHasTheSameFields() {
        let line = ResultLine.invalid(.file("bad.json", named: true), "not a JSON object but array")
        #expect(
            line == #"{"payload":"bad.json","routed":false,"reason":"invalid-payload","detail":"not a JSON object but array","#
                + #""delivered":"original","delivery_id":null,"receipt":"none","attachments":[],"elapsed_ms":0.000,"#
                + #""warnings":[],"image_url":null,"trace":null,"shared_with":null,"request":null}"#)
    }

    @Test func aNameThatIsNotUTF8IsEscapedAndCarriedExactly() {
        let name = FileName.string(fromBytes: Array("caf".utf8) + [0xE9] + Array(".json".utf8))
        let line = ResultLine.invalid(.file(name, named: true), "x")
        #expect(line.hasPrefix(#"{"payload":"caf\\xE9.json","payload_base64":"Y2Fm6S5qc29u","routed":false"#), "\(line)")
    }

    /// The trace as a value the way TraceJSON built it before it wrote to a ``JSONOutput``: the reference.
    static func referenceTrace(_ trace: DownloadTrace) -> JSONValue {
        func number(_ value: Int?) -> JSONValue { value.map { .number(String($0)) } ?? .null }
        func string(_ value: String?) -> JSONValue { value.map { .string($0) } ?? .null }
        func milliseconds(_ value: Double?) -> JSONValue { value.map { .number(ResultLine.milliseconds($0)) } ?? .null }
        let hops: [JSONValue] = trace.hops.map { hop in
            [
                "url": .string(hop.url), "status": number(hop.status), "http_version": string(hop.httpVersion),
                "remote": string(hop.remote), "location": string(hop.location), "content_type": string(hop.contentType),
                "content_length": number(hop.contentLength), "content_encoding": string(hop.contentEncoding),
                "wire_bytes": .number(String(hop.wireBytes)), "decoded_bytes": .number(String(hop.decodedBytes)),
                "tls": hop.tls.map { ["version": .string($0.version), "cipher": .string($0.cipher)] } ?? .null,
                "timings_ms": [
                    "dns": milliseconds(hop.timings.dns), "connect": milliseconds(hop.timings.connect),
                    "tls": milliseconds(hop.timings.tls),
                    "first_byte": milliseconds(hop.timings.firstByte), "total": milliseconds(hop.timings.total),
                ],
            ]
        }
        return [
            "request_headers": .object(trace.requestHeaders.map { (key: $0.name, value: .string($0.value)) }), "hops": .array(hops),
            "body_bytes": .number(String(trace.bodyBytes)), "budget_ms": .number(String(trace.budget.wholeMilliseconds)),
            "phase": .string(trace.phase.rawValue),
            "image": trace.image.map {
                ["type": .string($0.type.rawValue), "width": number($0.width), "height": number($0.height), "frames": number($0.frames)]
            } ?? .null,
        ]
    }

    @Test func aTraceIsTheValueItWas() {
        #expect(TraceJSON.value(BundleRecordTests.trace) == Self.referenceTrace(BundleRecordTests.trace))
        var bare = BundleRecordTests.trace
        bare.image = nil
        bare.requestHeaders = []
        bare.hops = []
        #expect(TraceJSON.value(bare) == Self.referenceTrace(bare))
        #expect(TraceJSON.value(nil) == .null)
    }

    /// The printed line is written straight to text; a recording and a bundle keep it as a value: the two
    /// are the same line, whatever it holds.
    @Test(arguments: [false, true])
    func theLineAsTextIsTheLineAsValue(attached: Bool) throws {
        var result = try Self.result(attached: attached)
        result.trace = BundleRecordTests.trace
        result.sharedWith = "a \"quoted\"\nname\u{2028}"
        result.warnings = ["\u{0}control", "é"]
        let name = FileName.string(fromBytes: Array("caf".utf8) + [0xE9] + Array(".json".utf8))
        let request: JSONValue = ["kind": "apns", "warnings": ["x"]]
        for input in [PayloadInput.file(name, named: true), .standardInput, .file("p.json", named: true)] {
            for (recording, replay) in [(nil, nil), (JSONValue.string("r.har"), nil), (.null, ["source": "carillon"] as JSONValue)] {
                for kept in [true, false] {
                    let text = ResultLine.make(
                        input, result: result, payloadWarnings: ["p"], keptFiles: kept, request: request, recording: recording,
                        replay: replay)
                    let value = ResultLine.value(
                        input, result: result, payloadWarnings: ["p"], keptFiles: kept, request: request, recording: recording,
                        replay: replay)
                    #expect(text == JSONWriter.string(value))
                    #expect(value["trace"] == Self.referenceTrace(BundleRecordTests.trace))
                    #expect(value["recording"] == recording && value["replay"] == replay)
                }
            }
            #expect(ResultLine.invalid(input, "bad \"x\"") == JSONWriter.string(ResultLine.invalidValue(input, "bad \"x\"")))
        }
    }

    @Test(arguments: [(0.0, "0.000"), (7.5, "7.500"), (0.0004, "0.000"), (0.0005, "0.001"), (1234.5678, "1234.568"), (-3, "0.000")])
    func millisecondsHaveThreeDecimals(value: Double, text: String) {
        #expect(ResultLine.milliseconds(value) == text)
    }
}
