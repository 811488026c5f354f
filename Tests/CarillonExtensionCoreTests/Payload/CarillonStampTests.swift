import Testing

@_spi(Tooling) @testable import CarillonExtensionCore

@Suite struct CarillonStampTests {
    private func stamp(_ json: String) throws -> CarillonStamp {
        CarillonStamp(userInfo: try JSONParser.parse(Array(json.utf8)))
    }

    static let id = "01937b21-0000-7000-8000-000000000000"

    @Test func readsTheObjectForm() throws {
        let stamp = try stamp(
            #"{"carillon":{"delivery_id":"01937B21-0000-7000-8000-00000000000A","image":"https://example.com/a.png","other":1}}"#)
        #expect(stamp.deliveryID?.rawValue == "01937b21-0000-7000-8000-00000000000a")
        #expect(stamp.image == .url(try ImageURL(validating: "https://example.com/a.png")))
        #expect(stamp.warnings.isEmpty)
    }

    @Test func readsTheAndroidStringForm() throws {
        let stamp = try stamp(
            #"{"carillon":"{\"delivery_id\":\"01937b21-0000-7000-8000-000000000000\",\"image\":\"https://example.com/a.png\"}"}"#)
        #expect(stamp.deliveryID?.rawValue == Self.id)
        #expect(stamp.image == .url(try ImageURL(validating: "https://example.com/a.png")))
    }

    @Test(arguments: [
        (#"{"carillon":5}"#, "'carillon' is number, not an object"),
        (#"{"carillon":"not json"}"#, "'carillon' is a string that is not valid JSON"),
        (#"{"carillon":"[1,2]"}"#, "'carillon' is a string holding array"),
        (#"{"carillon":{}}"#, "has no delivery_id"),
        (#"{"carillon":{"delivery_id":42}}"#, "delivery_id is number, not a string"),
        (#"{"carillon":{"delivery_id":"abc"}}"#, "is not a UUID"),
        (#"{"carillon":{"delivery_id":"{01937b21-0000-7000-8000-000000000000}"}}"#, "is not a UUID"),
    ])
    func aWrongStampIsNoStamp(json: String, warning: String) throws {
        let stamp = try stamp(json)
        #expect(stamp.deliveryID == nil)
        #expect(stamp.warnings.contains { $0.contains(warning) }, "\(stamp.warnings)")
    }

    @Test func noCarillonKeyIsQuietlyNoStamp() throws {
        let stamp = try stamp(#"{"aps":{}}"#)
        #expect(stamp.deliveryID == nil)
        #expect(stamp.image == .absent)
        #expect(stamp.warnings.isEmpty)
    }

    @Test(arguments: [
        (#"{"carillon":{"image":5}}"#, Reason.invalidURL, "carillon.image is number"),
        (#"{"carillon":{"image":null}}"#, .invalidURL, "carillon.image is null"),
        (#"{"carillon":{"image":{"url":"https://x"}}}"#, .invalidURL, "carillon.image is object"),
        (#"{"carillon":{"image":"http://example.com/a.png"}}"#, .insecureURL, "scheme 'http'"),
    ])
    func aWrongImageIsRejectedWithItsReason(json: String, reason: Reason, detail: String) throws {
        guard case .rejected(let outcome) = try stamp(json).image else {
            Issue.record("expected a rejected image")
            return
        }
        #expect(outcome.reason == reason)
        #expect(outcome.detail.contains(detail), "\(outcome.detail)")
    }

    @Test(arguments: [
        ("01937b21-0000-7000-8000-000000000000", "01937b21-0000-7000-8000-000000000000"),
        ("01937B21-ABCD-7000-8000-00000000000F", "01937b21-abcd-7000-8000-00000000000f"),
    ])
    func deliveryIDsAreCanonicalAndLowercased(text: String, expected: String) {
        #expect(DeliveryID(text)?.rawValue == expected)
    }

    @Test(arguments: [
        "", "01937b21000070008000000000000000", " 01937b21-0000-7000-8000-000000000000",
        "01937b21-0000-7000-8000-00000000000g", "urn:uuid:01937b21-0000-7000-8000-000000000000",
        "01937b21-0000-7000-8000_000000000000", "01937b21-0000-7000-8000-0000000000000",
        "０1937b21-0000-7000-8000-000000000000",
    ])
    func refusesNonCanonicalDeliveryIDs(text: String) {
        #expect(DeliveryID(text) == nil)
    }
}
