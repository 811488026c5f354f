import Testing

@_spi(Tooling) @testable import CarillonExtensionCore

/// SPEC §11's checks as the pure functions they are, from tables of apps built in memory (no file read):
/// versions, the App Group hand-off in every combination, the profile's expiry at an instant, and the
/// verdicts each kind of finding leads to.
@Suite struct AppChecksTests {
    static func target(
        _ role: AppTarget.Role, _ id: String, group: String? = nil, groups: [String] = [], profileGroups: [String]? = nil,
        minimumOS: String = "15.0", aps: String? = nil, expires: String = "2027-01-01T00:00:00Z"
    ) -> AppTarget {
        var info: [(key: String, value: PropertyListValue)] = [
            ("CFBundleIdentifier", .string(id)), ("CFBundleExecutable", .string("E")), ("MinimumOSVersion", .string(minimumOS)),
        ]
        if let group { info.append(("CarillonAppGroup", .string(group))) }
        if role == .serviceExtension {
            info.append(
                (
                    "NSExtension",
                    .dictionary([
                        ("NSExtensionPointIdentifier", .string("com.apple.usernotifications.service")),
                        ("NSExtensionPrincipalClass", .string("S")),
                    ])
                ))
        }
        var entitlements: [(key: String, value: PropertyListValue)] = [
            ("com.apple.security.application-groups", .array(groups.map { .string($0) }))
        ]
        if let aps { entitlements.append(("aps-environment", .string(aps))) }
        var signature = CodeSignature()
        signature.hasCodeDirectory = true
        let slice = MachOSlice(
            cpuType: 0x0100_000C, is64Bit: true, isBigEndian: false, fileType: 2, offset: 0, signatureRange: 0..<1, codeSignature: signature
        )
        let profile = ProvisioningProfile(
            plist: .dictionary([
                ("TeamIdentifier", .array([.string("T")])), ("ExpirationDate", .date(Timestamp(iso8601: expires)!)),
                (
                    "Entitlements",
                    .dictionary(
                        [
                            ("application-identifier", .string("T.\(id)")),
                            ("com.apple.security.application-groups", .array((profileGroups ?? groups).map { .string($0) })),
                        ]
                            + (aps.map { [("aps-environment", .string($0))] } ?? []))
                ),
            ]))
        return AppTarget(
            role: role, path: id, info: .dictionary(info), binary: MachOFile(slices: [slice], isFat: false),
            entitlements: .dictionary(entitlements),
            entitlementsForm: .xml, profile: profile)
    }

    static func bundle(app: AppTarget, _ extensions: AppTarget...) -> AppBundle {
        AppBundle(input: "x.ipa", form: .ipa, targets: [app] + extensions)
    }

    static let now = Timestamp(iso8601: "2026-12-01T00:00:00Z")!

    static func statuses(_ findings: [AppFinding], _ rule: AppRule) -> [AppFinding.Status] {
        findings.filter { $0.check == rule.rawValue }.map(\.status)
    }

    @Test(arguments: [
        ("15.0", "15", false), ("15.1", "15.0.9", true), ("16", "15.9", true), ("15.0.1", "15.0", true), ("9.3", "10.0", false),
    ])
    func versionsCompareAsNumbers(a: String, b: String, above: Bool) throws {
        #expect(AppTarget.isVersion(try #require(AppTarget.versionNumbers(a)), above: try #require(AppTarget.versionNumbers(b))) == above)
    }

    @Test(arguments: [nil, "", "15.x", "1..2"] as [String?])
    func aVersionThatIsNotOneIsUnknown(text: String?) {
        #expect(AppTarget.versionNumbers(text) == nil)
    }

