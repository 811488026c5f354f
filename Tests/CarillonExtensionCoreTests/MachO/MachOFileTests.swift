import CarillonTestSupport
import Foundation
import Testing

@_spi(Tooling) @testable import CarillonExtensionCore

/// The Mach-O reader against the toolchain's `llvm-objdump --macho` on the real signed executable and on
/// generated thin and fat ones; every way a header, a load command or a superblob lies, refused with a
/// sentence; and a fetch of ranges that reads only what it needs.
@Suite struct MachOFileTests {
    /// The toolchain's own `llvm-objdump`, beside `swift` on the PATH (or Debian's `llvm`).
    static func objdump() throws -> String {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
        for directory in path.split(separator: ":") where FileManager.default.isExecutableFile(atPath: "\(directory)/swift") {
            let toolchain = URL(fileURLWithPath: "\(directory)/swift").resolvingSymlinksInPath().deletingLastPathComponent().path
            if FileManager.default.isExecutableFile(atPath: toolchain + "/llvm-objdump") { return toolchain + "/llvm-objdump" }
        }
        return try RequiredPackage.command("llvm-objdump", package: "llvm")
    }

    static func realExecutable(_ work: TemporaryDirectory) throws -> String {
        _ = try Command.run(
            "/usr/bin/env", ["python3", "-m", "zipfile", "-e", Paths.testAssets("Apps/Real/very-capable-app.ipa"), work.path])
        return work.file("Payload/very-capable-app.app/very-capable-app")
    }

    /// The code signature's place and the encryption as llvm-objdump reads them.
    static func oracle(_ path: String) throws -> (dataoff: Int?, datasize: Int?, cryptid: Int?) {
        let output = try Command.run(try objdump(), ["--macho", "--private-headers", path]).standardOutput
        let lines = output.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        func value(_ name: String, after command: String) -> Int? {
            guard let start = lines.firstIndex(of: "cmd \(command)") else { return nil }
            return lines[start...].first { $0.hasPrefix(name + " ") }.flatMap { Int($0.split(separator: " ").last ?? "") }
        }
        return (
            value("dataoff", after: "LC_CODE_SIGNATURE"), value("datasize", after: "LC_CODE_SIGNATURE"),
            value("cryptid", after: "LC_ENCRYPTION_INFO_64")
        )
    }

