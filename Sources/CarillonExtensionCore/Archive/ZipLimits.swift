/// The bounds a zip archive from a stranger is read within. Every one is checked on the central
/// directory, before any member is read.
package struct ZipLimits: Sendable, Equatable {
    /// The most members (an .ipa of a large game holds tens of thousands).
    package var maximumEntries: Int
    /// The largest central directory read into memory, in bytes.
    package var maximumDirectoryBytes: Int
    /// The longest member name, in bytes (Linux's `PATH_MAX`).
    package var maximumNameBytes: Int
    /// The most a deflated member may claim to grow: deflate's own limit is about 1,032 to 1.
    package var maximumRatio: Int

    /// 200,000 members, a 32 MiB directory, names of 4,096 bytes, and a ratio of 1,100.
    package static let standard = ZipLimits(
        maximumEntries: 200_000, maximumDirectoryBytes: 32 << 20, maximumNameBytes: 4096, maximumRatio: 1100)

    package init(maximumEntries: Int, maximumDirectoryBytes: Int, maximumNameBytes: Int, maximumRatio: Int) {
        self.maximumEntries = maximumEntries
        self.maximumDirectoryBytes = maximumDirectoryBytes
        self.maximumNameBytes = maximumNameBytes
        self.maximumRatio = maximumRatio
    }
}
