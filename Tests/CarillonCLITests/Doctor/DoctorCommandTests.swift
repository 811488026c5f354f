import CarillonTestSupport
import Foundation
import Testing

@testable import CarillonCLI

/// `carillon-nse doctor` on the generated apps (TestAssets/Apps/make_apps.py): every fault of SPEC §11
/// found in every input form with its status and an actionable detail, the healthy app's three verdicts,
/// the document's shape, the text view, usage errors. In-process, so that 100 runs cost little; the
/// built tool's own runs (hostile archives, exit statuses, one stderr line) are DoctorEndToEndTests.
@Suite struct DoctorCommandTests {
    static let forms = ["ipa", "app", "xcarchive", "zip"]
    static let at = "2026-12-01T00:00:00Z"

    static func doctor(_ path: String, at instant: String = at) throws -> (status: Int32, document: [String: Any], error: String) {
        let run = CarillonToolTests.run(["doctor", "--at", instant, path])
        let document = (try? JSONSerialization.jsonObject(with: Data(run.output.utf8))) as? [String: Any] ?? [:]
        return (run.status, document, run.error)
    }

    static func findings(_ document: [String: Any]) -> [[String: String]] {
        (document["findings"] as? [[String: Any]] ?? []).map { $0.compactMapValues { $0 as? String } }
    }

    /// Each app's expected findings, in each form, with the exit status, and the same findings whatever
    /// the form (the details name bundles as the app does, never the input's paths).
    @Test(arguments: forms)
    func eachFaultIsFoundInEachForm(form: String) throws {
        let apps = try GeneratedApps.get()
        #expect(apps.apps.count >= 20)
        for app in apps.apps.values.sorted(by: { $0.name < $1.name }) {
            let path = try #require(app.forms[form])
            let (status, document, error) = try Self.doctor(path)
            #expect(status == app.exit, "\(app.name) (\(form)): exit \(status), stderr \(error)")
            let findings = Self.findings(document)
            let triples = Set(findings.map { [$0["check"] ?? "", $0["status"] ?? "", $0["target"] ?? ""] })
            for expected in app.expected {
                #expect(
                    triples.contains(expected),
                    "\(app.name) (\(form)): no \(expected) among \(triples.sorted { $0.description < $1.description })")
            }
            for finding in findings {
                #expect(finding["detail"]?.isEmpty == false && finding["source"]?.isEmpty == false, "\(app.name): \(finding)")
            }
            #expect(findings.contains { $0["status"] == "fail" } == (status == 2), "\(app.name) (\(form))")
            if form != "ipa" {
                let (_, ipa, _) = try Self.doctor(try #require(app.forms["ipa"]))
                #expect(findings == Self.findings(ipa), "\(app.name): the \(form) and the .ipa give different findings")
            }
        }
    }

