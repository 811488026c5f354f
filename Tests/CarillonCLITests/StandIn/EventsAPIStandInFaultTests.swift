import CarillonTestSupport
import Foundation
import Testing

/// The stand-in's scripted answers to reads (`POST /_faults/get`) and its clock, as the read-back
/// client's tests use them: each fault is played once, in order, and the API answers normally after.
@Suite(.timeLimit(.minutes(2))) struct EventsAPIStandInFaultTests {
    typealias C = StandInCampaign
    static let path = "/v1/messages/\(C.message)"

    @Test func fiveHundredsAndFourTwentyNinesCarryRetryAfterInEitherFormThenTheAnswerComes() throws {
        let server = try C.server()
        try server.scriptReads([
            ["status": 429, "retry_after": "2"], ["status": 503, "retry_after": "Thu, 20 Aug 2026 12:10:05 GMT"], ["status": 500],
        ])
        let answers = try (0..<4).map { _ in try server.get(Self.path, key: C.secretA) }
        #expect(answers.map(\.status) == [429, 503, 500, 200])
        #expect(answers.map(\.retryAfter) == ["2", "Thu, 20 Aug 2026 12:10:05 GMT", nil, nil])
        #expect(answers[3].json["id"] as? String == C.message)
        #expect(try server.stats()["get_faults_left"] as? Int == 0)
    }

    @Test func aFaultIsPlayedBeforeTheKeyIsChecked() throws {
        let server = try C.server()
        try server.scriptReads([["status": 503, "retry_after": "1"]])
        #expect(try server.get(Self.path + "/opens", key: C.mobileA).status == 503)
        #expect(try server.get(Self.path + "/opens", key: C.mobileA).status == 403)
    }

    @Test func aStalledAnswerSaysNothingUntilTheClientGivesUp() throws {
        let server = try C.server()
        try server.scriptReads([["stall": 5]])
        let started = Date()
        let answer = try server.get(Self.path, key: C.secretA, maxTime: 1)
        #expect(answer.curlStatus == 28 && answer.status == 0 && answer.size == 0, "curl's --max-time ran out")
        #expect(Date().timeIntervalSince(started) < 4)
    }

    @Test func malformedAndWronglyShapedAnswersAreSentAsScripted() throws {
        let server = try C.server()
        try server.scriptReads([
            ["raw_body": #"{"id":"msg_a","outcomes":"#, "content_type": "application/json"],
            ["json": ["id": C.message, "outcomes": ["opened": "many"], "platforms": [], "deliveries": [:]]],
            ["json": ["hours": [["hour": 9, "opened": -1]]]],
        ])
        let malformed = try server.get(Self.path, key: C.secretA)
        #expect(malformed.status == 200 && malformed.body == #"{"id":"msg_a","outcomes":"#)
        let shaped = try server.get(Self.path, key: C.secretA)
        #expect(shaped.status == 200 && (shaped.json["outcomes"] as? [String: String]) == ["opened": "many"])
        let hours = try server.get(Self.path + "/opens", key: C.secretA).json["hours"] as? [[String: Int]]
        #expect(hours == [["hour": 9, "opened": -1]])
    }

    @Test(arguments: [false, true])
    func aFiftyMegabyteAnswerArrivesWholeWithOrWithoutALength(noLength: Bool) throws {
        let server = try C.server()
        try server.scriptReads([["huge": 52_428_800, "no_length": noLength]])
        let answer = try server.get(Self.path, key: C.secretA, maxTime: 30, limit: 16)
        #expect(answer.status == 200 && answer.size == 52_428_800)
        #expect(answer.body == #"{"id":"xxxxxxxxx"#)
        #expect(try server.get(Self.path, key: C.secretA).status == 200, "the next answer is the API's")
    }

    @Test func theClockIsTheOneStartedWithUntilATestMovesIt() throws {
        let server = try C.server()
        #expect(try server.stats()["now"] as? String == C.now)
        try server.setClock("2026-09-25T00:00:00.000Z")
        try C.post(server, [C.event("opened", 1, at: "2026-08-20T10:00:00.000Z")])
        #expect(C.sampled(try C.read(server), 1)?["opened_at"] as? String == "2026-09-25T00:00:00.000Z", "over 30 days old by then")
        try server.setClock(nil)
        let real = try server.stats()["now"] as? String ?? ""
        #expect(real.hasPrefix(String(ISO8601DateFormatter().string(from: Date()).prefix(10))), "\(real)")
    }
}
