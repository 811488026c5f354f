import Foundation

/// The local HTTPS test server (`TestAssets/Server/server.py`), started once per test process.
///
/// It binds 127.0.0.1 only, on ports the system picks, with certificates made at start-up by the
/// `openssl` command; tests trust its CA through `caFile`, never by turning verification off. It stops
/// when this process ends: it exits when its standard input (a pipe held here) closes.
public final class TestServer: Sendable {
    public let port: Int
    public let caFile: String
    public let baseURL: String
    /// A TLS listener whose certificate comes from a CA nobody trusts.
    public let unknownCAPort: Int
    /// A TLS listener whose certificate names another host.
    public let wrongHostPort: Int
    /// Accepts TCP and never answers the TLS handshake.
    public let handshakeStallPort: Int
    /// A port nothing listens on: connecting is refused.
    public let closedPort: Int
    /// The App Transport Security listeners (`ats_cn_only`, `ats_tls13`...; TestAssets/Server/README.md), by name.
    public let atsPorts: [String: Int]
    private let process: Process
    private let input: Pipe

    /// The server for this test process, started on first use.
    public static let shared: TestServer = {
        do {
            return try TestServer()
        } catch {
            fatalError("cannot start the test server: \(error)")
        }
    }()

    public init() throws {
        let started = try LocalServerProcess(script: "server.py")
        port = started.port
        caFile = started.caFile
        baseURL = started.baseURL
        unknownCAPort = started.ready["unknown_ca_port"] as? Int ?? 0
        wrongHostPort = started.ready["wrong_host_port"] as? Int ?? 0
        handshakeStallPort = started.ready["handshake_stall_port"] as? Int ?? 0
        closedPort = started.ready["closed_port"] as? Int ?? 0
        atsPorts = started.ready["ats_ports"] as? [String: Int] ?? [:]
        process = started.process
        input = started.input
    }

    /// `https://127.0.0.1:PORT` + `path`.
    public func url(_ path: String) -> String { baseURL + path }

    /// `path` on the ATS listener called `name`; a port nothing listens on if there is no such listener.
    public func url(_ path: String, onATSListener name: String) -> String {
        "https://127.0.0.1:\(atsPorts[name] ?? closedPort)" + path
    }

    /// Request counts by path and connections accepted, from the server's `/stats` route.
    public func stats() throws -> [String: Any] {
        let text = try Curl.get(url("/stats"), caFile: caFile)
        return (try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any]) ?? [:]
    }
}
