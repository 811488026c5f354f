/// A `Content-Type` that disagrees with the image's own bytes. Carillon decides the type from the
/// bytes, so the image still attaches here; other SDKs pick the attachment's file extension from
/// the header, and iOS then refuses the file: worth a warning.
enum ContentTypeWarning {
    /// The other media types servers send for each detected type (lowercased, without parameters) that
    /// agree with it, besides its own ``ImageType/mediaType``.
    static let aliases: [ImageType: Set<String>] = [
        .jpeg: ["image/jpg", "image/pjpeg"],
        .png: ["image/x-png", "image/apng"],
        .gif: [],
    ]

    /// The warning for `contentType` (as sent, or nil when absent) on an image detected as `detected`,
    /// or nil when they agree or no type was sent.
    static func warning(contentType: String?, detected: ImageType) -> String? {
        guard let contentType else { return nil }
        let mediaType =
            contentType.split(separator: ";", maxSplits: 1, omittingEmptySubsequences: false).first
            .map { String(Substring($0).trimmed()).lowercased() } ?? ""
        if mediaType == detected.mediaType || aliases[detected]?.contains(mediaType) == true { return nil }
        return "the server sent Content-Type \(Quoting.single(contentType)) for \(detected.rawValue) bytes; Carillon goes by the bytes, "
            + "but SDKs that pick the file extension from Content-Type give iOS a file it refuses"
    }
}
