import CarillonTestSupport
import Testing

@_spi(Tooling) @testable import CarillonExtensionCore

@Suite struct ReceiptTests {
    static let id = TestDeliveryID.make(0x2a)
    static let line = #"{"format":1,"delivery_id":"01937b21-0000-7000-8000-00000000002a","received_at":"2026-08-20T09:16:44.120Z"}"#

    @Test func encodesOneCompactLine() {
        let receipt = Receipt(deliveryID: Self.id, receivedAt: ReceiptsFixture.time)
        #expect(String(decoding: receipt.encoded(), as: UTF8.self) == Self.line + "\n")
        #expect(receipt.fileName == "01937b21-0000-7000-8000-00000000002a.receipt")
    }

    @Test(arguments: [0, 1, 999, 1_787_217_404_120, 253_402_300_799_999] as [Int64])
    func roundTrips(milliseconds: Int64) throws {
        let receipt = Receipt(deliveryID: Self.id, receivedAt: Timestamp(millisecondsSinceEpoch: milliseconds))
        #expect(try Receipt.decode(receipt.encoded(), fileName: receipt.fileName) == receipt)
    }

    @Test func ignoresUnknownMembersAndAcceptsAnyIDCase() throws {
        let text =
            #"{"received_at":"2026-08-20T11:16:44.120+02:00","future":{"x":[1,2]},"delivery_id":"01937B21-0000-7000-8000-00000000002A","format":1}"#
            + "\n"
        let receipt = try Receipt.decode(Array(text.utf8), fileName: "01937b21-0000-7000-8000-00000000002a.receipt")
        #expect(receipt == Receipt(deliveryID: Self.id, receivedAt: ReceiptsFixture.time))
    }

    /// Bytes that are not a receipt, and words the error must contain.
    static let malformed: [(String, String)] = [
        ("", "empty file"),
        (String(line.prefix(40)), "truncated"),
        (line, "truncated: no final newline"),
        (line + "\n" + line + "\n", "unexpected data after the JSON value"),
        (line + "\ngarbage", "unexpected data after the JSON value"),
        ("[1]\n", "not a JSON object but array"),
        ("\"receipt\"\n", "not a JSON object but string"),
        ("{\"format\":1,\n", "truncated"),
        ("\u{0}\u{0}\u{0}\u{0}", "not valid JSON"),
        (
            #"{"delivery_id":"01937b21-0000-7000-8000-00000000002a","received_at":"2026-08-20T09:16:44.120Z"}"# + "\n",
            #"no "format" version"#
        ),
        (#"{"format":2,"whatever":true}"# + "\n", "unknown format version 2"),
        (#"{"format":0}"# + "\n", "unknown format version 0"),
        (#"{"format":1.0}"# + "\n", #""format" 1.0 is not a version number"#),
        (#"{"format":"1"}"# + "\n", #""format" is string, not a number"#),
        (#"{"format":1,"received_at":"2026-08-20T09:16:44.120Z"}"# + "\n", #"missing "delivery_id""#),
        (#"{"format":1,"delivery_id":42,"received_at":"2026-08-20T09:16:44.120Z"}"# + "\n", #""delivery_id" is number, not a string"#),
        (#"{"format":1,"delivery_id":"abc","received_at":"2026-08-20T09:16:44.120Z"}"# + "\n", #""delivery_id" "abc" is not a UUID"#),
        (#"{"format":1,"delivery_id":"01937b21-0000-7000-8000-00000000002a"}"# + "\n", #"missing "received_at""#),
        (
            #"{"format":1,"delivery_id":"01937b21-0000-7000-8000-00000000002a","received_at":null}"# + "\n",
            #""received_at" is null, not a string"#
        ),
        (
            #"{"format":1,"delivery_id":"01937b21-0000-7000-8000-00000000002a","received_at":"yesterday"}"# + "\n",
            #""received_at" "yesterday" is not a time"#
        ),
        (
            #"{"format":1,"format":1,"delivery_id":"01937b21-0000-7000-8000-00000000002a","received_at":"2026-08-20T09:16:44.120Z"}"#
                + "\n", #"duplicate member "format""#
        ),
        (String(repeating: " ", count: 5000), "more than a record can hold (4096)"),
    ]

    @Test(arguments: malformed)
    func rejectsMalformedBytes(text: String, expected: String) {
        #expect {
            _ = try Receipt.decode(Array(text.utf8))
        } throws: { error in
            (error as? RecordError)?.message.contains(expected) == true
        }
    }

    @Test func rejectsInvalidUTF8() {
        var bytes = Array(Self.line.utf8) + [0x0A]
        bytes[30] = 0xFF
        #expect(throws: RecordError.self) { _ = try Receipt.decode(bytes) }
    }

    @Test(arguments: [
        "01937b21-0000-7000-8000-00000000002b.receipt",
        "01937B21-0000-7000-8000-00000000002A.receipt",
        "01937b21-0000-7000-8000-00000000002a",
        "receipt",
    ])
    func rejectsAFileNameThatIsNotItsDeliveryID(name: String) {
        #expect(
            throws: RecordError(
                "file name does not match its delivery_id 01937b21-0000-7000-8000-00000000002a (expected 01937b21-0000-7000-8000-00000000002a.receipt)"
            )
        ) {
            _ = try Receipt.decode(Array((Self.line + "\n").utf8), fileName: name)
        }
    }

    @Test func resultCodesAndWarnings() {
        #expect(ReceiptStatus.none.code == "none")
        #expect(ReceiptStatus.none.warning == nil)
        #expect(ReceiptStatus.stored.code == "stored")
        #expect(ReceiptStatus.stored.warning == nil)
        #expect(ReceiptStatus.duplicate.code == "duplicate")
        #expect(ReceiptStatus.duplicate.warning == nil)
        #expect(ReceiptStatus.dropped("full").code == "failed")
        #expect(ReceiptStatus.dropped("full").warning == "full")
        #expect(ReceiptStatus.failed("disk").code == "failed")
        #expect(ReceiptStatus.failed("disk").warning == "disk")
    }
}
