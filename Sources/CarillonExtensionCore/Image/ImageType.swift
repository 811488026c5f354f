/// The image formats Apple documents for notification attachments, decided from a file's own bytes.
public enum ImageType: String, Sendable, CaseIterable, Codable {
    /// JPEG (`image/jpeg`).
    case jpeg
    /// PNG (`image/png`).
    case png
    /// GIF (`image/gif`), animated or not.
    case gif

    /// The media type a server names it by (`image/jpeg`): what a data URI or a `Content-Type` says.
    public var mediaType: String {
        switch self {
        case .jpeg: return "image/jpeg"
        case .png: return "image/png"
        case .gif: return "image/gif"
        }
    }

    /// The attachment file's extension.
    public var fileExtension: String {
        switch self {
        case .jpeg: return "jpg"
        case .png: return "png"
        case .gif: return "gif"
        }
    }
}

/// The first bytes that announce each format.
enum ImageSignature {
    static let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
    static let jpeg: [UInt8] = [0xFF, 0xD8]
    static let gif87 = Array("GIF87a".utf8)
    static let gif89 = Array("GIF89a".utf8)
}
