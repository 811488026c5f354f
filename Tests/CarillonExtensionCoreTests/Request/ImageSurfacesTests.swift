import Testing

@_spi(Tooling) @testable import CarillonExtensionCore

/// Where an attached image shows (SPEC §12): each surface from a table of interruption levels,
/// content-extension categories and previews settings.
@Suite struct ImageSurfacesTests {
    static func surfaces(_ aps: String, facts: PresentationFacts = .unknown, previews: ShowPreviews? = nil) throws -> [String] {
        let shown = ImageSurfaces.judge(
            payload: try JSONParser.parse(Array(#"{"aps":\#(aps)}"#.utf8)), facts: facts, previews: previews)
        return ImageSurfaces.Surface.allCases.map { shown[$0].value.rawValue }
    }

    static let categories = PresentationFacts(contentExtensionCategories: ["MEETING": false, "STORY": true])

    @Test(arguments: [
        (#"{"alert":"x"}"#, nil as ShowPreviews?, ["shown", "shown", "shown", "unknown"]),
        (#"{"alert":"x"}"#, .always, ["shown", "shown", "shown", "shown"]),
        (#"{"alert":"x"}"#, .whenUnlocked, ["shown", "shown", "shown", "not-shown"]),
        (#"{"alert":"x"}"#, .never, ["not-shown", "unknown", "not-shown", "not-shown"]),
        (#"{"alert":"x","interruption-level":"passive"}"#, .always, ["not-shown", "shown", "shown", "shown"]),
        (#"{"alert":"x","interruption-level":"time-sensitive"}"#, .always, ["shown", "shown", "shown", "shown"]),
        (#"{"alert":"x","category":"MEETING"}"#, .always, ["expanded-only", "shown", "expanded-only", "expanded-only"]),
        (#"{"alert":"x","category":"STORY"}"#, .always, ["not-shown", "unknown", "not-shown", "not-shown"]),
        (#"{"alert":"x","category":"OTHER"}"#, .always, ["shown", "shown", "shown", "shown"]),
        (#"{"alert":"x","category":"MEETING","interruption-level":"passive"}"#, nil, ["not-shown", "shown", "expanded-only", "unknown"]),
    ])
    func theTable(aps: String, previews: ShowPreviews?, values: [String]) throws {
        #expect(try Self.surfaces(aps, facts: Self.categories, previews: previews) == values)
    }

    @Test func everyPlacementNamesItsRuleAndSource() throws {
        let shown = ImageSurfaces.judge(
            payload: try JSONParser.parse(Array(#"{"aps":{"alert":"x","category":"STORY"}}"#.utf8)), facts: Self.categories)
        for surface in ImageSurfaces.Surface.allCases {
            #expect(!shown[surface].why.isEmpty)
            #expect(RequestRules.all.contains(shown[surface].rule))
        }
        #expect(shown.anyNotShown)
    }

    @Test(arguments: [
        (
            #"{"alert":"x","interruption-level":"time-sensitive"}"#, PresentationFacts(timeSensitiveEntitlement: false),
            "treats it as active"
        ),
        (#"{"alert":"x","interruption-level":"critical"}"#, PresentationFacts(criticalAlertsEntitlement: false), "treats it as active"),
        (#"{"alert":"x","interruption-level":"urgent"}"#, PresentationFacts.unknown, "not passive, active"),
        (#"{"alert":"x","relevance-score":1.5}"#, PresentationFacts.unknown, "from 0 to 1"),
        (#"{"alert":"x","relevance-score":"high"}"#, PresentationFacts.unknown, "from 0 to 1"),
    ])
    func presentationWarnings(aps: String, facts: PresentationFacts, warning: String) throws {
        let shown = ImageSurfaces.judge(payload: try JSONParser.parse(Array(#"{"aps":\#(aps)}"#.utf8)), facts: facts)
        #expect(shown.warnings.contains { $0.contains(warning) }, "\(shown.warnings)")
    }

    @Test(arguments: [
        #"{"alert":"x","relevance-score":0}"#, #"{"alert":"x","relevance-score":1}"#,
        #"{"alert":"x","interruption-level":"time-sensitive"}"#,
    ])
    func noWarningWithinTheRules(aps: String) throws {
        #expect(ImageSurfaces.judge(payload: try JSONParser.parse(Array(#"{"aps":\#(aps)}"#.utf8))).warnings.isEmpty)
    }
}
