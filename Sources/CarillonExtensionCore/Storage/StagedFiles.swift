import Synchronization

/// Every staged file of the process not yet published or discarded (`FileSystem.StagedFile`), by its
/// temporary name: what a signal that ends the tool removes first, so that a stopped run leaves no
/// `.tmp-*` file beside an output it was writing (a bundle, merged lines, a summary, a report).
public enum StagedFiles {
    private static let paths = Mutex<Set<String>>([])

    static func add(_ path: String) {
        paths.withLock { _ = $0.insert(path) }
    }

    static func remove(_ path: String) {
        paths.withLock { _ = $0.remove(path) }
    }

    /// Whether `path` is staged now (for the tests).
    package static func contains(_ path: String) -> Bool { paths.withLock { $0.contains(path) } }

    /// Removes every staged file, then ends by `end` with the lock still held: a file staged by another
    /// thread meanwhile waits for the lock, and the process ends before it is made.
    public static func removeAll(thenEnd end: () -> Never) -> Never {
        paths.withLock { paths -> Never in
            for path in paths { FileSystem.removeQuietly(path) }
            end()
        }
    }
}
