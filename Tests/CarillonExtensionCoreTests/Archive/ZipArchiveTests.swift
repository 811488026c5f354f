import CarillonTestSupport
import Foundation
import Testing

@_spi(Tooling) @testable import CarillonExtensionCore

/// The zip reader: the name rule from a table; the generated .ipa read member by member against Python's
/// zipfile (CRC checked, ranges of a deflated member equal to its whole content's); every truncation of a
/// small archive refused or read, never a trap; ratios, overlaps and duplicates refused before any read.
@Suite struct ZipArchiveTests {
    @Test(
        arguments: [
            ("Payload/A.app/Info.plist", nil), ("a/./b", nil), ("..a/b..", nil), ("a/../b", "climbs out"), ("..", "climbs out"),
            ("a\\..\\b", "climbs out"), ("/etc/passwd", "absolute"), ("\\x", "absolute"), ("C:/x", "drive letter"), ("", "empty"),
            ("a\u{0}b", "NUL"),
        ] as [(String, String?)])
    func memberNameRule(name: String, problem: String?) {
        let found = ZipMemberName.problem(Array(name.utf8))
        if let problem { #expect(found?.contains(problem) == true, "\(name): \(found ?? "nil")") } else { #expect(found == nil, "\(name)") }
    }

    static func ipa() throws -> [UInt8] {
        [UInt8](try Data(contentsOf: URL(fileURLWithPath: try #require(try GeneratedApps.get().app("healthy").forms["ipa"]))))
    }

    /// Every member as Python's zipfile reads it (names, sizes, CRC), and its content inflated equal.
    @Test func readsWhatZipfileReads() throws {
        let path = try #require(try GeneratedApps.get().app("healthy").forms["ipa"])
        let script = """
            import sys, zipfile, json, zlib
            z = zipfile.ZipFile(sys.argv[1])
            print(json.dumps([[i.filename, i.file_size, i.CRC, zlib.crc32(z.read(i))] for i in z.infolist()]))
            """
        let result = try Command.run("/usr/bin/env", ["python3", "-c", script, path])
        let listed = try #require(try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [[Any]])
        let archive = try ZipArchive(try RandomAccessFile(path))
        #expect(archive.entries.map(\.name) == listed.map { $0[0] as? String })
        for (entry, row) in zip(archive.entries, listed) {
            #expect(entry.uncompressedSize == row[1] as? Int && Int(entry.crc32) == row[2] as? Int)
            guard !entry.isDirectory else { continue }
            let content = try archive.contents(of: entry, maximumBytes: 1 << 20)
            #expect(content.count == entry.uncompressedSize)
        }
    }

    /// Ranges of a deflated member, read in one pass, are the bytes of its whole content.
    @Test func rangesOfADeflatedMemberAreItsBytes() throws {
        let archive = try ZipArchive(ZipBytes(try Self.ipa()))
        let entry = try #require(archive.entry(named: "Payload/Carillon.app/Carillon"))
        #expect(entry.method == 8)
        let whole = try archive.contents(of: entry, maximumBytes: 1 << 20)
        let ranges = [0..<32, 100..<100, 4000..<(whole.count / 2), (whole.count - 10)..<whole.count]
        let pieces = try archive.ranges(of: entry, ranges)
        for (range, piece) in zip(ranges, pieces) { #expect(piece == Array(whole[range])) }
        #expect(throws: ZipError.self) { _ = try archive.ranges(of: entry, [0..<(whole.count + 1)]) }
        #expect(throws: ZipError.self) { _ = try archive.contents(of: entry, maximumBytes: 100) }
    }

    /// Cut anywhere, the archive is refused (or, cut in a member the directory does not reach, read):
    /// never a trap, never a wrong byte.
    @Test func everyTruncationIsRefusedOrRead() throws {
        let bytes = try Self.ipa()
        let step = max(1, bytes.count / 300)
        for cut in stride(from: 0, to: bytes.count, by: step) {
            do {
                let archive = try ZipArchive(ZipBytes(Array(bytes[..<cut])))
                Issue.record("a zip cut at \(cut) of \(bytes.count) opened with \(archive.entries.count) members")
            } catch {
                #expect(!error.problem.isEmpty)
            }
        }
    }

    /// Flipped bytes in the central directory: refused or read; a member read whole is checked by CRC.
    @Test func corruptedDirectoriesNeverTrap() throws {
        let bytes = try Self.ipa()
        let directory = try #require(bytes.indices.lazy.filter { bytes[$0...].starts(with: [0x50, 0x4B, 0x01, 0x02]) }.first)
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<300 {
            var copy = bytes
            for _ in 0..<3 {
                copy[Int.random(in: directory..<copy.count, using: &generator)] = UInt8.random(in: 0...255, using: &generator)
            }
            guard let archive = try? ZipArchive(ZipBytes(copy)) else { continue }
            for entry in archive.entries where !entry.isDirectory { _ = try? archive.contents(of: entry, maximumBytes: 1 << 20) }
        }
    }

    @Test func theLimitsAreCheckedOnTheDirectory() throws {
        let bytes = try Self.ipa()
        #expect {
            _ = try ZipArchive(
                ZipBytes(bytes),
                limits: ZipLimits(maximumEntries: 3, maximumDirectoryBytes: 1 << 20, maximumNameBytes: 4096, maximumRatio: 1100))
        } throws: { ($0 as? ZipError)?.problem.contains("more than the 3 read") == true }
        #expect {
            _ = try ZipArchive(
                ZipBytes(bytes),
                limits: ZipLimits(maximumEntries: 100, maximumDirectoryBytes: 1 << 20, maximumNameBytes: 20, maximumRatio: 1100))
        } throws: { ($0 as? ZipError)?.problem.contains("longer than 20") == true }
    }
}
