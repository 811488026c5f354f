import CarillonTestSupport
import Foundation

/// One page's examples run in one fresh directory, with `carillon-nse` on the PATH (the built tool) and
/// what the examples' comments ask for, set up once on first mention:
/// - `samples`: the bundled payloads, named for the local image server (`TestAssets/Payloads/GROUP/`
///   as `Payloads/GROUP/`, as `GROUP/`, and all in `p/`), its CA as `ca.pem`, and `TestAssets/`;
/// - `api`: the events API stand-in, whose CA is `api-ca.pem` and whose mobile key is in `mobile-key`;
///   in a command, `https://127.0.0.1:PORT` is its address;
/// - `campaign`: `campaign.jsonl`, the sample campaign of 3,000 payloads (`TestAssets/Campaign/generate.py`);
/// - `apps`: built apps in `apps/NAME/` (`TestAssets/Apps/make_apps.py --only healthy app-group-differs
///   ats-tls11`), and `tls11.url`, the image URL of the local server's TLS 1.0/1.1-only listener (with `samples`).
final class ExampleSession {
    let work = TemporaryDirectory("doc-examples")
    private var api: EventsAPIServer?
    private var prepared: Set<String> = []

    deinit { work.remove() }

    func prepare(_ words: [String]) throws {
        for word in words where !prepared.contains(word) {
            prepared.insert(word)
            switch word {
            case "samples": try prepareSamples()
            case "api":
                let server = try EventsAPIServer(key: "sample-mobile-key")
                try FileManager.default.copyItem(atPath: server.caFile, toPath: work.file("api-ca.pem"))
                try work.write("mobile-key", server.key + "\n")
                api = server
            case "apps": try prepareApps()
            case "campaign":
                let made = try Shell.run(
                    "python3 \(Shell.quote(Paths.testAssets("Campaign/generate.py"))) \(TestServer.shared.baseURL) 3000 > "
                        + Shell.quote(work.file("campaign.jsonl")))
                guard made.status == 0 else { throw ExampleError(description: "generate.py: \(made.standardError)") }
            default: break
            }
        }
    }

    private func prepareApps() throws {
        try prepare(["samples"])
        let made = try Shell.run(
            "python3 \(Shell.quote(Paths.testAssets("Apps/make_apps.py"))) \(Shell.quote(work.file("apps")))"
                + " --only healthy app-group-differs ats-tls11")
        guard made.status == 0 else { throw ExampleError(description: "make_apps.py: \(made.standardError)") }
        try work.write("tls11.url", TestServer.shared.url("/img/png", onATSListener: "ats_tls11") + "\n")
    }

    private func prepareSamples() throws {
        let fileManager = FileManager.default
        let server = TestServer.shared
        try fileManager.copyItem(atPath: server.caFile, toPath: work.file("ca.pem"))
        try fileManager.createSymbolicLink(atPath: work.file("TestAssets"), withDestinationPath: Paths.testAssets(""))
        try fileManager.createDirectory(atPath: work.file("p"), withIntermediateDirectories: true)
        try fileManager.createDirectory(atPath: work.file("bin"), withIntermediateDirectories: true)
        try fileManager.createSymbolicLink(atPath: work.file("bin/carillon-nse"), withDestinationPath: Paths.tool)
        let payloads = Paths.testAssets("Payloads")
        for group in try fileManager.contentsOfDirectory(atPath: payloads).sorted() {
            var isDirectory: ObjCBool = false
            guard fileManager.fileExists(atPath: payloads + "/" + group, isDirectory: &isDirectory), isDirectory.boolValue else { continue }
            for directory in ["Payloads/" + group, group] {
                try fileManager.createDirectory(atPath: work.file(directory), withIntermediateDirectories: true)
            }
            for name in try fileManager.contentsOfDirectory(atPath: payloads + "/" + group) where name.hasSuffix(".json") {
                // Byte for byte but the template: some payloads are not UTF-8 on purpose.
                let bytes = try Data(contentsOf: URL(fileURLWithPath: payloads + "/" + group + "/" + name))
                let named = Data(bytes).replacing(Data("{{BASE_URL}}".utf8), with: Data(server.baseURL.utf8))
                for directory in ["Payloads/" + group, group, "p"] {
                    try named.write(to: URL(fileURLWithPath: work.file(directory + "/" + name)))
                }
            }
        }
    }

    /// Runs `command` in the session's directory as a shell runs it, standard error into standard
    /// output as a terminal interleaves them; its lines.
    func run(_ command: String) throws -> [String] {
        var text = command
        if let api {
            text = text.replacingOccurrences(of: #"https://127\.0\.0\.1:[0-9]+"#, with: api.baseURL, options: .regularExpression)
        }
        let path = work.file("bin") + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
        let result = try Shell.run("cd \(Shell.quote(work.path)) && exec 2>&1 && " + text, environment: ["PATH": path])
        var lines = result.standardOutput.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        if lines.last == "" { lines.removeLast() }
        return lines
    }
}

struct ExampleError: Error, CustomStringConvertible {
    var description: String
}
