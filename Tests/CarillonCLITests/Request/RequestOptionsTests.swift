import Testing

@testable import CarillonCLI
@_spi(Tooling) @testable import CarillonExtensionCore

/// What the request options read (SPEC §12): `--fail-on`'s two request conditions beside reason codes,
/// `--content-categories`, `--previews`, and the tally the summary says.
@Suite struct RequestOptionsTests {
    static let failOnCases: [(text: String, conditions: [String], reasons: Int)] = [
        ("apns-refused", ["apns-refused"], 0), ("not-shown,timeout", ["not-shown"], 1),
        ("fallback, apns-refused, not-shown", ["apns-refused", "not-shown"], Reason.allCases.count - 1),
    ]

    @Test(arguments: failOnCases)
    func failOnTakesRequestConditionsBesideReasons(text: String, names: [String], reasons: Int) throws {
        let conditions = Set(names.compactMap(FailOn.RequestCondition.init(rawValue:)))
        let failOn = try FailOn.parse(text)
        #expect(failOn.requestConditions == conditions)
        #expect(failOn.reasons.count == reasons)
        #expect(failOn.matches(conditions) == !conditions.isEmpty)
        #expect(!failOn.matches([]))
    }

    @Test func contentCategoriesSayWhichHideTheirDefaultContent() throws {
        #expect(try RequestOptions.categories("MEETING, STORY:hidden") == ["MEETING": false, "STORY": true])
        #expect(throws: UsageError.self) { try RequestOptions.categories("A,,B") }
        #expect(throws: UsageError.self) { try RequestOptions.categories(":hidden") }
    }

    @Test func previewsUnknownStatesNothing() {
        #expect(RequestOptions.Previews.unknown.setting == nil)
        #expect(RequestOptions.Previews.allCases.compactMap(\.setting) == ShowPreviews.allCases)
    }

    @Test func theTallyCountsWhatTheSummarySays() throws {
        var tally = RequestTally()
        #expect(tally.summaryClause == "", "nothing said without requests")
        func request(_ collapse: String) throws -> APNsRequest {
            try APNsRequestText.read(
                Array(
                    "POST /3/device/ab\nhost: api.push.apple.com\napns-push-type: alert\napns-collapse-id: \(collapse)\n\n{\"aps\":{\"alert\":\"x\",\"mutable-content\":1}}"
                        .utf8))
        }
        let refused = try request(String(repeating: "c", count: 65))
        let payload = try JSONParser.parse(refused.body)
        tally.add(RequestTally.Record(RequestJudgement.judge(refused, payload: payload, attached: true)))
        tally.add(RequestTally.Record(RequestJudgement.judge(try request("c"), payload: payload, attached: true, previews: .never)))
        tally.add(nil)
        #expect(tally.requests == 2 && tally.plainPayloads == 1)
        #expect(tally.conditions == [.apnsRefused, .notShown])
        #expect(
            tally.summaryClause
                == "; 2 requests: 1 refused (1 BadCollapseId), 1 without the extension, 1 with the image not shown somewhere")
    }
}
