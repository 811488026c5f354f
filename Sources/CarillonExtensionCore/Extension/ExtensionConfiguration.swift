/// Where the extension keeps its files and how it downloads.
public struct ExtensionConfiguration: Sendable {
    /// Directory for attachment files (the extension's temporary directory on iOS).
    public var attachmentsDirectory: String
    /// The shared container standing in for the App Group; nil means no receipts, as on iOS without
    /// `CarillonAppGroup`.
    public var receiptContainer: String?
    /// How images are downloaded: limits, App Transport Security, extra certificate authorities.
    public var download: DownloadConfiguration
    /// Whether attachment files outlast the runtime (true, as on iOS, where the system takes each one).
    /// When false, the attachments directory is the runtime's own, made for one run: an attachment's
    /// file lasts until ``ExtensionRuntime/finish()``, which removes the directory with every file in
    /// it, and notifications that share an image share its one file.
    @_spi(Tooling) public var keepsAttachments = true

    /// A configuration; without `receiptContainer` no receipts are written.
    public init(attachmentsDirectory: String, receiptContainer: String? = nil, download: DownloadConfiguration = .init()) {
        self.attachmentsDirectory = attachmentsDirectory
        self.receiptContainer = receiptContainer
        self.download = download
    }
}
