import CarillonTestSupport
import Testing

@testable import CarillonCLI
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

    @Test(arguments: [(0.0, "0.000"), (7.5, "7.500"), (0.0004, "0.000"), (0.0005, "0.001"), (1234.5678, "1234.568"), (-3, "0.000")])
    func millisecondsHaveThreeDecimals(value: Double, text: String) {
        #expect(ResultLine.milliseconds(value) == text)
    }
}