    /// The hand-off: each combination of the two Info.plists' CarillonAppGroup.
    @Test(
        arguments: [
            ("g", "g", AppFinding.Status.pass), (nil, nil, .warn), ("g", nil, .fail), (nil, "g", .fail), ("g", "h", .fail),
        ] as [(String?, String?, AppFinding.Status)])
    func theAppGroupInTheInfoPlists(app: String?, service: String?, expected: AppFinding.Status) {
        let findings = AppChecks.appGroupInfo(
            Self.bundle(app: Self.target(.app, "a", group: app), Self.target(.serviceExtension, "a.s", group: service)))
        #expect(findings.map(\.status) == [expected])
        if expected == .fail { #expect(findings[0].detail.contains("'\(app ?? service ?? "")'")) }
    }

    @Test(arguments: [
        (["g"], ["g"], nil as [String]?, [AppFinding.Status.pass, .pass], [AppFinding.Status.pass, .pass]),
        ([], ["g"], nil, [.fail, .pass], [.fail, .pass]),
        (["g"], ["g"], ["other"], [.pass, .pass], [.fail, .fail]),
    ])
    func theAppGroupInEntitlementsAndProfiles(
        appGroups: [String], serviceGroups: [String], profileGroups: [String]?, entitlements: [AppFinding.Status],
        profiles: [AppFinding.Status]
    ) {
        let bundle = Self.bundle(
            app: Self.target(.app, "a", group: "g", groups: appGroups, profileGroups: profileGroups),
            Self.target(.serviceExtension, "a.s", group: "g", groups: serviceGroups, profileGroups: profileGroups))
        #expect(AppChecks.appGroupEntitlements(bundle).map(\.status) == entitlements)
        #expect(AppChecks.appGroupProfiles(bundle).map(\.status) == profiles)
    }

    @Test func aHealthyBundleHasNoFailAndNoWarn() {
        let bundle = Self.bundle(
            app: Self.target(.app, "a", group: "g", groups: ["g"], aps: "production"),
            Self.target(.serviceExtension, "a.s", group: "g", groups: ["g"]))
        let findings = AppChecks.run(bundle, at: Self.now)
        #expect(!findings.contains { $0.status == .fail || $0.status == .warn }, "\(findings.filter { $0.status != .pass })")
        let verdicts = AppVerdicts(findings, bundle)
        #expect([verdicts.images.status, verdicts.receipts.status, verdicts.presentation.status] == [.pass, .pass, .pass])
    }

    @Test(arguments: [
        ("2026-12-01T00:00:01Z", AppFinding.Status.pass), ("2026-12-01T00:00:00Z", .fail), ("2020-01-01T00:00:00Z", .fail),
    ])
    func aProfileExpiresAtItsInstant(expires: String, expected: AppFinding.Status) {
        let bundle = Self.bundle(app: Self.target(.app, "a", expires: expires))
        #expect(Self.statuses(AppChecks.profileExpiry(bundle, at: Self.now), .profileExpiry) == [expected])
    }

    @Test(arguments: [("15.0", AppFinding.Status.pass), ("14.0", .pass), ("15.1", .fail), ("x", .unknown)])
    func theExtensionsMinimumOS(service: String, expected: AppFinding.Status) {
        let bundle = Self.bundle(app: Self.target(.app, "a"), Self.target(.serviceExtension, "a.s", minimumOS: service))
        #expect(AppChecks.minimumOS(bundle).map(\.status) == [expected])
    }

    /// What each failing rule makes of the three verdicts.
    @Test(arguments: [
        (AppRule.signed, AppFinding.Status.fail, ["fail", "fail", "pass"]), (.appGroupProfiles, .fail, ["pass", "fail", "pass"]),
        (.appGroupInfo, .warn, ["pass", "warn", "pass"]), (.transportSecurity, .warn, ["warn", "pass", "pass"]),
        (.contentExtensions, .warn, ["pass", "pass", "warn"]), (.minimumOS, .unknown, ["pass", "pass", "pass"]),
    ])
    func eachFindingLeadsToItsVerdicts(rule: AppRule, status: AppFinding.Status, expected: [String]) {
        let bundle = Self.bundle(app: Self.target(.app, "a", group: "g"), Self.target(.serviceExtension, "a.s", group: "g"))
        let verdicts = AppVerdicts([AppFinding(rule, status, target: "a.s", "why")], bundle)
        #expect([verdicts.images.status, verdicts.receipts.status, verdicts.presentation.status].map(\.rawValue) == expected)
    }

    @Test func everyRuleHasASource() {
        for rule in AppRule.allCases { #expect(rule.source.contains("Apple") || rule.source.contains("Carillon SDK README"), "\(rule)") }
    }
}
