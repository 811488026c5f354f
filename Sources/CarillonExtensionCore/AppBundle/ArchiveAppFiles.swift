/// An app's files in a zip archive (an .ipa, a zip of an .app or an .xcarchive): the archive checked
/// whole when opened (``ZipArchive``), its members found by name, directories inferred from the
/// members' paths (zips need not list them).
package struct ArchiveAppFiles: AppFiles {
    let archive: ZipArchive
    private let files: [String: ZipEntry]
    private let directories: [String: Set<String>]

    package init(_ archive: ZipArchive) {
        self.archive = archive
        var files: [String: ZipEntry] = [:]
        var directories: [String: Set<String>] = [:]
        for entry in archive.entries {
            // `./Payload/…` and `Payload//…` name the same place as `Payload/…`.
            let components = entry.name.split(separator: "/", omittingEmptySubsequences: true).map(String.init).filter { $0 != "." }
            guard !components.isEmpty else { continue }
            if !entry.isDirectory { files[components.joined(separator: "/")] = entry }
            let directoryCount = entry.isDirectory ? components.count : components.count - 1
            var parent = ""
            for index in 0..<directoryCount {
                directories[parent, default: []].insert(components[index])
                parent = Self.join(parent, components[index])
            }
        }
        self.files = files
        self.directories = directories
    }

    package func subdirectories(of directory: String) throws(AppReadError) -> [String] {
        (directories[directory] ?? []).sorted()
    }

    package func isFile(_ path: String) -> Bool { files[path] != nil }

    package func isSymbolicLink(_ path: String) -> Bool { files[path]?.isSymbolicLink == true }

    package func size(of path: String) -> Int? { files[path]?.uncompressedSize }

    package func read(_ path: String, maximumBytes: Int) throws(AppReadError) -> [UInt8] {
        guard let entry = files[path] else { throw AppReadError(member: path, "missing") }
        do {
            return try archive.contents(of: entry, maximumBytes: maximumBytes)
        } catch {
            throw AppReadError(member: error.member ?? path, error.problem)
        }
    }

    package func read(_ path: String, ranges: [Range<Int>]) throws(AppReadError) -> [[UInt8]] {
        guard let entry = files[path] else { throw AppReadError(member: path, "missing") }
        do {
            return try archive.ranges(of: entry, ranges)
        } catch {
            throw AppReadError(member: error.member ?? path, error.problem)
        }
    }
}
