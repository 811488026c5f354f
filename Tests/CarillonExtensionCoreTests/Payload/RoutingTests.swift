import Testing

@_spi(Tooling) @testable import CarillonExtensionCore

@Suite struct RoutingTests {
    private func decide(_ json: String) throws -> Outcome? {
        Routing.decide(try JSONParser.parse(Array(json.utf8)))
    }

    @Test(arguments: [
        #"{"aps":{"mutable-content":1,"alert":"Hello"}}"#,
        #"{"aps":{"mutable-content":1,"alert":{"title":"T"}}}"#,
        #"{"aps":{"mutable-content":1,"alert":{"subtitle":"S"}}}"#,
        #"{"aps":{"mutable-content":1,"alert":{"body":"B"}}}"#,
        #"{"aps":{"mutable-content":1,"alert":{"title-loc-key":"K"}}}"#,
        #"{"aps":{"mutable-content":1,"alert":{"loc-key":"K"}}}"#,
        #"{"aps":{"mutable-content":1.0,"alert":"numerically one"}}"#,
        #"{"aps":{"mutable-content":1,"alert":"x","sound":"default","badge":3}}"#,
    ])
    func routesDisplayableMutablePayloads(json: String) throws {
        #expect(try decide(json) == nil)
    }

    @Test(arguments: [
        (#"{}"#, Reason.notMutable, "no 'aps' key"),
        (#"{"aps":"x"}"#, .notMutable, "'aps' is string, not an object"),
        (#"{"aps":[1]}"#, .notMutable, "'aps' is array, not an object"),
        (#"{"aps":{"alert":"x"}}"#, .notMutable, "aps.mutable-content is absent"),
        (#"{"aps":{"mutable-content":"1","alert":"x"}}"#, .notMutable, #"is the string "1", not the number 1"#),
        (#"{"aps":{"mutable-content":true,"alert":"x"}}"#, .notMutable, "is the boolean true"),
        (#"{"aps":{"mutable-content":0,"alert":"x"}}"#, .notMutable, "is 0, not 1"),
        (#"{"aps":{"mutable-content":2,"alert":"x"}}"#, .notMutable, "is 2, not 1"),
        (#"{"aps":{"mutable-content":null,"alert":"x"}}"#, .notMutable, "is null"),
        (#"{"aps":{"mutable-content":1}}"#, .noAlert, "aps.alert is absent"),
        (#"{"aps":{"mutable-content":1,"sound":"default"}}"#, .noAlert, "silent push"),
        (#"{"aps":{"mutable-content":1,"badge":1}}"#, .noAlert, "aps.alert is absent"),
        (#"{"aps":{"mutable-content":1,"content-available":1}}"#, .noAlert, "aps.alert is absent"),
        (#"{"aps":{"mutable-content":1,"alert":""}}"#, .noAlert, "empty string"),
        (#"{"aps":{"mutable-content":1,"alert":{}}}"#, .noAlert, "has none of"),
        (#"{"aps":{"mutable-content":1,"alert":{"title":""}}}"#, .noAlert, "has none of"),
        (#"{"aps":{"mutable-content":1,"alert":{"title":5,"launch-image":"x"}}}"#, .noAlert, "has none of"),
        (#"{"aps":{"mutable-content":1,"alert":7}}"#, .noAlert, "aps.alert is number"),
    ])
    func refusesWithTheFirstFailingRule(json: String, reason: Reason, detail: String) throws {
        let outcome = try #require(try decide(json))
        #expect(outcome.reason == reason)
        #expect(outcome.detail.contains(detail), "\(outcome.detail)")
    }
}
