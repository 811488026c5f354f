@_spi(Tooling) import CarillonExtensionCore

/// The distinct images of a report, each embedded once: a card names its image by a CSS class, and one
/// rule per image holds the `data:` URI. A thousand payloads showing the same picture cost one copy.
struct ReportImages {
    struct Image {
        var type: ImageType
        var width: Int?
        var height: Int?
        var bytes: [UInt8]
    }

    /// In order of first appearance.
    private(set) var images: [Image] = []
    /// Keyed by the file's bytes themselves: equal content is one image, and no hash can collide.
    private var indexByBytes: [[UInt8]: Int] = [:]

    /// The class name for `bytes` (`img-3`), adding the image when it is new.
    mutating func add(_ bytes: [UInt8], type: ImageType, width: Int? = nil, height: Int? = nil) -> String {
        if let index = indexByBytes[bytes] { return Self.className(index) }
        let index = images.count
        images.append(Image(type: type, width: width, height: height, bytes: bytes))
        indexByBytes[bytes] = index
        return Self.className(index)
    }

    static func className(_ index: Int) -> String { "img-\(index)" }

    /// One rule per image: the thumbnail and the expanded view share its `data:` URI (an animated GIF
    /// animates in both), and the expanded view keeps the image's proportions.
    var css: String {
        var rules = ""
        for (index, image) in images.enumerated() {
            let name = Self.className(index)
            rules +=
                ".\(name) .thumb,.\(name) .hero{background-image:url(\"data:\(image.type.mediaType);base64,\(Base64.encode(image.bytes))\")}\n"
            if let width = image.width, let height = image.height, width > 0, height > 0 {
                rules += ".\(name) .hero{aspect-ratio:\(width)/\(height)}\n"
            }
        }
        return rules
    }
}
