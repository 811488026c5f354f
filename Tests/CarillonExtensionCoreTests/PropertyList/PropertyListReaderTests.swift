import CarillonTestSupport
import Foundation
import Testing

@_spi(Tooling) @testable import CarillonExtensionCore

/// The property list reader from tables (each XML construct, each binary structure and each way a binary
/// list lies), and against `plistutil` (Debian libplist-utils) on real and generated files in both forms.
@Suite struct PropertyListReaderTests {
    static func read(_ text: String) throws(PropertyListError) -> PropertyListValue {
        try PropertyListReader.standard.read(Array(text.utf8))
    }

    @Test(arguments: [
        ("<plist><string>a&lt;b&amp;&#x263A;&#65;</string></plist>", PropertyListValue.string("a<b&☺A")),
        (
            "<?xml version=\"1.0\"?>\n<!DOCTYPE plist PUBLIC \"-//Apple//DTD PLIST 1.0//EN\" \"x\">\n<plist version=\"1.0\"><true/></plist>",
            .bool(true)
        ),
        ("<plist><integer> -9223372036854775808 </integer></plist>", .integer(Int64.min)),
        ("<plist><integer>0x7FFF</integer></plist>", .integer(0x7FFF)),
        ("<plist><real>2.5e1</real></plist>", .real(25)),
        ("<plist><date>2027-06-01T00:00:00Z</date></plist>", .date(Timestamp(iso8601: "2027-06-01T00:00:00Z")!)),
        ("<plist><data>\n\tAAEC\n\tAw==\n</data></plist>", .data([0, 1, 2, 3])),
        (
            "<plist><dict><key>a</key><array><false/><string/><dict/></array><!-- c --><key>b</key><string><![CDATA[<x>]]></string></dict></plist>",
            .dictionary([("a", .array([.bool(false), .string(""), .dictionary([])])), ("b", .string("<x>"))])
        ),
        ("\u{FEFF}<array/>", .array([])),
        (
            "<plist><dict><key>k</key><string>1</string><key>k</key><string>2</string></dict></plist>",
            .dictionary([("k", .string("1")), ("k", .string("2"))])
        ),
    ])
    func readsXML(text: String, expected: PropertyListValue) throws {
        #expect(try Self.read(text) == expected)
    }

