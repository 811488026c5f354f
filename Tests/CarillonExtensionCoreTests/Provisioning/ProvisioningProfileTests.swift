import CarillonTestSupport
import Foundation
import Testing

@_spi(Tooling) @testable import CarillonExtensionCore

/// Provisioning profiles: the CMS envelope's content as `openssl cms -verify -noverify` extracts it, for a
/// real profile (DER) and generated ones (DER and BER with indefinite lengths); the fields the checks read;
/// wildcard application identifiers from a table; DER entitlements from CoreEntitlements' encoding; and
/// envelopes cut or damaged anywhere refused with a sentence.
@Suite struct ProvisioningProfileTests {
    static func opensslContent(_ path: String, _ work: TemporaryDirectory) throws -> [UInt8] {
        let out = work.file("content-\(UUID().uuidString)")
        let result = try Command.run("/usr/bin/openssl", ["cms", "-verify", "-noverify", "-inform", "DER", "-in", path, "-out", out])
        #expect(result.status == 0, "\(result.standardError)")
        return [UInt8](try Data(contentsOf: URL(fileURLWithPath: out)))
    }

    static func profiles() throws -> [String] {
        let healthy = try #require(try GeneratedApps.get().app("healthy").forms["app"])
        return [
            Paths.testAssets("Apps/Real/provisioning-profile.mobileprovision"), healthy + "/embedded.mobileprovision",
            healthy + "/PlugIns/NotificationService.appex/embedded.mobileprovision",
        ]
    }

    @Test func theContentIsWhatOpenSSLExtracts() throws {
        let work = TemporaryDirectory("cms")
        defer { work.remove() }
        for path in try Self.profiles() {
            let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
            #expect(try CMSSignedData.content(of: bytes, limit: 1 << 20) == (try Self.opensslContent(path, work)), "\(path)")
        }
        // The extension's was made with -stream: BER, indefinite lengths and a content cut into pieces.
        let ber = [UInt8](try Data(contentsOf: URL(fileURLWithPath: try Self.profiles()[2])))
        #expect(ber[1] == 0x80)
    }

    @Test func readsTheRealProfile() throws {
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: Paths.testAssets("Apps/Real/provisioning-profile.mobileprovision"))))
        let profile = try ProvisioningProfile(bytes)
        #expect(profile.name == "PROTOTYPE Dev" && profile.teamIdentifier == "L8E635P37H")
        #expect(profile.applicationIdentifierPrefix == "CARTQD8624")
        #expect(profile.applicationIdentifier == "CARTQD8624.com.cobrasoftonline.games.prototype")
        #expect(profile.expirationDate == Timestamp(iso8601: "2021-04-26T16:33:32Z"))
    }

    @Test(arguments: [
        ("TEAM.com.example.app", "TEAM.com.example.app", true), ("TEAM.com.example.app", "TEAM.com.example.app.nse", false),
        ("TEAM.*", "TEAM.com.example.app", true), ("TEAM.com.example.*", "TEAM.com.example.app.nse", true),
        ("TEAM.com.example.*", "TEAM.com.other.app", false), ("OTHER.*", "TEAM.com.example.app", false),
    ])
    func wildcardApplicationIdentifiers(pattern: String, identifier: String, covers: Bool) {
        #expect(ProvisioningProfile.covers(pattern, identifier) == covers)
    }

    /// CoreEntitlements' DER: the empty dictionary and `{"key": false}` as rcodesign's tests (apple-codesign,
    /// entitlements.rs) write them, and a nested one as make_apps.py writes it.
    @Test(arguments: [
        ([0x70, 5, 2, 1, 1, 0xB0, 0] as [UInt8], PropertyListValue.dictionary([])),
        ([0x70, 15, 2, 1, 1, 0xB0, 10, 0x30, 8, 0x0C, 3, 0x6B, 0x65, 0x79, 0x01, 1, 0x00], .dictionary([("key", .bool(false))])),
        (
            [
                0x70, 0x14, 0x02, 0x01, 0x01, 0xB0, 0x0F, 0x30, 0x0D, 0x0C, 0x01, 0x61, 0x30, 0x08, 0x0C, 0x01, 0x62, 0x02, 0x01, 0xFF,
                0xB0, 0x00,
            ],
            .dictionary([("a", .array([.string("b"), .integer(-1), .dictionary([])]))])
        ),
    ])
    func decodesDEREntitlements(bytes: [UInt8], expected: PropertyListValue) throws {
        #expect(try DEREntitlements.decode(bytes) == expected)
        #expect(throws: BERError.self) { _ = try DEREntitlements.decode(Array(bytes.dropLast())) }
        #expect(throws: BERError.self) { _ = try DEREntitlements.decode(bytes + [0]) }
    }

    /// The generated DER-only entitlements read equal to the XML the same signature would carry.
    @Test func derAndXMLEntitlementsAgree() throws {
        let app = try #require(try GeneratedApps.get().app("fat-der-encrypted").forms["app"])
        let nse = [UInt8](try Data(contentsOf: URL(fileURLWithPath: app + "/PlugIns/NotificationService.appex/NotificationService")))
        let signature = try #require(try MachOFile.read(nse).slices[0].codeSignature)
        #expect(signature.entitlements == nil)
        let entitlements = try DEREntitlements.decode(try #require(signature.derEntitlements))
        #expect(entitlements["com.apple.security.application-groups"]?.strings == ["group.com.example.carillon"])
        #expect(entitlements["application-identifier"]?.string == "ABCDE12345.com.example.carillon.CarillonNotificationExtension")
    }

    /// Every cut of a real envelope, and random damage to it, is a sentence, never a trap.
    @Test func brokenEnvelopesAreRefused() throws {
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: try Self.profiles()[2])))
        for cut in stride(from: 0, to: bytes.count - 1, by: 7) {
            #expect(throws: ProvisioningError.self) { _ = try ProvisioningProfile(Array(bytes[..<cut])) }
        }
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<300 {
            var copy = bytes
            copy[Int.random(in: 0..<min(copy.count, 200), using: &generator)] = UInt8.random(in: 0...255, using: &generator)
            do { _ = try ProvisioningProfile(copy) } catch { #expect(!error.message.isEmpty) }
        }
    }
}
