import CarillonTestSupport
import Foundation
import Testing

/// The built tool on hostile and broken inputs: each is exit 1 with exactly one line on standard error
/// naming the file and the member at fault, promptly, and nothing written anywhere.
@Suite(.timeLimit(.minutes(2))) struct DoctorEndToEndTests {
    @Test(arguments: [
        ("traversal", "member 'Payload/Carillon.app/../../../../tmp/carillon-evil': a name that climbs out of the archive ('..')"),
        ("absolute", "member '/etc/carillon-evil': an absolute name"),
        ("bomb", "member 'Payload/Carillon.app/PkgInfo':"),
        ("overlap", "overlaps the bytes of"),
        ("truncated", "no end of central directory record"),
        ("deep-plist", "member 'Payload/Carillon.app/Info.plist': XML property list, line 1: nested deeper than 64 levels"),
        ("plist-cycle", "member 'Payload/Carillon.app/Info.plist': binary property list: object 0 at 8 contains itself (a cycle)"),
        ("lying-load-command", "member 'Payload/Carillon.app/Carillon': load command 1 (0x1d) says 65536 bytes"),
        ("lying-signature", "member 'Payload/Carillon.app/Carillon': LC_CODE_SIGNATURE says"),
    ])
    func aHostileArchiveIsOneLineNamingTheMember(name: String, says: String) async throws {
        let path = try #require(try GeneratedApps.get().hostile[name])
        let started = ContinuousClock.now
        let result = try await tool(["doctor", path])
        #expect(ContinuousClock.now - started < .seconds(10))
        #expect(result.status == 1, "\(result.standardError)")
        #expect(result.standardOutput.isEmpty)
        let lines = result.standardError.split(separator: "\n")
        #expect(lines.count == 1, "\(result.standardError)")
        #expect(result.standardError.hasPrefix("carillon-nse doctor: \(path): "))
        #expect(result.standardError.contains(says), "\(result.standardError)")
    }

    /// A traversal name is refused before anything is read or written: no file appears where it points.
    @Test func aTraversalNameWritesNothing() async throws {
        let path = try #require(try GeneratedApps.get().hostile["traversal"])
        _ = try await tool(["doctor", path])
        #expect(!FileManager.default.fileExists(atPath: "/tmp/carillon-evil"))
    }

    @Test(arguments: [
        ("not-a-zip", "not a zip archive, or truncated"), ("empty-directory", "not an app: no Payload/*.app"),
        ("missing", "cannot be read"),
    ])
    func whatIsNotAnAppIsExitOne(kind: String, says: String) async throws {
        let work = TemporaryDirectory("doctor-not-app")
        defer { work.remove() }
        let path: String
        switch kind {
        case "not-a-zip": path = try work.write("Carillon.ipa", String(repeating: "not a zip ", count: 20))
        case "empty-directory":
            path = work.file("Empty.xcarchive")
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        default: path = work.file("missing.ipa")
        }
        let result = try await tool(["doctor", path])
        #expect(result.status == 1)
        #expect(result.standardError.split(separator: "\n").count == 1 && result.standardError.contains(says), "\(result.standardError)")
    }

    /// A member the checks read that is a symbolic link inside a `.app` is said to be one, never followed
    /// (before, a linked Info.plist was "missing: not an app bundle").
    @Test(arguments: ["Info.plist", "Carillon", "embedded.mobileprovision", "PlugIns/NotificationService.appex/Info.plist"])
    func aSymbolicLinkInsideTheAppIsSaidToBeOne(member: String) async throws {
        let healthy = try #require(try GeneratedApps.get().app("healthy").forms["app"])
        let work = TemporaryDirectory("doctor-link")
        defer { work.remove() }
        let app = work.file("Carillon.app")
        try FileManager.default.copyItem(atPath: healthy, toPath: app)
        try FileManager.default.removeItem(atPath: app + "/" + member)
        try FileManager.default.createSymbolicLink(atPath: app + "/" + member, withDestinationPath: healthy + "/" + member)
        let result = try await tool(["doctor", app])
        #expect(result.status == 1, "\(result.standardError)")
        #expect(
            result.standardError
                == "carillon-nse doctor: \(app): member '\(member)': a symbolic link, which is never followed: read the app with its real"
                + " files in place\n")
    }

    /// A directory named with a trailing slash, as a shell's completion writes it, is the same app.
    @Test func aTrailingSlashNamesTheSameApp() async throws {
        let app = try #require(try GeneratedApps.get().app("healthy").forms["app"])
        let result = try await tool(["doctor", app + "/"])
        #expect(result.status == 0, "\(result.standardError)")
    }

    @Test func aFailIsExitTwoAndAHealthyAppExitZero() async throws {
        let apps = try GeneratedApps.get()
        let healthy = try await tool(["doctor", try #require(try apps.app("healthy").forms["ipa"])])
        #expect(healthy.status == 0 && healthy.standardError.isEmpty)
        let fault = try await tool(["doctor", "--format", "text", try #require(try apps.app("no-service-extension").forms["app"])])
        #expect(fault.status == 2)
        #expect(fault.standardOutput.contains("fail   service-extension"))
    }
}