    /// A ZIP64 archive (every size and offset in the extra fields, the end record through its locator;
    /// Python's zipfile reads and tests it) gives the same findings as the plain .ipa.
    @Test func aZIP64ArchiveGivesTheSameFindings() throws {
        let app = try GeneratedApps.get().app("healthy")
        let path = try #require(app.forms["zip64"])
        let tested = try Command.run(
            "/usr/bin/env", ["python3", "-c", "import sys, zipfile; z = zipfile.ZipFile(sys.argv[1]); assert z.testzip() is None", path])
        #expect(tested.status == 0, "\(tested.standardError)")
        let (status, zip64, error) = try Self.doctor(path)
        #expect(status == 0, "\(error)")
        let (_, ipa, _) = try Self.doctor(try #require(app.forms["ipa"]))
        #expect(!Self.findings(zip64).isEmpty && Self.findings(zip64) == Self.findings(ipa))
    }

    /// fastlane's real .ipa (Xcode 9: a binary Info.plist, a signed arm64 executable, a development
    /// profile): signed and provisioned, no service extension, its profile expired in 2019.
    @Test func aRealIPA() throws {
        let (status, document, error) = try Self.doctor(Paths.testAssets("Apps/Real/very-capable-app.ipa"))
        #expect(status == 2, "\(error)")
        let triples = Set(Self.findings(document).map { [$0["check"] ?? "", $0["status"] ?? "", $0["target"] ?? ""] })
        for expected in [
            ["signed", "pass", "org.fastlane.very-capable-app"], ["profile", "pass", "org.fastlane.very-capable-app"],
            ["profile-expiry", "fail", "org.fastlane.very-capable-app"], ["service-extension", "fail", "org.fastlane.very-capable-app"],
        ] {
            #expect(triples.contains(expected), "\(expected)")
        }
        let app = try #require((document["targets"] as? [[String: Any]])?.first)
        #expect(app["executable"] as? String == "very-capable-app" && app["minimum_os"] as? String == "11.2")
        #expect((app["profile"] as? [String: Any])?["expires"] as? String == "2019-04-07T01:27:21Z")
    }

    /// A fault's detail names both values where two disagree, so that a person can act on it.
    @Test(arguments: [
        ("app-group-differs", "app-group-info-plist", ["'group.com.example.carillon'", "'group.com.example.carillon.nse'"]),
        ("aps-environment-mismatch", "aps-environment", ["'development'", "'production'"]),
        ("bundle-id-not-prefixed", "bundle-id-prefix", ["'com.example.other.NotificationService'", "'com.example.carillon.'"]),
        ("extension-minimum-os-above", "minimum-os", ["'18.0'", "'15.0'"]),
        (
            "profile-wrong-app-id", "profile",
            ["'ABCDE12345.com.example.carillon.Other'", "'ABCDE12345.com.example.carillon.CarillonNotificationExtension'"]
        ),
        ("profile-expired", "profile-expiry", ["2026-01-01T00:00:00Z", "2026-12-01T00:00:00Z"]),
        ("ats-exception-only-in-app", "ats-exceptions", ["'images.example.com'"]),
        ("two-service-extensions", "service-extension", ["'PlugIns/NotificationService.appex'", "'PlugIns/SecondService.appex'"]),
        ("app-group-not-in-profile", "app-group-profiles", ["'group.com.example.other'", "'group.com.example.carillon'"]),
        ("app-group-only-in-extension", "app-group-info-plist", ["'group.com.example.carillon'", "the app's Info.plist"]),
        ("app-group-not-signed-in-app", "app-group-entitlements", ["'group.com.example.carillon'", "'group.com.example.other'"]),
        ("arbitrary-loads-only-in-app", "ats-exceptions", ["NSAllowsArbitraryLoads"]),
        ("ats-malformed", "ats-exceptions", ["the string 'YES'", "'Bad Domain:443'", "'SSLv3'"]),
        (
            "content-extension-hides-default-content", "content-extensions",
            ["'carillon-photo'", "UNNotificationExtensionDefaultContentHidden YES"]
        ),
    ])
    func aDisagreementNamesBothValues(app name: String, check: String, values: [String]) throws {
        let (_, document, _) = try Self.doctor(try #require(try GeneratedApps.get().app(name).forms["ipa"]))
        let finding = try #require(Self.findings(document).first { $0["check"] == check && $0["status"] != "pass" })
        for value in values { #expect(finding["detail"]?.contains(value) == true, "\(finding["detail"] ?? "")") }
    }

    /// A healthy app: no fail, no warn, and its three verdicts pass.
    @Test func aHealthyAppPassesWithItsThreeVerdicts() throws {
        let (status, document, _) = try Self.doctor(try #require(try GeneratedApps.get().app("healthy").forms["ipa"]))
        #expect(status == 0)
        #expect(!Self.findings(document).contains { $0["status"] == "fail" || $0["status"] == "warn" })
        let verdicts = try #require(document["verdicts"] as? [String: [String: Any]])
        for name in ["images", "receipts", "presentation"] { #expect(verdicts[name]?["status"] as? String == "pass", "\(name)") }
        let presentation = try #require(verdicts["presentation"])
        #expect(presentation["categories"] as? [String: Bool] == ["carillon-photo": false])
        let entitlements = try #require(presentation["entitlements"] as? [String: Any])
        #expect(entitlements["time-sensitive"] as? Bool == true && entitlements["critical-alerts"] as? Bool == false)
    }

    /// The document, key by key, as SPEC §11 shapes it; facts of the form (fat, DER entitlements, binary
    /// plists) are facts, never findings.
    @Test func theDocumentIsShapedAsTheSpecSays() throws {
        let (status, document, _) = try Self.doctor(try #require(try GeneratedApps.get().app("fat-der-encrypted").forms["ipa"]))
        #expect(status == 0)
        #expect(Set(document.keys) == ["input", "targets", "findings", "verdicts", "signatures_verified"])
        #expect(document["signatures_verified"] as? Bool == false)
        let targets = try #require(document["targets"] as? [[String: Any]])
        #expect(targets.map { $0["role"] as? String } == ["app", "content-extension", "service-extension"])
        let keys: Set = [
            "role", "path", "bundle_id", "version", "short_version", "executable", "minimum_os", "signed", "encrypted", "entitlements",
            "profile", "info",
        ]
        for target in targets { #expect(Set(target.keys) == keys) }
        let app = targets[0]
        #expect(app["path"] as? String == "Payload/Carillon.app" && app["encrypted"] as? Bool == true && app["signed"] as? Bool == true)
        #expect(app["version"] as? String == "42" && app["short_version"] as? String == "1.2.3" && app["minimum_os"] as? String == "15.0")
        let profile = try #require(app["profile"] as? [String: Any])
        #expect(Set(profile.keys) == ["team_id", "application_identifier", "expires", "aps_environment", "app_groups"])
        #expect(profile["team_id"] as? String == "ABCDE12345" && profile["expires"] as? String == "2027-06-01T00:00:00Z")
        #expect(profile["app_groups"] as? [String] == ["group.com.example.carillon"])
        // The service extension's entitlements came from the DER blob alone.
        let service = targets[2]
        let entitlements = try #require(service["entitlements"] as? [String: Any])
        #expect(entitlements["com.apple.security.application-groups"] as? [String] == ["group.com.example.carillon"])
        #expect((service["info"] as? [String: Any])?["CarillonAppGroup"] as? String == "group.com.example.carillon")
        let content = try #require(targets[1]["info"] as? [String: Any])
        #expect(content["UNNotificationExtensionCategory"] as? [String] == ["carillon-photo"])
        #expect(content["UNNotificationExtensionDefaultContentHidden"] as? Bool == false)
    }

    /// `--format text` is for a person, and says that Apple's signatures were not verified.
    @Test func theTextViewSaysSignaturesWereNotVerified() throws {
        let path = try #require(try GeneratedApps.get().app("app-group-differs").forms["xcarchive"])
        let run = CarillonToolTests.run(["doctor", "--format", "text", "--at", Self.at, path])
        #expect(run.status == 2)
        #expect(run.output.contains("Apple's signatures were not verified"))
        #expect(run.output.contains("fail   app-group-info-plist"))
        #expect(run.output.contains("receipts      fail"))
        #expect(run.output.hasPrefix("\(path): an .xcarchive holding Carillon.app"))
    }

    @Test(arguments: [
        ([] as [String], "no APP given"), (["a.ipa", "b.ipa"], "one APP at a time"), (["--at", "yesterday", "a.ipa"], "--at"),
        (["--format", "junit", "a.ipa"], "--format"),
    ])
    func usageErrorsAre64(arguments: [String], says: String) {
        let run = CarillonToolTests.run(["doctor"] + arguments)
        #expect(run.status == 64)
        #expect(run.error.contains(says), "\(run.error)")
    }

    /// Profiles judged at `--at`: the healthy app's expire in 2027-06.
    @Test func atJudgesTheProfiles() throws {
        let path = try #require(try GeneratedApps.get().app("healthy").forms["app"])
        let (status, document, _) = try Self.doctor(path, at: "2027-07-01T00:00:00Z")
        #expect(status == 2)
        #expect(Self.findings(document).filter { $0["check"] == "profile-expiry" && $0["status"] == "fail" }.count == 3)
    }
}
