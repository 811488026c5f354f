import Foundation

/// The built apps of `TestAssets/Apps/make_apps.py`, generated once per test process into a temporary
/// directory: a healthy app and one per fault of SPEC §11, each as .ipa, .app, .xcarchive and a zip of
/// the .app, and hostile archives, with what `doctor` must find in each (`manifest.json`).
public final class GeneratedApps: Sendable {
    /// One app: its files per form and what must be found.
    public struct App: Sendable {
        public var name: String
        /// Form (`ipa`, `app`, `xcarchive`, `zip`) → absolute path.
        public var forms: [String: String]
        /// (check, status, target) triples that must be among the findings.
        public var expected: [[String]]
        /// The exit status `doctor` must end with.
        public var exit: Int32
    }

    public let directory: String
    public let apps: [String: App]
    /// Hostile archive name → absolute path.
    public let hostile: [String: String]

    /// Generated on first use; a failure to generate is a test failure naming the script's error.
    public static let shared: Result<GeneratedApps, Error> = Result { try GeneratedApps() }

    /// The shared apps, or the error that stopped the generator.
    public static func get() throws -> GeneratedApps { try shared.get() }

    /// The generator did not write the apps.
    public struct GenerationError: Error, CustomStringConvertible {
        public var description: String
    }

    /// Where the apps were written, removed when the test process exits.
    nonisolated(unsafe) private static var written: String?

    init() throws {
        let directory = TemporaryDirectory("apps").path
        self.directory = directory
        Self.written = directory
        atexit { if let written = GeneratedApps.written { TemporaryDirectory.removeTree(written) } }
        let script = Paths.testAssets("Apps/make_apps.py")
        let result = try Command.run("/usr/bin/env", ["python3", script, directory])
        guard result.status == 0 else {
            throw GenerationError(description: "make_apps.py failed (\(result.status)): \(result.standardError)")
        }
        let data = try Data(contentsOf: URL(fileURLWithPath: directory + "/manifest.json"))
        let manifest = try JSONSerialization.jsonObject(with: data) as? [String: Any] ?? [:]
        var apps: [String: App] = [:]
        for (name, value) in manifest["apps"] as? [String: [String: Any]] ?? [:] {
            let forms = (value["forms"] as? [String: String] ?? [:]).mapValues { directory + "/" + $0 }
            apps[name] = App(
                name: name, forms: forms, expected: value["expect"] as? [[String]] ?? [], exit: Int32(value["exit"] as? Int ?? -1))
        }
        self.apps = apps
        hostile = (manifest["hostile"] as? [String: String] ?? [:]).mapValues { directory + "/" + $0 }
    }

    /// The app named `name` (a test of an app the generator does not write fails here).
    public func app(_ name: String) throws -> App {
        guard let app = apps[name] else { throw GenerationError(description: "make_apps.py wrote no app '\(name)'") }
        return app
    }

    /// The throwaway certificate the profiles were signed with.
    public var signerCertificate: String { directory + "/profile-signer.pem" }
}
