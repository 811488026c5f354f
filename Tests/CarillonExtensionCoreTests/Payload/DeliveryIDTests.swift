import Testing

@_spi(Tooling) @testable import CarillonExtensionCore

/// `carillon.delivery_id`: exactly the canonical 8-4-4-4-12 form, in any case, held lowercased.
@Suite struct DeliveryIDTests {
    @Test(arguments: [
        ("01937b21-0000-7000-8000-000000000000", "01937b21-0000-7000-8000-000000000000"),
        ("01937B21-ABCD-7000-8000-0000000000FF", "01937b21-abcd-7000-8000-0000000000ff"),
        ("ffffffff-ffff-ffff-ffff-ffffffffffff", "ffffffff-ffff-ffff-ffff-ffffffffffff"),
    ])
    func canonicalFormsAreAcceptedAndLowercased(text: String, expected: String) throws {
        let id = try #require(DeliveryID(text))
        #expect(id.rawValue == expected)
        #expect(id.description == expected)
    }

    @Test(arguments: [
        "", "01937b21000070008000000000000000", "{01937b21-0000-7000-8000-000000000000}",
        "urn:uuid:01937b21-0000-7000-8000-000000000000", " 01937b21-0000-7000-8000-000000000000",
        "01937b21-0000-7000-8000-00000000000", "01937b21-0000-7000-8000-0000000000000",
        "01937b21_0000-7000-8000-000000000000", "01937b2g-0000-7000-8000-000000000000",
        "01937b21-0000-7000-8000-00000000000\u{e9}", "０1937b21-0000-7000-8000-000000000000",
    ])
    func everythingElseIsRefused(text: String) {
        #expect(DeliveryID(text) == nil)
    }

    @Test func equalityAndOrderFollowTheLowercasedText() throws {
        let upper = try #require(DeliveryID("01937B21-0000-7000-8000-00000000000A"))
        let lower = try #require(DeliveryID("01937b21-0000-7000-8000-00000000000a"))
        let later = try #require(DeliveryID("01937b21-0000-7000-8000-00000000000b"))
        #expect(upper == lower)
        #expect(Set([upper, lower]).count == 1)
        #expect(lower < later && !(later < lower))
    }
}
