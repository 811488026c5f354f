import Dispatch

extension FileSystem {
    /// How many threads ``removeFiles(_:)`` removes files on, at most.
    static let removalThreads = 4

    /// Removes every file of `paths` (``removeFile(_:)``: one already gone is fine) and returns, in the
    /// same order, nil for each removed or why it could not be. Many files are removed on up to
    /// ``removalThreads`` threads at once: on a disk an `unlink` waits for the file system's journal
    /// and block bitmaps, and those waits overlap (1,000 receipts on this VM's ext4: 2.5 s one at a
    /// time, 0.4 s four at a time); nothing is promised about which goes first.
    package static func removeFiles(_ paths: [String]) -> [FileSystemError?] {
        let threads = min(removalThreads, paths.count / 64 + 1)
        guard threads > 1 else {
            return paths.map { path in
                do throws(FileSystemError) {
                    try removeFile(path)
                    return nil
                } catch {
                    return error
                }
            }
        }
        let results = UnsafeMutableBufferPointer<FileSystemError?>.allocate(capacity: paths.count)
        results.initialize(repeating: nil)
        defer {
            results.deinitialize()
            results.deallocate()
        }
        // Each thread writes only its own stripe of the results; the group's wait publishes them.
        nonisolated(unsafe) let shared = results
        let group = DispatchGroup()
        for thread in 0..<threads {
            DispatchQueue(label: "carillon.remove-files.\(thread)").async(group: group) {
                for index in stride(from: thread, to: paths.count, by: threads) {
                    do throws(FileSystemError) {
                        try removeFile(paths[index])
                    } catch {
                        shared[index] = error
                    }
                }
            }
        }
        group.wait()
        return Array(results)
    }
}
