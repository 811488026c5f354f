import Foundation

/// A local Python server of `TestAssets/Server/` started as the tests start them: its standard input a
/// pipe held here (it exits when that closes), and the one JSON ready line it prints first, read whole.
/// The image server (``TestServer``) and the events API stand-in (``EventsAPIServer``) both start this way.
struct LocalServerProcess {
    let process: Process
    let input: Pipe
    /// The ready line's members: at least `port`, `ca_file` and `base_url`.
    let ready: [String: Any]
    let port: Int
    let caFile: String
    let baseURL: String

    struct StartError: Error, CustomStringConvertible {
        var description: String
    }

    /// Runs `python3 TestAssets/Server/<script> --exit-on-stdin-eof <arguments>` and waits for its ready line.
    init(script: String, arguments: [String] = []) throws {
        process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", Paths.testAssets("Server/" + script), "--exit-on-stdin-eof"] + arguments
        input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        var line = Data()
        let handle = output.fileHandleForReading
        while !line.contains(UInt8(ascii: "\n")) {
            let chunk = handle.availableData
            if chunk.isEmpty {
                throw StartError(description: "\(script) exited before its ready line: \(String(decoding: line, as: UTF8.self))")
            }
            line.append(chunk)
        }
        guard let ready = try JSONSerialization.jsonObject(with: line) as? [String: Any],
            let port = ready["port"] as? Int, let caFile = ready["ca_file"] as? String,
            let baseURL = ready["base_url"] as? String
        else { throw StartError(description: "\(script): unexpected ready line: \(String(decoding: line, as: UTF8.self))") }
        self.ready = ready
        self.port = port
        self.caFile = caFile
        self.baseURL = baseURL
    }
}
