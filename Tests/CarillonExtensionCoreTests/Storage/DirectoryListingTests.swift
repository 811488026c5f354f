import CarillonTestSupport
import Foundation
import Testing

@_spi(Tooling) @testable import CarillonExtensionCore

/// A listing is sorted by its names' bytes: `memcmp` then the shorter first, the order
/// `lexicographicallyPrecedes` gives for unsigned bytes.
@Suite struct DirectoryListingTests {
    static let names: [[UInt8]] = [
        [], [0x61], [0x61, 0x62], [0x62], [0x41], [0x7F], [0x80], [0xFF], [0xFF, 0x00], [0x61, 0x00], [0x30, 0x31, 0x32],
        Array("01937b21-0000-7000-8000-000000000000.receipt".utf8), Array("01937b21-0000-7000-8000-000000000001.receipt".utf8),
        Array(".tmp-1".utf8), Array("é".utf8),
    ]

    @Test func precedesIsTheBytesOrder() {
        for a in Self.names {
            for b in Self.names {
                #expect(DirectoryListing.precedes(a, b) == a.lexicographicallyPrecedes(b), "\(a) \(b)")
            }
        }
    }

    @Test func entriesAreSortedByTheirNamesBytes() throws {
        let directory = TemporaryDirectory("listing")
        defer { directory.remove() }
        let created = Self.names.filter { !$0.isEmpty && !$0.contains(0) }
        for name in created {
            var path = Array(directory.path.utf8) + [UInt8(ascii: "/")] + name
            path.append(0)
            let descriptor = path.withUnsafeBufferPointer {
                open(UnsafeRawPointer($0.baseAddress!).assumingMemoryBound(to: CChar.self), O_CREAT | O_WRONLY, 0o600)
            }
            #expect(descriptor >= 0)
            close(descriptor)
        }
        let listed = try DirectoryListing.entries(directory.path).map { FileName.bytes($0.name) }
        #expect(listed == created.sorted { $0.lexicographicallyPrecedes($1) })
    }
}
