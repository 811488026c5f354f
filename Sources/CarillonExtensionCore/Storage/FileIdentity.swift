/// What tells one version of a file from another without reading it: device, inode, size, and the
/// modification and change times to the nanosecond (`lstat`). Files of ours are replaced, never
/// written in place, so an unchanged identity means unchanged bytes.
package struct FileIdentity: Sendable, Hashable {
    package let device: UInt64
    package let inode: UInt64
    let size: Int64
    let modified: Int64
    let changed: Int64

    /// The identity of what is at `path` (a link is itself), or nil when nothing is there or it
    /// cannot be inspected.
    package init?(_ path: String) {
        var info = CStat()
        guard FileName.withCString(path, { system_lstat($0, &info) }) == 0 else { return nil }
        device = UInt64(info.st_dev)
        inode = UInt64(info.st_ino)
        size = Int64(info.st_size)
        #if canImport(Darwin)
            let (mtime, ctime) = (info.st_mtimespec, info.st_ctimespec)
        #else
            let (mtime, ctime) = (info.st_mtim, info.st_ctim)
        #endif
        modified = Int64(mtime.tv_sec) &* 1_000_000_000 &+ Int64(mtime.tv_nsec)
        changed = Int64(ctime.tv_sec) &* 1_000_000_000 &+ Int64(ctime.tv_nsec)
    }
}
