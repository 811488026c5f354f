import CarillonTestSupport
import Testing

@_spi(Tooling) @testable import CarillonExtensionCore

/// Setting files aside: moved in unchanged, never replacing another, each with its reason beside it.
@Suite struct QuarantineTests {
    static func write(_ text: String, _ path: String) throws {
        _ = try FileSystem.publishAtomically(Array(text.utf8), to: path, replace: true)
    }

    static func read(_ path: String) throws -> String {
        String(decoding: try FileSystem.readFile(path), as: UTF8.self)
    }

    @Test func aFileMovesInUnchangedWithItsReason() throws {
        let scratch = TemporaryDirectory("receipts")
        defer { scratch.remove() }
        let quarantine = Quarantine(directory: scratch.file("Quarantine"))
        try Self.write("broken bytes", scratch.file("a.receipt"))
        let record = try #require(try quarantine.setAside(scratch.file("a.receipt"), reason: "not valid JSON"))
        #expect(
            record
                == QuarantinedFile(file: scratch.file("a.receipt"), reason: "not valid JSON", movedTo: scratch.file("Quarantine/a.receipt"))
        )
        #expect(!FileSystem.exists(scratch.file("a.receipt")))
        #expect(try Self.read(record.movedTo) == "broken bytes")
        #expect(try Self.read(record.movedTo + ".reason") == "not valid JSON\n")
    }

    @Test func aNameAlreadySetAsideIsKeptAndTheNewOneNumbered() throws {
        let scratch = TemporaryDirectory("receipts")
        defer { scratch.remove() }
        let quarantine = Quarantine(directory: scratch.file("Quarantine"))
        var moved: [String] = []
        for round in 0..<3 {
            try Self.write("round \(round)", scratch.file("a.receipt"))
            moved.append(try #require(try quarantine.setAside(scratch.file("a.receipt"), reason: "round \(round)")).movedTo)
        }
        #expect(
            moved == [scratch.file("Quarantine/a.receipt"), scratch.file("Quarantine/a.receipt.1"), scratch.file("Quarantine/a.receipt.2")])
        for (round, path) in moved.enumerated() {
            #expect(try Self.read(path) == "round \(round)")
            #expect(try Self.read(path + ".reason") == "round \(round)\n")
        }
    }

    @Test func aFileAlreadyGoneIsNil() throws {
        let scratch = TemporaryDirectory("receipts")
        defer { scratch.remove() }
        let quarantine = Quarantine(directory: scratch.file("Quarantine"))
        #expect(try quarantine.setAside(scratch.file("gone.receipt"), reason: "x") == nil)
    }

    @Test func aQuarantineThatIsALinkIsRefused() throws {
        let scratch = TemporaryDirectory("receipts")
        defer { scratch.remove() }
        try FileSystem.makeDirectory(scratch.file("elsewhere"), mode: 0o700)
        #expect(symlink(scratch.file("elsewhere"), scratch.file("Quarantine")) == 0)
        try Self.write("x", scratch.file("a.receipt"))
        #expect(throws: FileSystemError.self) {
            try Quarantine(directory: scratch.file("Quarantine")).setAside(scratch.file("a.receipt"), reason: "x")
        }
        #expect(FileSystem.exists(scratch.file("a.receipt")))
        #expect(try FileSystem.contentsOfDirectory(scratch.file("elsewhere")).isEmpty)
    }
}
