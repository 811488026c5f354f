@_spi(Tooling) import CarillonExtensionCore
import CarillonFuzzChecks
import CarillonTestSupport
import Foundation
import Testing

/// The one reader of the API's answers: the documented shapes, and what is wrong with the others.
@Suite struct APIAnswerReaderTests {
    static let delivery =
        #"{"id":"d1","device_id":null,"status":"sent","error_code":null,"opened_at":"2026-08-20T09:16:44.120Z","received_at":null,"received_reported_at":null}"#
    static func message(
        deliveries: String = "[\(delivery)]", platforms: String = #"{"ios":{"sent":1,"failed":0,"pending":0,"opened":1,"total":1}}"#
    )
        -> String
    {
        #"{"id":"m","outcomes":{"opened":1},"platforms":\#(platforms),"deliveries":\#(deliveries),"extra":[1,2]}"#
    }

    @Test func theDocumentedMessageIsRead() throws {
        let read = try APIAnswerReader.message(Array(Self.message().utf8))
        #expect(read.id == "m" && read.opened == 1 && read.deliveries.count == 1)
        #expect(read.platforms.map(\.name) == ["ios"])
        #expect(read.deliveries[0].openedAt == Timestamp(iso8601: "2026-08-20T09:16:44.120Z"))
        #expect(read.deliveries[0].receivedAt == nil)
    }

    @Test(arguments: [
        ("", "not JSON"),
        ("[]", "not a JSON object"),
        (#"{"id":"m"}"#, "outcomes is not an object"),
        (message(deliveries: "{}"), "deliveries is not an array"),
        (message(deliveries: #"[{"id":"d1"}]"#), "deliveries[0].device_id is missing"),
        (
            message(deliveries: "[" + delivery.replacing(#""opened_at":"2026"#, with: #""opened_at":"x2026"#) + "]"),
            "deliveries[0].opened_at is not a timestamp"
        ),
        (message(platforms: #"{"ios":{"sent":-1}}"#), "platforms.ios.sent is not a count"),
        (message(platforms: #"{"android":[]}"#), "platforms.android is not an object"),
    ])
    func wrongShapesAreNamed(text: String, problem: String) {
        #expect(throws: APIAnswerReader.Problem.self) { try APIAnswerReader.message(Array(text.utf8)) }
        do {
            _ = try APIAnswerReader.message(Array(text.utf8))
        } catch {
            #expect(error.message.hasPrefix(problem), "\(error.message)")
        }
    }

    @Test func opensAreHoursInOrder() throws {
        let hours = try APIAnswerReader.opens(Array(#"{"hours":[{"hour":"2026-08-20T09:00:00.000Z","opened":12}]}"#.utf8))
        #expect(hours == [HourlyOpens(hour: Timestamp(iso8601: "2026-08-20T09:00:00.000Z")!, opened: 12)])
        #expect(try APIAnswerReader.opens(Array(#"{"hours":[]}"#.utf8)).isEmpty)
        #expect(throws: APIAnswerReader.Problem.self) { try APIAnswerReader.opens(Array(#"{"hours":[{"hour":null,"opened":1}]}"#.utf8)) }
        #expect(APIAnswerReader.errorMessage(Array(#"{"error":"no"}"#.utf8)) == "no")
    }
}

/// The fuzz target's checks hold on its seeds (`TestAssets/Fuzz/Corpus/FuzzAPIAnswers`).
@Suite struct APIAnswersFuzzSeedTests {
    @Test func theSeedsPassTheFuzzChecks() throws {
        let folder = Paths.testAssets("Fuzz/Corpus/FuzzAPIAnswers")
        let names = try FileManager.default.contentsOfDirectory(atPath: folder).filter { !$0.hasPrefix(".") }
        #expect(names.count >= 4)
        for name in names {
            let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: folder + "/" + name)))
            #expect(throws: Never.self, "\(name)") { try FuzzChecks.apiAnswers(bytes) }
        }
        #expect(throws: Never.self) { try FuzzChecks.apiAnswers(Array("{\"deliveries\":[".utf8)) }
    }
}
