import CarillonTestSupport
import Foundation
import Testing

@testable import CarillonCLI
@_spi(Tooling) @testable import CarillonExtensionCore

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// `--format junit`: escaping for every character a payload can hold, and a real campaign's document
/// parsed back with Foundation's XMLParser (a strict XML 1.0 parser).
@Suite(.timeLimit(.minutes(2))) struct JUnitTests {
    static let escapes: [(input: String, text: String, attribute: String)] = [
        ("a&b<c>d", "a&amp;b&lt;c&gt;d", "a&amp;b&lt;c&gt;d"),
        ("\"q\" 'a'", "\"q\" 'a'", "&quot;q&quot; &apos;a&apos;"),
        ("tab\tnl\ncr\r", "tab\tnl\ncr\r", "tab&#9;nl&#10;cr&#13;"),
        ("nul\u{0}bel\u{7}esc\u{1B}", "nul\\x00bel\\x07esc\\x1B", "nul\\x00bel\\x07esc\\x1B"),
        ("del\u{7F} é 🔔 \u{FFFE}", "del\u{7F} é 🔔 \\u{FFFE}", "del\u{7F} é 🔔 \\u{FFFE}"),
    ]

    @Test(arguments: escapes.indices)
    func textAndAttributesAreEscaped(index: Int) {
        let (input, text, attribute) = Self.escapes[index]
        #expect(JUnitXML.text(input) == text)
        #expect(JUnitXML.attribute(input) == attribute)
    }

    static let verdicts: [(reason: Reason, namesImage: Bool, failOn: String?, expected: JUnitXML.Verdict)] = [
        (.attached, true, nil, .passed),
        (.unsupportedType, true, nil, .failure),
        (.expired, true, nil, .failure),
        (.noImage, false, nil, .passed),
        (.notMutable, true, nil, .failure),
        (.invalidPayload, false, nil, .error),
        (.invalidPayload, false, "fallback", .error),
        (.noImage, false, "no-image", .failure),
        (.unsupportedType, true, "no-image", .passed),
        (.attached, true, "fallback", .passed),
        (.timeout, true, "fallback", .failure),
    ]

    @Test(arguments: verdicts.indices)
    func aPayloadsTestVerdict(index: Int) throws {
        let (reason, namesImage, failOn, expected) = Self.verdicts[index]
        let parsed = try failOn.map { try FailOn.parse($0) }
        #expect(JUnitXML.verdict(reason: reason, namesImage: namesImage, failOn: parsed) == expected, "\(Self.verdicts[index])")
    }

    /// Every scalar below 0x100 in a message: the document still parses, and says it back.
    @Test func everyByteValueGivesAParsableDocument() throws {
        let all = String(String.UnicodeScalarView((0..<0x100).compactMap(Unicode.Scalar.init)))
        let document =
            JUnitXML.header(tests: 1, failures: 1, errors: 0, seconds: 0)
            + JUnitXML.testCase(name: all, classname: "h", seconds: 0.001, verdict: .failure, reason: .network, detail: all) + "\n"
            + JUnitXML.footer
        let parsed = try Self.parse(document)
        #expect(parsed.cases.count == 1 && parsed.failures.count == 1)
    }

    /// What a document holds, as a CI reporter reads it.
    struct Parsed {
        var suites: [[String: String]] = []
        var cases: [[String: String]] = []
        var failures: [[String: String]] = []
        var errors: [[String: String]] = []
    }

    final class Collector: NSObject, XMLParserDelegate {
        var parsed = Parsed()
        func parser(
            _ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
            attributes: [String: String] = [:]
        ) {
            switch name {
            case "testsuites", "testsuite": parsed.suites.append(attributes)
            case "testcase": parsed.cases.append(attributes)
            case "failure": parsed.failures.append(attributes)
            case "error": parsed.errors.append(attributes)
            default: break
            }
        }
    }

    static func parse(_ document: String) throws -> Parsed {
        let parser = XMLParser(data: Data(document.utf8))
        let collector = Collector()
        parser.delegate = collector
        guard parser.parse() else { throw parser.parserError ?? CocoaError(.coderReadCorrupt) }
        return collector.parsed
    }

    @Test func aCampaignsJUnitDocumentParsesBackWithItsCounts() async throws {
        let server = try await onOwnThread { try TestServer() }
        let work = TemporaryDirectory("junit")
        defer { work.remove() }
        let lines = [
            Payloads.routed(image: server.url("/img/png")), Payloads.routed(image: server.url("/bad/webp")),
            #"{"aps":{"alert":"no image","mutable-content":1}}"#, "not json", Payloads.routed(image: server.url("/bad/webp")),
        ]
        try lines.joined(separator: "\n").write(toFile: work.file("c.jsonl"), atomically: true, encoding: .utf8)
        let result = try await tool([
            "process", "--ca-file", server.caFile, "--attachments", work.file("a"), "--format", "junit", work.file("c.jsonl"),
        ])
        #expect(result.status == 1, "the bad line: \(result.standardError)")
        let parsed = try Self.parse(result.standardOutput)
        #expect(parsed.suites.count == 2)
        for suite in parsed.suites {
            #expect(suite["tests"] == "5" && suite["failures"] == "2" && suite["errors"] == "1" && suite["skipped"] == "0", "\(suite)")
            #expect(Double(suite["time"] ?? "") != nil)
        }
        #expect(parsed.cases.map { $0["name"] } == (1...5).map { work.file("c.jsonl") + ":\($0)" })
        #expect(parsed.cases.map { $0["classname"] } == ["127.0.0.1", "127.0.0.1", "no-image", "no-image", "127.0.0.1"])
        #expect(parsed.failures.map { $0["type"] } == ["unsupported-type", "unsupported-type"])
        #expect(parsed.failures.allSatisfy { !($0["message"] ?? "").isEmpty })
        #expect(parsed.errors.map { $0["type"] } == ["invalid-payload"])

        // --fail-on decides instead: no-image fails, the broken image does not.
        let failOn = try await tool([
            "process", "--ca-file", server.caFile, "--attachments", work.file("a"), "--format", "junit", "--fail-on", "no-image",
            work.file("c.jsonl"),
        ])
        let second = try Self.parse(failOn.standardOutput)
        #expect(second.failures.map { $0["type"] } == ["no-image"])
    }
}