    @Test func readsTheRealSignedExecutableAsLLVMDoes() throws {
        let work = TemporaryDirectory("macho-real")
        defer { work.remove() }
        let path = try Self.realExecutable(work)
        let file = try MachOFile.read([UInt8](Data(contentsOf: URL(fileURLWithPath: path))))
        let (dataoff, datasize, _) = try Self.oracle(path)
        #expect(!file.isFat && file.slices.count == 1 && file.slices[0].architecture == "arm64")
        #expect(file.slices[0].signatureRange == dataoff.flatMap { offset in datasize.map { offset..<(offset + $0) } })
        let signature = try #require(file.slices[0].codeSignature)
        #expect(signature.hasCodeDirectory && signature.identifier == "org.fastlane.very-capable-app")
        let entitlements = try PropertyListReader.standard.read(try #require(signature.entitlements))
        #expect(entitlements["application-identifier"]?.string?.hasSuffix(".org.fastlane.very-capable-app") == true)
    }

    @Test(arguments: ["healthy", "fat-der-encrypted"])
    func readsGeneratedExecutablesAsLLVMDoes(app: String) throws {
        let path = try #require(try GeneratedApps.get().app(app).forms["app"]) + "/Carillon"
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        let file = try MachOFile.read(bytes)
        if app == "healthy" {
            let (dataoff, datasize, _) = try Self.oracle(path)
            #expect(file.slices[0].signatureRange == dataoff!..<(dataoff! + datasize!))
        } else {
            let universal = try Command.run(try Self.objdump(), ["--macho", "--universal-headers", path]).standardOutput
            #expect(universal.contains("nfat_arch 2"))
            #expect(file.isFat && file.slices.map(\.architecture) == ["arm", "arm64"])
            #expect(file.slices.allSatisfy { $0.cryptID == 1 && $0.codeSignature?.hasCodeDirectory == true })
        }
        #expect(file.slices[0].codeSignature?.teamIdentifier == "ABCDE12345")
    }

    /// Only the header window and the signature are fetched: three ranges for a thin file.
    @Test func fetchesOnlyWhatItNeeds() throws {
        let path = try #require(try GeneratedApps.get().app("healthy").forms["app"]) + "/Carillon"
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        var asked: [Range<Int>] = []
        _ = try MachOFile.read(size: bytes.count) { ranges throws(MachOError) in
            asked += ranges
            return ranges.map { Array(bytes[$0]) }
        }
        #expect(asked.count == 2)
        #expect(asked.reduce(0) { $0 + $1.count } < bytes.count + 4096)
    }

    static func patched(_ bytes: [UInt8], _ offset: Int, _ value: UInt32, bigEndian: Bool = false) -> [UInt8] {
        var copy = bytes
        for index in 0..<4 {
            copy[offset + index] = UInt8(truncatingIfNeeded: bigEndian ? value >> (8 * (3 - index)) : value >> (8 * index))
        }
        return copy
    }

    @Test func refusesEveryLie() throws {
        let path = try #require(try GeneratedApps.get().app("healthy").forms["app"]) + "/Carillon"
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        let signature = try #require(try MachOFile.read(bytes).slices[0].signatureRange)
        let cases: [([UInt8], String)] = [
            (Array(bytes[..<6]), "too short"),
            (Self.patched(bytes, 0, 0x1234_5678), "not a Mach-O file"),
            (Self.patched(bytes, 20, 0x7FFF_0000), "sizeofcmds"),
            (Self.patched(bytes, 16, 1000), "ncmds of 1000"),
            (Self.patched(bytes, 32 + 4, 6), "says 6 bytes"),
            (Self.patched(bytes, 32 + 4, 0x100), "with 88 left of sizeofcmds"),
            (Self.patched(bytes, signature.lowerBound, 0x1, bigEndian: true), "no code signature superblob"),
            (Self.patched(bytes, signature.lowerBound + 8, 0x0FFF_FFFF, bigEndian: true), "indexing"),
            (Self.patched(bytes, signature.lowerBound + 16, 0x7FFF_0000, bigEndian: true), "outside its superblob"),
            (Array(bytes[..<(signature.lowerBound + 100)]), "past the file's"),
            ([0xCA, 0xFE, 0xBA, 0xBE, 0, 0, 0, 45] + [UInt8](repeating: 0, count: 64), "45 architectures"),
            ([0xCA, 0xFE, 0xBA, 0xBE, 0, 0, 0, 1, 1, 0, 0, 12, 0, 0, 0, 0, 0, 0, 0x10, 0, 0, 1, 0, 0, 0, 0, 0, 14], "outside the file"),
        ]
        for (bytes, says) in cases {
            #expect {
                _ = try MachOFile.read(bytes)
            } throws: { error in
                (error as? MachOError)?.message.contains(says) == true
            }
        }
    }

    /// Random damage to the header, the commands and the signature: refused with a sentence, never a trap.
    @Test func randomDamageNeverTraps() throws {
        let path = try #require(try GeneratedApps.get().app("fat-der-encrypted").forms["app"]) + "/Carillon"
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        let file = try MachOFile.read(bytes)
        let hot =
            [0..<64, 0x4000..<(0x4000 + 200), 0x10000..<(0x10000 + 200)]
            + file.slices.compactMap { slice in
                slice.signatureRange.map { (slice.offset + $0.lowerBound)..<(slice.offset + $0.lowerBound + 200) }
            }
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<500 {
            var copy = bytes
            for _ in 0..<2 {
                let range = hot.randomElement(using: &generator)!
                copy[Int.random(in: range, using: &generator)] = UInt8.random(in: 0...255, using: &generator)
            }
            do { _ = try MachOFile.read(copy) } catch { #expect(!error.message.isEmpty) }
        }
    }
}
