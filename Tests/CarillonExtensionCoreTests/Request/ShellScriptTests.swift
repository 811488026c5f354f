import Testing

@_spi(Tooling) @testable import CarillonExtensionCore

/// The shell-quoting reader (SPEC §12): words as the shell splits them, expansions as far as the script
/// itself says, quoting errors naming their line, and bounded work on hostile input.
@Suite struct ShellScriptTests {
    /// The words of the script's first curl command, after `curl`.
    static func curlWords(_ script: String) throws -> [String] {
        let parsed = try ShellScript.parse(Array(script.utf8))
        return try #require(try ShellExpansion.curlCommands(parsed).first).words.map(\.text)
    }

    @Test(arguments: [
        ("curl -H 'a b' x", ["-H", "a b", "x"]),
        (#"curl -H "a b" x"#, ["-H", "a b", "x"]),
        (#"curl -d "say \"hi\" \$5 \\ \z""#, ["-d", #"say "hi" $5 \ \z"#]),
        (#"curl -d $'line\none\ttab \x41\u00e9 \'q\' \101'"#, ["-d", "line\none\ttab Aé 'q' A"]),
        ("curl a\\ b", ["a b"]),
        ("curl -v \\\n  -H x \\\n  https://h/p", ["-v", "-H", "x", "https://h/p"]),
        // A CRLF file continues its lines as the LF file does.
        ("curl -v \\\r\n  -H x \\\r\n  https://h/p\r\n", ["-v", "-H", "x", "https://h/p"]),
        ("# a comment\ncurl x # trailing comment\n", ["x"]),
        ("curl a#b", ["a#b"]),
        (#"curl ""'' x"#, ["", "x"]),
        ("curl -d'{\"a\":1}'x", [#"-d{"a":1}x"#]),
        ("curl x > out.txt 2>&1 < in", ["x"]),
        ("curl x; echo done", ["x"]),
        ("curl x | jq . && echo ok", ["x"]),
        ("if true; then curl x; fi", ["x"]),
        ("sudo curl x", ["x"]),
        ("/usr/bin/curl x", ["x"]),
        ("cat <<EOF\ncurl not-this\nEOF\ncurl x", ["x"]),
        ("cat <<-'EOF'\n\tcurl not-this\n\tEOF\ncurl x", ["x"]),
        ("echo $(curl inside) ; curl x", ["x"]),
    ])
    func wordsAsTheShellSplitsThem(script: String, words: [String]) throws {
        #expect(try Self.curlWords(script) == words)
    }

    @Test(arguments: [
        ("TOPIC=com.example.app\ncurl -H \"apns-topic: $TOPIC\" x", ["-H", "apns-topic: com.example.app", "x"]),
        ("export HOST=api.push.apple.com\ncurl https://${HOST}/3/device/ab", ["https://api.push.apple.com/3/device/ab"]),
        ("A=x\nB=\"$A$A\"\ncurl $B", ["xx"]),
        // An unquoted expansion is split into fields; a quoted one is not.
        ("T=\"YOUR TOKEN\"\ncurl https://h/$T", ["https://h/YOUR", "TOKEN"]),
        ("T=\"YOUR TOKEN\"\ncurl \"https://h/$T\"", ["https://h/YOUR TOKEN"]),
        ("E=\ncurl $E x", ["x"]),
    ])
    func variablesTheScriptSetsAreSubstituted(script: String, words: [String]) throws {
        #expect(try Self.curlWords(script) == words)
    }

    @Test(arguments: [
        ("curl -H \"authorization: bearer $JWT\" x", "$JWT", "is not set in the file"),
        ("J=$(date +%s)\ncurl -H \"t: $J\" x", "$J", "runs a command"),
        ("curl -H \"t: `date`\" x", "`date`", "runs a command"),
        ("curl https://h/3/device/$1", "$1", "argument"),
        ("curl https://h/${TOKEN:-x}", "${TOKEN:-x}", "argument"),
        ("U=a\nif x; then U=b; fi\ncurl $U", "$U", "assigned 2 times"),
    ])
    func whatTheScriptDoesNotSayStaysOpen(script: String, source: String, why: String) throws {
        let parsed = try ShellScript.parse(Array(script.utf8))
        let command = try #require(try ShellExpansion.curlCommands(parsed).first)
        let open = command.words.flatMap(\.unresolved)
        #expect(open.contains { $0.source == source && $0.why.contains(why) }, "\(open)")
        #expect(command.words.contains { $0.text.contains(source) })
    }

    @Test(arguments: [
        ("curl -d '{\"aps\":1}\n", 1, "single quote"),
        ("curl -v \\\n  -d \"{\n}\n", 2, "double quote"),
        ("curl -d $'abc", 1, "$' quote"),
        ("echo ok\ncurl -H \"x: $(date\" y", 2, "$("),
        ("curl -H `date", 1, "backquote"),
        ("curl ${X", 1, "${"),
    ])
    func anUnbalancedQuoteNamesItsLine(script: String, line: Int, what: String) {
        let error = #expect(throws: ShellProblem.self) { try ShellScript.parse(Array(script.utf8)) }
        #expect(error?.line == line, "\(String(describing: error))")
        #expect(error?.message.contains(what) == true, "\(String(describing: error))")
        #expect(error?.namesCurl == true, "curl came before the error")
    }

    @Test func aScriptWithoutCurlDoesNotNameIt() throws {
        #expect(try !ShellScript.parse(Array("echo curl\nls -l > curl\n".utf8)).namesCurl)
        #expect(try ShellScript.parse(Array("curl.exe -d x https://h".utf8)).namesCurl)
    }

    @Test func exponentialExpansionIsBounded() throws {
        var script = "A=0123456789abcdef0123456789abcdef\n"
        var name = "A"
        for index in 0..<24 {
            script += "V\(index)=\"$\(name)$\(name)\"\n"
            name = "V\(index)"
        }
        script += "curl -d \"$\(name)\" x\n"
        let started = ContinuousClock.now
        #expect(throws: ShellProblem.self) { try ShellExpansion.curlCommands(try ShellScript.parse(Array(script.utf8))) }
        #expect(ContinuousClock.now - started < .seconds(5))
    }

    /// A long command line: a megabyte-long unquoted argument (10 MB: `RequestReaderTests`), an unclosed
    /// quote, and ten thousand nested `$(`s, each read in one pass.
    @Test func aLongCommandLineIsReadInOnePass() throws {
        let body = String(repeating: "a", count: 1_000_000)
        let started = ContinuousClock.now
        #expect(try Self.curlWords("curl -d \(body) x").map(\.count) == [2, 1_000_000, 1])
        #expect(throws: ShellProblem.self) { try ShellScript.parse(Array("curl -d '\(body)".utf8)) }
        let nested = String(repeating: "$(", count: 10_000) + String(repeating: ")", count: 10_000)
        #expect(try Self.curlWords("curl -H \(nested) x").last == "x")
        #expect(ContinuousClock.now - started < .seconds(20))
    }

    @Test func binaryGarbageIsWordsOrAProblemNeverATrap() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<200 {
            let bytes = (0..<Int.random(in: 0..<512, using: &generator)).map { _ in UInt8.random(in: 0...255, using: &generator) }
            if let script = try? ShellScript.parse(bytes) { _ = try? ShellExpansion.curlCommands(script) }
        }
    }
}
