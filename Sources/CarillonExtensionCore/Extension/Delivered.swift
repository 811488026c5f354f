/// How the extension delivered the notification.
public enum Delivered: String, Sendable {
    /// The original content plus the image attachment.
    case modified
    /// The original content, unchanged.
    case original
}
