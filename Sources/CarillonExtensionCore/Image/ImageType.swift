/// The image formats Apple documents for notification attachments, decided from a file's own bytes.
public enum ImageType: String, Sendable, CaseIterable, Codable {
    case jpeg
    case png
    case gif

    /// The attachment file's extension.
    public var fileExtension: String {
        switch self {
        case .jpeg: return "jpg"
        case .png: return "png"
        case .gif: return "gif"
        }
    }
}