    @Test(arguments: [
        ("", "an empty file"), ("hello", "neither XML nor"), ("<plist><string>a</plist>", "</string> was expected"),
        ("<plist><dict><string>a</string></dict></plist>", "needs a <key>"), ("<plist><dict><key>a</key></dict></plist>", "has no value"),
        ("<plist><integer>12x</integer></plist>", "<integer>"), ("<plist><integer>9223372036854775808</integer></plist>", "outside"),
        ("<plist><date>yesterday</date></plist>", "not ISO 8601"), ("<plist><data>!!</data></plist>", "not base64"),
        ("<plist><string>&bogus;</string></plist>", "unknown entity"), ("<plist><string>&#0;</string></plist>", "names no character"),
        ("<plist><foo/></plist>", "unknown element <foo>"), ("<plist><key>a</key></plist>", "outside a <dict>"),
        ("<plist><true/></plist>trailing", "content after"), ("<plist><!-- never closed", "not closed"),
        (
            "<plist>" + String(repeating: "<array>", count: 65) + String(repeating: "</array>", count: 65) + "</plist>",
            "nested deeper than 64"
        ),
    ])
    func refusesBrokenXML(text: String, says: String) {
        #expect {
            _ = try Self.read(text)
        } throws: { error in
            (error as? PropertyListError)?.message.contains(says) == true
        }
    }

    @Test func refusesTextThatIsNotUTF8() {
        let bytes = Array("<plist><string>".utf8) + [0xFF] + Array("</string></plist>".utf8)
        #expect(throws: PropertyListError("XML property list, line 1: <string> text that is not UTF-8")) {
            _ = try PropertyListReader.standard.read(bytes)
        }
    }

    /// A binary list of `objects` (their encodings, in order), references of one byte, offsets of `offsetSize`.
    static func bplist(
        _ objects: [[UInt8]], top: UInt64 = 0, count: UInt64? = nil, table: Int? = nil, offsetSize: UInt8 = 1, refSize: UInt8 = 1
    )
        -> [UInt8]
    {
        var bytes = Array("bplist00".utf8)
        var offsets: [Int] = []
        for object in objects {
            offsets.append(bytes.count)
            bytes += object
        }
        let tableOffset = bytes.count
        for offset in offsets { bytes += (0..<Int(offsetSize)).reversed().map { UInt8(truncatingIfNeeded: offset >> (8 * $0)) } }
        func be(_ value: UInt64) -> [UInt8] { (0..<8).reversed().map { UInt8(truncatingIfNeeded: value >> (8 * UInt64($0))) } }
        bytes += [0, 0, 0, 0, 0, 0, offsetSize, refSize] + be(count ?? UInt64(objects.count)) + be(top) + be(UInt64(table ?? tableOffset))
        return bytes
    }

    @Test func readsBinaryObjects() throws {
        // dict { "a": [true, 3, "é"], "d": 2.0 }; "é" as UTF-16.
        let list = Self.bplist([
            [0xD2, 1, 2, 3, 7], [0x51, 0x61], [0x51, 0x64], [0xA3, 4, 5, 6], [0x09], [0x10, 3], [0x61, 0x00, 0xE9],
            [0x23, 0x40, 0, 0, 0, 0, 0, 0, 0],
        ])
        #expect(
            try PropertyListReader.standard.read(list)
                == .dictionary([("a", .array([.bool(true), .integer(3), .string("é")])), ("d", .real(2))]))
        let date = Self.bplist([[0x33, 0x41, 0xC6, 0xC6, 0x6A, 0xE0, 0, 0, 0]])  // 2026-09-11T…: 0x41C6C66AE0000000 s after 2001
        #expect(try PropertyListReader.standard.read(date).date != nil)
        let extended = Self.bplist([[0x4F, 0x10, 0x03, 1, 2, 3]])  // data with its count in an integer after the marker
        #expect(try PropertyListReader.standard.read(extended) == .data([1, 2, 3]))
    }

    @Test(arguments: [
        (bplist([[0x09]], top: 1), "the top object 1 is not one of"),
        (bplist([[0x09]], count: 1000), "object count"),
        (bplist([[0x09]], table: 4), "offset table at 4"),
        (bplist([[0xA1, 5]]), "refers to object 5 of 1"),
        (bplist([[0xA1, 0]]), "contains itself (a cycle)"),
        (bplist([[0x5F, 0x10, 0x7F]]), "a count of 127"),
        (bplist([[0x5F, 0x10, 0x02, 0x61]]), "run past the objects"),
        (bplist([[0x00]]), "is not a value"),
        (bplist([[0x80, 0x01]]), "not a type property lists use"),
        (bplist([[0xD1, 1, 1], [0x10, 1]]), "a dict key that is a integer"),
        (bplist([[0x14] + [UInt8](repeating: 0xFF, count: 16)]), "outside 64-bit"),
        (bplist([[0x51, 0xC3]]), "over 0x7F"),
        (bplist([[0x61, 0xD8, 0x00]]), "unpaired surrogate"),
        (bplist([[0x09]], offsetSize: 9), "offset size of 9"),
        (Array("bplist00".utf8) + [0x09], "too short for a trailer"),
    ])
    func refusesLyingBinaryLists(bytes: [UInt8], says: String) {
        #expect {
            _ = try PropertyListReader.standard.read(bytes)
        } throws: { error in
            let message = (error as? PropertyListError)?.message ?? ""
            return message.hasPrefix("binary property list: ") && message.contains(says)
        }
    }

    /// A binary list that names one object many times (a tree of shared references: 2^40 values if
    /// expanded) stops at the bound on values, without expanding it.
    @Test func sharedReferencesAreBoundedNotExpanded() {
        var objects: [[UInt8]] = []
        for index in 0..<40 { objects.append([0xA2, UInt8(index + 1), UInt8(index + 1)]) }
        objects.append([0x09])
        #expect(throws: PropertyListError.self) { _ = try PropertyListReader.standard.read(Self.bplist(objects)) }
    }

    /// Each property list of the generated apps and of the real .ipa, in the form it was written, read
    /// equal to `plistutil`'s conversion of it to the other form.
    @Test func agreesWithPlistutil() throws {
        let plistutil = try RequiredPackage.command("plistutil", package: "libplist-utils")
        let apps = try GeneratedApps.get()
        let work = TemporaryDirectory("plistutil")
        defer { work.remove() }
        let real = work.file("real")
        _ = try Command.run("/usr/bin/env", ["python3", "-m", "zipfile", "-e", Paths.testAssets("Apps/Real/very-capable-app.ipa"), real])
        let healthy = try #require(apps.app("healthy").forms["app"])
        let files = [
            healthy + "/Info.plist", healthy + "/PlugIns/NotificationService.appex/Info.plist",
            real + "/Payload/very-capable-app.app/Info.plist", real + "/Payload/very-capable-app.app/_CodeSignature/CodeResources",
        ]
        for (index, file) in files.enumerated() {
            let original = try [UInt8](Data(contentsOf: URL(fileURLWithPath: file)))
            let form = try #require(PropertyListReader.form(of: original))
            let converted = work.file("converted-\(index)")
            let result = try Command.run(plistutil, ["-i", file, "-o", converted, "-f", form == .xml ? "bin" : "xml"])
            #expect(result.status == 0, "\(result.standardError)")
            let other = try [UInt8](Data(contentsOf: URL(fileURLWithPath: converted)))
            #expect(PropertyListReader.form(of: other) != form)
            let (a, b) = (try PropertyListReader.standard.read(original), try PropertyListReader.standard.read(other))
            #expect(a == b, "\(file)")
            #expect(a.members?.isEmpty == false)
        }
    }
}
