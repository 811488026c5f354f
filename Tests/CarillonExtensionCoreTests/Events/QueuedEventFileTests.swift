import CarillonTestSupport
import Testing

@_spi(Tooling) @testable import CarillonExtensionCore

/// The format-2 queue file as a pure function: what each kind of damage keeps and says.
@Suite struct QueuedEventFileTests {
    static let header2 = #"{"format":2,"events":2}"# + "\n"
    static let header3 = #"{"format":2,"events":3}"# + "\n"

    static func line(_ sequence: Int, _ n: Int, type: String = "received") -> String {
        #"{"format":2,"sequence":\#(sequence),"type":"\#(type)","delivery_id":"\#(TestDeliveryID.text(n))","at":"2026-08-20T09:16:44.120Z"}"#
            + "\n"
    }

    static func queued(_ sequence: Int64, _ n: Int, type: EventType = .received) -> QueuedEvent {
        QueuedEvent(event: Event(type: type, deliveryID: TestDeliveryID.make(n), at: ReceiptsFixture.time), sequence: sequence)
    }

    @Test func encodesAHeaderAndOneLinePerEventThatDecodeBack() throws {
        let events = [Self.queued(4, 1), Self.queued(5, 1, type: .opened), Self.queued(6, 2)]
        let bytes = QueuedEventFile.encode(events)
        #expect(
            String(decoding: bytes, as: UTF8.self) == Self.header3 + Self.line(4, 1) + Self.line(5, 1, type: "opened") + Self.line(6, 2))
        #expect(try QueuedEventFile.decode(bytes) == QueuedEventFile.Decoded(events: events, problems: []))
        #expect(try QueuedEventFile.decode(QueuedEventFile.encode([])) == QueuedEventFile.Decoded(events: [], problems: []))
    }

    /// Damage after a good header: every good line is kept, every problem said.
    @Test(arguments: [
        ("truncated last line", header3 + line(1, 1) + line(2, 2) + String(line(3, 3).prefix(40)), [1, 2], ["line 4: truncated"]),
        ("bad line in the middle", header3 + line(1, 1) + "{not json\n" + line(3, 3), [1, 3], ["line 3: not valid JSON"]),
        (
            "unknown line version", header2 + line(1, 1) + line(2, 2).replacingOccurrences(of: #""format":2"#, with: #""format":9"#), [1],
            ["line 3: unknown format version 9"]
        ),
        ("a line short", header3 + line(1, 1) + line(2, 2), [1, 2], ["the header says 3 events, the file has 2 lines"]),
        ("a line too many", header2 + line(1, 1) + line(2, 2) + line(3, 3), [1, 2, 3], ["the header says 2 events, the file has 3 lines"]),
        ("a blank line", header3 + line(1, 1) + "\n" + line(3, 3), [1, 3], ["line 3: an empty line"]),
        (
            "the same event twice", header3 + line(1, 1) + line(2, 2) + line(3, 1), [1, 2],
            ["line 4: a second received event for \(TestDeliveryID.text(1)); the first is kept"]
        ),
        ("a bad type", header2 + line(1, 1) + line(2, 2, type: "clicked"), [1], [#"line 3: "type" "clicked" is neither"#]),
    ])
    func keepsTheGoodLinesOfADamagedFile(name: String, text: String, kept: [Int], problems: [String]) throws {
        let decoded = try QueuedEventFile.decode(Array(text.utf8))
        #expect(decoded.events.map(\.sequence) == kept.map(Int64.init), "\(name)")
        #expect(!decoded.isWhole, "\(name)")
        #expect(decoded.problems.count == problems.count, "\(name): \(decoded.problems)")
        for (said, expected) in zip(decoded.problems, problems) { #expect(said.hasPrefix(expected), "\(name): \(said)") }
    }

    /// A header that cannot be trusted makes nothing in the file trustworthy.
    @Test(arguments: [
        ("", "empty file"),
        ("{\"format\":1,\"events\":1}\n" + line(1, 1), "header: unknown format version 1"),
        ("{\"format\":2}\n" + line(1, 1), "header: missing \"events\""),
        ("{\"format\":2,\"events\":-1}\n", "header: \"events\" -1 is not a non-negative integer"),
        ("garbage\n" + line(1, 1), "header: not valid JSON"),
        ("{\"format\":2,\"events\":1}", "header: truncated: no final newline"),
    ])
    func refusesAFileWithoutAGoodHeader(text: String, message: String) {
        #expect {
            _ = try QueuedEventFile.decode(Array(text.utf8))
        } throws: { error in
            (error as? RecordError)?.message.hasPrefix(message) == true
        }
    }

    @Test func namesAreNewEachTimeAndRecognised() {
        let names = (1...100).map { _ in QueuedEventFile.newFileName() }
        #expect(Set(names).count == 100)
        #expect(names.allSatisfy { QueuedEventFile.isFileName($0) && !QueuedEvent.isEventFileName($0) && $0.hasPrefix("batch-") })
        #expect(!QueuedEventFile.isFileName(".tmp-1.events") && !QueuedEventFile.isFileName("received-x.event"))
    }

    /// The reader without a JSON parser takes exactly the writer's lines, and gives what the parser
    /// gives; anything else it leaves to the parser.
    @Test(arguments: [
        (line(17, 1), true),
        (line(0, 2, type: "opened"), true),
        (line(9_007_199_254_740_991, 3), true),
        (line(17, 1).replacingOccurrences(of: #""sequence":17"#, with: #""sequence":017"#), false),
        (line(17, 1).replacingOccurrences(of: #""sequence":17"#, with: #""sequence":99999999999999999999"#), false),
        (line(17, 1).replacingOccurrences(of: #""sequence":17"#, with: #""sequence":-1"#), false),
        (line(17, 1).replacingOccurrences(of: ",", with: ", "), false),
        (line(17, 1).replacingOccurrences(of: "}\n", with: #","extra":1}"# + "\n"), false),
        (line(17, 1).replacingOccurrences(of: "01937b21", with: #"01937b2\u0031"#), false),
        (line(17, 1).replacingOccurrences(of: "01937b21", with: "01937B21"), true),
        (line(17, 1).replacingOccurrences(of: ".120Z", with: ".120+00:00"), true),
        (line(17, 1).replacingOccurrences(of: "received", with: "clicked"), false),
        (String(line(17, 1).dropLast()), false),
    ])
    func canonicalLinesAreReadWithoutTheParserAndAgreeWithIt(text: String, canonical: Bool) {
        let bytes = Array(text.utf8)
        let fast = QueuedEventFile.canonicalLine(bytes[...])
        #expect((fast != nil) == canonical, "\(text)")
        if let fast { #expect(fast == (try? QueuedEventFile.decodeLine(bytes)), "\(text)") }
    }
}
