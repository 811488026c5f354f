import CarillonTestSupport
import Testing

@testable import CarillonCLI
@_spi(Tooling) @testable import CarillonExtensionCore

/// What a PAYLOAD argument names: a file, a directory's `*.json` files in sorted order (hidden ones,
/// other names and non-files aside), `-`, and with `--recursive` the subdirectories in place.
@Suite struct PayloadInputTests {
    static func names(_ inputs: [PayloadInput]) -> [String] { inputs.map(\.name) }

    @Test func aFileAndStandardInputAreTakenAsGiven() throws {
        let (inputs, skipped) = try PayloadInput.expand("some/file.txt").get()
        #expect(inputs == [.file("some/file.txt", named: true)] && skipped.isEmpty)
        #expect(try PayloadInput.expand("-").get().inputs == [.standardInput])
    }

    @Test func aDirectoryGivesItsJSONFilesSortedAndSaysWhatItSkipped() throws {
        let directory = TemporaryDirectory("inputs")
        defer { directory.remove() }
        for name in ["b.json", "a.json", ".hidden.json", "notes.txt"] { try directory.write(name, "{}") }
        try FileSystem.makeDirectory(directory.file("dir.json"), mode: 0o700)
        #expect(mkfifo(directory.file("fifo.json"), 0o600) == 0)
        let (inputs, skipped) = try PayloadInput.expand(directory.path).get()
        #expect(Self.names(inputs) == [directory.file("a.json"), directory.file("b.json")])
        #expect(inputs.allSatisfy { if case .file(_, named: false) = $0 { true } else { false } })
        #expect(
            skipped.count == 2 && skipped.contains { $0.contains("dir.json") } && skipped.contains { $0.contains("fifo.json") },
            "\(skipped)")
    }

    @Test func recursiveDescendsInPlaceButNeverIntoHiddenDirectories() throws {
        let directory = TemporaryDirectory("inputs")
        defer { directory.remove() }
        for sub in ["m", ".hidden"] { try FileSystem.makeDirectory(directory.file(sub), mode: 0o700) }
        for name in ["a.json", "z.json", "m/inner.json", ".hidden/secret.json"] { try directory.write(name, "{}") }
        #expect(Self.names(try PayloadInput.expand(directory.path).get().inputs) == [directory.file("a.json"), directory.file("z.json")])
        #expect(
            Self.names(try PayloadInput.expand(directory.path, recursive: true).get().inputs)
                == [directory.file("a.json"), directory.file("m/inner.json"), directory.file("z.json")])
    }

    @Test func onlyANameThatIsNotUTF8CarriesItsBytes() {
        #expect(PayloadInput.file("plain.json", named: true).nameBytes == nil)
        let odd = FileName.string(fromBytes: [0x61, 0xFF])
        #expect(PayloadInput.file(odd, named: true).nameBytes == [0x61, 0xFF])
        #expect(PayloadInput.file(odd, named: true).name == "a\\xFF")
        #expect(PayloadInput.standardInput.nameBytes == nil)
    }

    /// `open` and `present` read a directory's `*.json` and `*.apns` files as their help says: a JSON
    /// Lines file beside them is `process`'s, not one payload (read whole, it was "not valid JSON").
    @Test func openAndPresentTakeNoJSONLinesFileFromADirectory() throws {
        let directory = TemporaryDirectory("inputs")
        defer { directory.remove() }
        try directory.write("a.json", "{\"n\":1}")
        try directory.write("b.apns", "{\"n\":2}")
        try directory.write("c.jsonl", "{\"n\":3}\n{\"n\":4}\n")
        let standardError = CapturedStream()
        let io = ToolIO(
            standardOutput: CapturedStream(), standardError: standardError, readStandardInput: { _ in [] },
            standardErrorIsTerminal: false)
        var read: [String] = []
        let allRead = PayloadInput.forEachPayload([directory.path], io: io) { input, _ in
            read.append(FileSystem.lastComponent(input.name))
            return true
        }
        #expect(read == ["a.json", "b.apns"])
        #expect(allRead, "\(standardError.text)")
        #expect(
            Self.names(try PayloadInput.expand(directory.path).get().inputs).map(FileSystem.lastComponent) == [
                "a.json", "b.apns", "c.jsonl",
            ])
    }

    /// `open` and `present` queue their payloads in groups that double: 1, 2, 4 … and the rest, in
    /// order, unreadable ones said and left out, and a body that answers false stops the run.
    @Test func payloadsComeInDoublingGroups() throws {
        let directory = TemporaryDirectory("inputs")
        defer { directory.remove() }
        for n in 1...12 { try directory.write(String(format: "%02d.json", n), n == 5 ? "[not an object]" : "{\"n\":\(n)}") }
        let io = ToolIO(
            standardOutput: CapturedStream(), standardError: CapturedStream(), readStandardInput: { _ in [] },
            standardErrorIsTerminal: false)
        var groups: [[String]] = []
        let allRead = PayloadInput.forEachGroup([directory.path], io: io) { group in
            groups.append(group.map { FileSystem.lastComponent($0.input.name) })
            return true
        }
        #expect(!allRead, "05.json is not an object")
        #expect(groups.map(\.count) == [1, 2, 4, 4])
        #expect(groups.joined().map { $0 } == (1...12).filter { $0 != 5 }.map { String(format: "%02d.json", $0) })

        var calls = 0
        _ = PayloadInput.forEachGroup([directory.path], io: io) { _ in
            calls += 1
            return calls < 2
        }
        #expect(calls == 2, "stopped after the second group")
    }
}
