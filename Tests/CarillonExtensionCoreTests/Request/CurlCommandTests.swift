import CarillonTestSupport
import Foundation
import Testing

@_spi(Tooling) @testable import CarillonExtensionCore

/// A curl command's request as curl would send it (SPEC §12): each data option's own rule, header
/// forms, method and version options, short-option clusters; `@file` read only beside the command's
/// file, never through `..`, an absolute path or a symbolic link.
@Suite struct CurlCommandTests {
    /// Read as a curl command whatever it aims at: these tables are about curl's options (what is a push
    /// request is ``RequestReaderTests``').
    static func request(_ script: String, files: RequestFiles = .none) throws -> APNsRequest {
        try RequestReader.readCurl(Array(script.utf8), files: files)
    }

    static func body(_ script: String, files: RequestFiles = .none) throws -> String {
        String(decoding: try request(script, files: files).body, as: UTF8.self)
    }

    @Test(arguments: [
        ("curl -d '{\"a\":1}' https://h/p", #"{"a":1}"#),
        ("curl --data a -d b https://h/p", "a&b"),
        ("curl --data-binary a --data-raw b https://h/p", "a&b"),
        ("curl --data-raw @literal https://h/p", "@literal"),
        ("curl --json '{\"a\":' --json '1}' https://h/p", #"{"a":1}"#),
        ("curl -d'{\"x\":2}' https://h/p", #"{"x":2}"#),
        ("curl -sSd '{}' https://h/p", "{}"),
        ("curl -d '' https://h/p", ""),
    ])
    func dataOptionsJoinAsCurlJoinsThem(script: String, body: String) throws {
        #expect(try Self.body(script) == body)
    }

    @Test func fileDataFollowsEachOptionsRule() throws {
        let directory = TemporaryDirectory("curl-files")
        defer { directory.remove() }
        _ = try directory.write("payload.json", "{\"aps\":\n  {\"alert\": \"x\"}\r\n}\n")
        let files = RequestFiles(directory: directory.path)
        #expect(try Self.body("curl -d @payload.json https://h/p", files: files) == #"{"aps":  {"alert": "x"}}"#)
        #expect(try Self.body("curl --data-binary @payload.json https://h/p", files: files) == "{\"aps\":\n  {\"alert\": \"x\"}\r\n}\n")
        #expect(try Self.body("curl --json @payload.json https://h/p", files: files) == "{\"aps\":\n  {\"alert\": \"x\"}\r\n}\n")
        #expect(try Self.body("curl --data-raw @payload.json https://h/p", files: files) == "@payload.json")
        #expect(try Self.body("curl -d @./payload.json https://h/p", files: files) == #"{"aps":  {"alert": "x"}}"#)
    }

    @Test(arguments: [
        ("-d @/etc/passwd", "is absolute"),
        ("-d @../secret.json", "climbs out through '..'"),
        ("--data-binary @sub/../../secret.json", "climbs out through '..'"),
        ("-d @~/x", "is absolute"),
        ("-d @-", "standard input"),
        ("-d @out/secret.json", "symbolic link"),
        ("-d @inside.json", "symbolic link"),
        ("-d @missing.json", "No such file"),
        ("-d @fifo", "not a regular file"),
        ("-d @big.json", "over the 64-byte limit"),
        ("-H @../headers.txt", "climbs out"),
    ])
    func aFileOutsideIsRefusedAndNamed(arguments: String, problem: String) throws {
        let root = TemporaryDirectory("curl-refused")
        defer { root.remove() }
        let directory = root.file("requests")
        try FileManager.default.createDirectory(atPath: directory + "/sub", withIntermediateDirectories: true)
        _ = try root.write("secret.json", "{\"secret\":1}")
        _ = try root.write("requests/real.json", "{}")
        _ = try root.write("requests/big.json", String(repeating: " ", count: 65))
        try FileManager.default.createSymbolicLink(atPath: directory + "/out", withDestinationPath: root.path)
        try FileManager.default.createSymbolicLink(atPath: directory + "/inside.json", withDestinationPath: "real.json")
        #expect(mkfifo(directory + "/fifo", 0o600) == 0)
        let files = RequestFiles(directory: directory, limit: 64)
        let started = ContinuousClock.now
        let error = #expect(throws: RequestProblem.self) {
            try Self.request("curl \(arguments) https://api.push.apple.com/3/device/ab", files: files)
        }
        let message = error?.message ?? ""
        let path = arguments.split(separator: "@", maxSplits: 1).last.map(String.init) ?? ""
        #expect(message.contains(problem) && message.contains(path), "\(message)")
        #expect(ContinuousClock.now - started < .seconds(2), "a FIFO never blocks")
    }

    @Test func headersAndMethodAsCurlSendsThem() throws {
        let request = try Self.request(
            "curl -X PUT -H 'apns-topic: a.b' -H 'x-empty;' -H 'x-removed:' -A 'agent/1' --oauth2-bearer tok "
                + "--json '{}' -H 'Accept: text/plain' https://api.push.apple.com:2197/3/device/ab")
        #expect(request.method == "PUT")
        #expect(request.target == RequestTarget(scheme: "https", host: "api.push.apple.com", port: 2197, path: "/3/device/ab"))
        #expect(
            request.headers.map { "\($0.name): \($0.value)" } == [
                "User-Agent: agent/1", "Authorization: Bearer tok", "Content-Type: application/json", "apns-topic: a.b", "x-empty: ",
                "Accept: text/plain",
            ])
    }

    @Test(arguments: [
        ("curl --data-binary @- https://h/p <<'EOF'\n{\"a\":1}\nEOF\n", "{\"a\":1}\n"),
        ("curl -d @- https://h/p <<-\"EOF\"\n\t{\"a\":\n\t1}\n\tEOF\necho done\n", "{\"a\":1}"),
        ("curl --json @- https://h/p <<EOF\n{\"a\":1}\nEOF", "{\"a\":1}\n"),
        ("curl --data-binary @- https://h/p <<'EOF'\n{\"a\":\"$X\"}\nEOF\n", "{\"a\":\"$X\"}\n"),
    ])
    func aHereDocumentIsWhatAtDashReads(script: String, body: String) throws {
        #expect(try Self.body(script) == body)
    }

    @Test(arguments: [
        ("curl -d @- https://h/p <<EOF\n{\"a\":\"$X\"}\nEOF\n", "delimiter is not quoted"),
        ("cat <<'EOF'\n{}\nEOF\ncurl -d @- https://h/p\n", "'-' is standard input"),
    ])
    func aHereDocumentTheShellWouldExpandOrNoneIsRefused(script: String, problem: String) {
        let error = #expect(throws: RequestProblem.self) { try Self.request(script) }
        #expect(error?.message.contains(problem) == true, "\(error?.message ?? "")")
    }

    @Test(arguments: [
        ("curl -d x https://h/p", RequestTarget(scheme: "https", host: "h", port: nil, path: "/p")),
        // curl ends options at `--`: what follows is URLs, even one that starts with a dash.
        ("curl -d x -- https://h/p", RequestTarget(scheme: "https", host: "h", port: nil, path: "/p")),
        ("curl -d x -- -h/p", RequestTarget(scheme: "http", host: "-h", port: nil, path: "/p")),
        // A URL without a scheme goes over http:// to port 80, as curl sends it.
        (
            "curl -d x api.push.apple.com/3/device/ab",
            RequestTarget(scheme: "http", host: "api.push.apple.com", port: nil, path: "/3/device/ab")
        ),
    ])
    func theURLAsCurlTakesIt(script: String, target: RequestTarget) throws {
        let request = try Self.request(script)
        #expect(request.target == target)
        #expect(request.target?.effectivePort == (target.scheme == "http" ? 80 : 443))
    }

    @Test(arguments: [
        ("curl https://h/p", "GET", nil as String?),
        ("curl -d x https://h/p", "POST", nil),
        ("curl -I https://h/p", "HEAD", nil),
        ("curl -G -d a=1 https://h/p", "GET", nil),
        ("curl -XPOST --http1.1 https://h/p", "POST", "1.1"),
        ("curl --http1.0 -d x https://h/p", "POST", "1.0"),
        ("curl --http2 -d x https://h/p", "POST", nil),
    ])
    func methodAndVersion(script: String, method: String, version: String?) throws {
        let request = try Self.request(script)
        #expect(request.method == method)
        #expect(request.httpVersion == version)
    }

    @Test(arguments: [
        ("curl --frobnicate x https://h/p", "no option '--frobnicate'"),
        ("curl -j -Q", "needs an argument"),
        ("curl -F a=@b https://h/p", "multipart form"),
        ("curl -T f https://h/p", "PUT"),
        ("curl --data-urlencode a=b https://h/p", "URL-encoded"),
        ("curl -K cfg https://h/p", "config option"),
        ("curl -d x", "names no URL"),
        ("curl -%", "no option '-%'"),
    ])
    func whatIsNotOneJSONBodyIsRefusedNamingTheOption(script: String, problem: String) {
        let error = #expect(throws: RequestProblem.self) { try Self.request(script) }
        #expect(error?.message.contains(problem) == true, "\(String(describing: error))")
    }

    @Test func aSecondURLOrCommandIsSaid() throws {
        #expect(try Self.request("curl -d x https://a/p https://b/p").notes.contains { $0.contains("2 URLs") })
        #expect(try Self.request("curl -d x https://a/p\ncurl -d y https://b/p").notes.contains { $0.contains("2 curl commands") })
        #expect(try Self.request("curl -d x https://a/p --next https://b/p").notes.contains { $0.contains("next option") })
    }
}
