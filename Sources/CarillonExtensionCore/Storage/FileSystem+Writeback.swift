extension FileSystem {
    /// How often a file staged piece by piece starts its writeback: at every whole mebibyte.
    package static let writebackStep = 1 << 20

    /// Writes `bytes` to a file being staged piece by piece (``beginStaging(in:mode:)``) that already
    /// holds `written` bytes, and starts writing each mebibyte the piece completes to disk, without
    /// waiting for it. The disk then writes while the rest arrives, and the fsync that finishes the
    /// staging (``finishStaging(_:path:)``) waits for the last mebibyte only, not for the whole file:
    /// the same guarantee, most of its wait overlapped.
    ///
    /// On Linux the start is `posix_fadvise(POSIX_FADV_DONTNEED)` over the range just completed, which
    /// starts the writeback of its dirty pages (and drops none of them: they are dirty, or being
    /// written). Elsewhere nothing more than the write is done. A failure of the hint changes nothing:
    /// the fsync still decides.
    package static func writeStaging(
        _ descriptor: Int32, _ bytes: UnsafeRawBufferPointer, path: String, after written: Int
    ) throws(FileSystemError) {
        try writeAll(descriptor, bytes, path: path)
        let steps = (before: written / writebackStep, after: (written + bytes.count) / writebackStep)
        guard steps.after > steps.before else { return }
        startWriteback(descriptor, from: steps.before * writebackStep, count: (steps.after - steps.before) * writebackStep)
    }

    /// Starts writing `count` bytes of the file from `offset` back to disk, without waiting (Linux).
    private static func startWriteback(_ descriptor: Int32, from offset: Int, count: Int) {
        #if os(Linux)
            _ = system_posix_fadvise(descriptor, COffT(offset), COffT(count), _POSIX_FADV_DONTNEED)
        #endif
    }
}
