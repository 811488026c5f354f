@_spi(Tooling) import CarillonExtensionCore
import CarillonFuzzChecks
import CarillonTestSupport
import Foundation
import Testing

/// `FuzzArguments` reuses one sandbox for all its runs: each run must still start from exactly what a
/// fresh sandbox holds, whatever the run before it made, changed or removed there.
@Suite struct FuzzSandboxTests {
    static func contents(_ root: String) -> [String: String] {
        var found: [String: String] = [:]
        let walker = FileManager.default.enumerator(atPath: root)
        while let path = walker?.nextObject() as? String {
            var isDirectory: ObjCBool = false
            FileManager.default.fileExists(atPath: root + "/" + path, isDirectory: &isDirectory)
            found[path] = isDirectory.boolValue ? "/" : (try? String(contentsOfFile: root + "/" + path, encoding: .utf8)) ?? "?"
        }
        return found
    }

    static func inode(_ path: String) -> UInt64? {
        (try? FileManager.default.attributesOfItem(atPath: path))?[.systemFileNumber] as? UInt64
    }

    /// What a run does in the sandbox.
    enum Run: String, CaseIterable, Sendable {
        case nothing, makesAQueue, addsAReceipt, removesTheReceipt, rewritesAPayload

        func perform(in root: String) throws {
            let receipts = root + "/container/" + ReceiptStore.directoryName
            switch self {
            case .nothing: break
            case .makesAQueue: try FileManager.default.createDirectory(atPath: root + "/queue", withIntermediateDirectories: true)
            case .addsAReceipt: try Data("x".utf8).write(to: URL(fileURLWithPath: receipts + "/new"))
            case .removesTheReceipt:
                for name in try FileManager.default.contentsOfDirectory(atPath: receipts) {
                    try FileManager.default.removeItem(atPath: receipts + "/" + name)
                }
            case .rewritesAPayload: try Data("{}".utf8).write(to: URL(fileURLWithPath: root + "/payloads/a.json"))
            }
        }

        /// Whether the next run finds the container made again (it changed).
        var changesTheContainer: Bool { self == .addsAReceipt || self == .removesTheReceipt }
    }

    @Test(arguments: Run.allCases)
    func eachRunStartsFromAFreshSandbox(_ run: Run) throws {
        let fresh = FuzzSandbox()
        let reused = FuzzSandbox()
        defer {
            FuzzScratch.remove(fresh.root)
            FuzzScratch.remove(reused.root)
        }
        let named = ["payload.json", "payloads", "container"]
        #expect(fresh.prepare(for: named.map { fresh.root + "/" + $0 }))
        #expect(reused.prepare(for: named.map { reused.root + "/" + $0 }))
        let container = Self.inode(reused.root + "/container")
        let payload = Self.inode(reused.root + "/payload.json")
        // Held open, a removed entry's inode cannot be reused by the one made again.
        let held = [open(reused.root + "/container", O_RDONLY), open(reused.root + "/payload.json", O_RDONLY)]
        defer { for descriptor in held { close(descriptor) } }

        try run.perform(in: reused.root)
        reused.reset()
        reused.prepare(for: named.map { reused.root + "/" + $0 })

        #expect(Self.contents(reused.root) == Self.contents(fresh.root), "after \(run)")
        #expect((Self.inode(reused.root + "/container") != container) == run.changesTheContainer, "after \(run)")
        #expect(Self.inode(reused.root + "/payload.json") == payload, "an entry the run left alone is kept")
    }

    @Test func aCommandLineThatNamesNothingMakesNothing() {
        let sandbox = FuzzSandbox()
        #expect(!sandbox.prepare(for: ["process", "-", "--budget", "1"]))
        #expect(!FileManager.default.fileExists(atPath: sandbox.root))
    }
}
