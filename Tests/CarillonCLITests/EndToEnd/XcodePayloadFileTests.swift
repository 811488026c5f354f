import CarillonTestSupport
import Foundation
import Testing

/// Xcode's `.apns` files are payloads (SPEC §6b): named on the command line and found in directories
/// beside `*.json`, their `Simulator Target Bundle` shown by `--format text` and never hinted at as a
/// misplaced key. The sample is `TestAssets/Payloads/routing/14-xcode-simulator.apns`, as Xcode writes it.
@Suite(.timeLimit(.minutes(1))) struct XcodePayloadFileTests {
    /// The sample with the test server's address, in a directory beside a `*.json` payload.
    static func directory() throws -> TemporaryDirectory {
        let directory = TemporaryDirectory("xcode-apns")
        try FileManager.default.createDirectory(atPath: directory.file("payloads"), withIntermediateDirectories: true)
        let sample = try String(contentsOfFile: Paths.testAssets("Payloads/routing/14-xcode-simulator.apns"), encoding: .utf8)
        try directory.write("payloads/b.apns", sample.replacingOccurrences(of: "{{BASE_URL}}", with: TestServer.shared.baseURL))
        try directory.write("payloads/a.json", Payloads.routed(image: nil))
        try directory.write("payloads/c.txt", "not a payload")
        return directory
    }

    @Test func aDirectoryOfApnsFilesIsReadBesideJSON() async throws {
        let directory = try Self.directory()
        defer { directory.remove() }
        let result = try await tool([
            "process", "--ca-file", TestServer.shared.caFile, "--attachments", directory.file("att"), directory.file("payloads"),
        ])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(
            result.jsonLines.map { $0["payload"] as? String } == [directory.file("payloads/a.json"), directory.file("payloads/b.apns")])
        let apns = try #require(result.jsonLines.last)
        #expect(apns["reason"] as? String == "attached", "\(apns)")
        #expect((apns["warnings"] as? [String]) == [], "no hint for Simulator Target Bundle: \(apns)")
    }

    @Test func theTextViewShowsTheSimulatorTargetBundle() async throws {
        let directory = try Self.directory()
        defer { directory.remove() }
        let result = try await tool([
            "process", "--ca-file", TestServer.shared.caFile, "--attachments", directory.file("att"), "--format", "text",
            directory.file("payloads/b.apns"),
        ])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(
            result.standardOutput.contains(
                "\n  simulator target bundle com.example.carillon-demo (Xcode's .apns: the app the Simulator delivers it to)\n"),
            "\(result.standardOutput)")
        #expect(!result.standardOutput.contains("warning:"))
    }

    @Test func aDirectoryWithNeitherSaysWhatItLookedFor() async throws {
        let directory = TemporaryDirectory("xcode-none")
        defer { directory.remove() }
        try directory.write("c.txt", "")
        let result = try await tool(["process", directory.path])
        #expect(result.status == 1)
        // SPEC §12 widened the names a directory takes: the message says which (c.txt holds no request).
        #expect(
            result.standardError.contains("no *.json or *.apns file (nor a request in *.http, *.curl, *.sh or *.txt) in this directory"))
    }
}
