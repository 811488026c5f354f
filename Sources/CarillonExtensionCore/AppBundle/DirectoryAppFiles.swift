/// An app's files in a directory (an .app, an .xcarchive, an unzipped .ipa): read without following a
/// symbolic link anywhere inside it, so that nothing outside the directory is read in its name.
package struct DirectoryAppFiles: AppFiles {
    /// The directory given.
    package let root: String

    package init(root: String) {
        self.root = root
    }

    private func path(_ relative: String) -> String { relative.isEmpty ? root : FileSystem.join(root, relative) }

    /// Whether every component of `relative` is what it seems: no symbolic link on the way.
    private func noLinks(_ relative: String) -> Bool {
        var walked = ""
        for component in relative.split(separator: "/") {
            walked = Self.join(walked, String(component))
            if (try? FileSystem.kind(path(walked))) == .symbolicLink { return false }
        }
        return true
    }

    package func subdirectories(of directory: String) throws(AppReadError) -> [String] {
        guard noLinks(directory) else { throw AppReadError(member: directory, "a symbolic link, not followed") }
        // A directory that is not there has no subdirectories (an .xcarchive has no Payload/).
        guard (try? FileSystem.kind(path(directory))) == .directory else { return [] }
        do {
            let entries = try DirectoryListing.entries(path(directory), followLink: false)
            let kind = { (entry: DirectoryEntry) in entry.kind ?? (try? FileSystem.kind(path(Self.join(directory, entry.name)))) }
            return entries.filter { kind($0) == .directory }.map(\.name).sorted()
        } catch {
            throw AppReadError(member: directory.isEmpty ? nil : directory, "cannot be listed: \(error)")
        }
    }

    package func isFile(_ path: String) -> Bool { noLinks(path) && (try? FileSystem.kind(self.path(path))) == .regularFile }

    package func isSymbolicLink(_ path: String) -> Bool { !noLinks(path) }

    package func size(of path: String) -> Int? { isFile(path) ? FileSystem.size(self.path(path)) : nil }

    package func read(_ path: String, maximumBytes: Int) throws(AppReadError) -> [UInt8] {
        guard noLinks(path) else { throw AppReadError(member: path, "a symbolic link, not followed") }
        do {
            return try FileSystem.readFile(self.path(path), limit: maximumBytes, policy: .regularFileNoFollow)
        } catch {
            throw AppReadError(member: path, "cannot be read: \(error)")
        }
    }

    package func read(_ path: String, ranges: [Range<Int>]) throws(AppReadError) -> [[UInt8]] {
        guard noLinks(path) else { throw AppReadError(member: path, "a symbolic link, not followed") }
        do {
            let file = try RandomAccessFile(self.path(path))
            var pieces: [[UInt8]] = []
            for range in ranges {
                let bytes = try file.read(offset: range.lowerBound, count: range.count)
                guard bytes.count == range.count else { throw AppReadError(member: path, "ends before byte \(range.upperBound)") }
                pieces.append(bytes)
            }
            return pieces
        } catch let error as AppReadError {
            throw error
        } catch {
            throw AppReadError(member: path, "cannot be read: \(error)")
        }
    }
}
