@_spi(Tooling) import CarillonExtensionCore

/// Distinct image URLs that answered byte-identical images (SPEC §12): three or more are most likely a
/// CDN's placeholder or error image, which every check passes. Found cheaply: only images of the same
/// type, size and dimensions are compared, and only those files are hashed (SHA-256), once each.
enum IdenticalImages {
    /// One set of URLs that answered the same bytes.
    struct Group: Equatable {
        var digest: String
        var urls: [String]
        var type: ImageType
        var byteCount: Int

        /// The summary's warning.
        var warning: String {
            "\(urls.count) distinct image URLs answered byte-identical \(type.rawValue) images of \(byteCount) bytes (sha256 \(digest)), "
                + "a CDN's placeholder or error image? First: \(urls.prefix(3).joined(separator: ", "))"
        }
    }

    /// The fewest distinct URLs that make a warning.
    static let threshold = 3

    /// The groups among a campaign's attached images; `digest` gives an image's SHA-256 (nil when it is
    /// not known): by default its attached file's, read now; a merge's, the one its bundle carried.
    static func find(_ images: CampaignImages, digest: (CampaignImages.Image) -> String? = { $0.attachmentPath.flatMap(fileDigest) })
        -> [Group]
    {
        var candidates: [String: [CampaignImages.Image]] = [:]
        for image in images.images where image.outcome.reason == .attached && image.attachmentPath != nil {
            guard let type = image.type, let bytes = image.byteCount else { continue }
            let size = image.trace?.image.map { "\($0.width)x\($0.height)" } ?? "?"
            candidates["\(type.rawValue) \(bytes) \(size)", default: []].append(image)
        }
        var groups: [Group] = []
        for (_, sameSize) in candidates.sorted(by: { $0.key < $1.key }) where sameSize.count >= threshold {
            var byDigest: [String: [CampaignImages.Image]] = [:]
            for image in sameSize {
                if let hex = digest(image) { byDigest[hex, default: []].append(image) }
            }
            for (hex, same) in byDigest.sorted(by: { $0.key < $1.key }) where same.count >= threshold {
                groups.append(Group(digest: hex, urls: same.map(\.url), type: same[0].type!, byteCount: same[0].byteCount!))
            }
        }
        return groups
    }

    /// A file's SHA-256 in hex, read in 64 KiB pieces; nil when it cannot be read.
    static func fileDigest(_ path: String) -> String? {
        var hash = SHA256()
        do {
            try FileSystem.readChunks(ofRegularFile: path) { (piece) throws(FileSystemError) -> Bool in
                hash.update(UnsafeRawBufferPointer(piece))
                return true
            }
        } catch {
            return nil
        }
        return hash.hex()
    }
}
