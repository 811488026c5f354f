import CarillonTestSupport
import Testing

@_spi(Tooling) @testable import CarillonExtensionCore

/// `RecordDirectory.readRecord`: the one rule the drain and the queue read their record files by, from
/// a table of what can be under a record's name.
@Suite struct RecordDirectoryReadingTests {
    enum Setup: Sendable {
        case nothing
        case bytes(String)
        case fifo, linkToRecord, directory
    }

    /// What the read gave, said as a line: `record <text>`, `gone`, or `damaged <reason>`.
    static func describe(_ read: RecordRead<String>) -> String {
        switch read {
        case .record(let text): return "record \(text)"
        case .gone: return "gone"
        case .unreadable(let error): return "unreadable \(error)"
        case .damaged(let reason): return "damaged \(reason)"
        }
    }

    static let rows: [(why: String, setup: Setup, expected: String)] = [
        ("a whole record is decoded", .bytes("ok\n"), "record ok\n"),
        ("at the size limit: read", .bytes("ok\nok\nok"), "damaged not ok"),
        ("over the size limit: damaged, unread", .bytes("ok\nok\nok\n"), "damaged larger than 8 bytes"),
        ("the decoder's refusal is the reason", .bytes("{}\n"), "damaged not ok"),
        ("removed meanwhile: gone", .nothing, "gone"),
        ("a FIFO: never waited on", .fifo, "damaged cannot read: not a regular file but a FIFO, socket or device"),
        ("a link: never followed", .linkToRecord, "damaged cannot read: a symbolic link, not followed"),
        ("a directory", .directory, "damaged cannot read: Is a directory"),
    ]

    @Test(arguments: rows)
    func reads(why: String, setup: Setup, expected: String) throws {
        let work = TemporaryDirectory("records")
        defer { work.remove() }
        let records = RecordDirectory(work.path)
        let path = records.path(of: "a.record")
        switch setup {
        case .nothing: break
        case .bytes(let text): _ = try work.write("a.record", text)
        case .fifo: #expect(mkfifo(path, 0o600) == 0)
        case .linkToRecord:
            _ = try work.write("target", "ok\n")
            #expect(symlink(work.file("target"), path) == 0)
        case .directory: try FileSystem.makeDirectory(path, mode: 0o700)
        }
        let read = records.readRecord("a.record", maximumBytes: 8) { (bytes) throws(RecordError) -> String in
            guard bytes == Array("ok\n".utf8) else { throw RecordError("not ok") }
            return String(decoding: bytes, as: UTF8.self)
        }
        #expect(Self.describe(read) == expected, "\(why)")
    }
}
