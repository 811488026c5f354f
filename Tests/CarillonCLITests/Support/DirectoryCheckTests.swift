@_spi(Tooling) import CarillonExtensionCore
import CarillonTestSupport
import Foundation
import Testing

@testable import CarillonCLI

/// SPEC §8: a directory option's path that will not do is a usage error. The decision from a table;
/// the probe against real paths; the commands end to end in `MisconfiguredPathsTests`.
@Suite struct DirectoryCheckTests {
    typealias Probe = DirectoryCheck.Probe

    @Test(
        arguments: [
            (Probe(found: .directory, cannotWrite: nil), DirectoryCheck.Access.create, nil),
            (Probe(found: .directory, cannotWrite: nil), .writeIfPresent, nil),
            (Probe(found: .directory, cannotWrite: "Read-only file system"), .create, "not writable: Read-only file system"),
            (Probe(found: .directory, cannotWrite: "Read-only file system"), .writeIfPresent, "not writable: Read-only file system"),
            (Probe(found: .other("a regular file"), cannotWrite: nil), .create, "is a regular file, not a directory"),
            (
                Probe(found: .other("a FIFO, socket or device"), cannotWrite: nil), .writeIfPresent,
                "is a FIFO, socket or device, not a directory"
            ),
            (Probe(found: .missing(ancestor: "/tmp", ancestorIs: nil), cannotWrite: nil), .create, nil),
            (Probe(found: .missing(ancestor: "/tmp", ancestorIs: nil), cannotWrite: nil), .writeIfPresent, nil),
            (
                Probe(found: .missing(ancestor: "/proc", ancestorIs: nil), cannotWrite: "No such file or directory"), .create,
                "cannot be created in '/proc': No such file or directory"
            ),
            // A queue that batches only reads when it is there: its absence is the command's to say.
            (Probe(found: .missing(ancestor: "/ro", ancestorIs: nil), cannotWrite: "Read-only file system"), .writeIfPresent, nil),
            (
                Probe(found: .missing(ancestor: "/tmp/f", ancestorIs: "a regular file"), cannotWrite: nil), .create,
                "cannot be created: '/tmp/f' is a regular file, not a directory"
            ),
        ] as [(Probe, DirectoryCheck.Access, String?)])
    func decidesFromWhatTheProbeFound(probe: Probe, access: DirectoryCheck.Access, problem: String?) {
        #expect(DirectoryCheck.problem(probe, access: access) == problem)
    }

    @Test func probesRealPaths() throws {
        let work = TemporaryDirectory("directory-check")
        defer { work.remove() }
        let file = try work.write("file", "x")
        #expect(DirectoryCheck.probe(work.path) == Probe(found: .directory, cannotWrite: nil))
        #expect(DirectoryCheck.probe(file) == Probe(found: .other("a regular file"), cannotWrite: nil))
        #expect(
            DirectoryCheck.probe(file + "/a/b") == Probe(found: .missing(ancestor: file, ancestorIs: "a regular file"), cannotWrite: nil))
        #expect(DirectoryCheck.probe(work.file("a/b/c")) == Probe(found: .missing(ancestor: work.path, ancestorIs: nil), cannotWrite: nil))
        let underProc = DirectoryCheck.probe("/proc/carillon-nse")
        #expect(underProc.found == .missing(ancestor: "/proc", ancestorIs: nil) && underProc.cannotWrite != nil)
        // The probe leaves nothing behind.
        #expect(work.contents() == ["file"])
    }
}
