/// What the extension reads from the payload's `carillon` key: the delivery id and the image.
///
/// On iOS the key holds an object; the Android form is a JSON string holding that object. Both are
/// accepted. A wrong type anywhere is treated as absent, with a warning that says what was wrong.
@_spi(Tooling) public struct CarillonStamp: Sendable, Equatable {
    /// The delivery id, when `carillon.delivery_id` is a canonical UUID. Nil means "no stamp".
    public var deliveryID: DeliveryID?
    /// The image request the payload makes.
    public var image: ImageRequest
    /// `carillon.image` as written, when it is a string (valid or not).
    var imageText: String? = nil
    /// What was wrong with the `carillon` key, if anything.
    public var warnings: [String]

    /// The image a payload asks for.
    public enum ImageRequest: Sendable, Equatable {
        /// No `carillon.image` key.
        case absent
        /// A valid https URL.
        case url(ImageURL)
        /// A value that cannot be downloaded: its outcome (`invalid-url` or `insecure-url`).
        case rejected(Outcome)
    }

    /// Reads the stamp from a payload's top-level object.
    public init(userInfo: JSONValue) {
        deliveryID = nil
        image = .absent
        warnings = []
        guard let raw = userInfo["carillon"] else { return }

        let stamp: JSONValue
        switch raw {
        case .object:
            stamp = raw
        case .string(let text):
            // The Android form: the object serialised into a string.
            do {
                stamp = try JSONParser.parse(Array(text.utf8))
            } catch {
                warnings.append("'carillon' is a string that is not valid JSON (\(error)); ignored")
                return
            }
            guard stamp.isObject else {
                warnings.append("'carillon' is a string holding \(stamp.typeName), not an object; ignored")
                return
            }
        default:
            warnings.append("'carillon' is \(raw.typeName), not an object; ignored")
            return
        }

        switch stamp["delivery_id"] {
        case nil:
            warnings.append("'carillon' has no delivery_id; no receipt")
        case .string(let text)?:
            if let id = DeliveryID(text) {
                deliveryID = id
            } else {
                warnings.append("carillon.delivery_id \(Quoting.single(text)) is not a UUID; no receipt")
            }
        case let other?:
            warnings.append("carillon.delivery_id is \(other.typeName), not a string; no receipt")
        }

        switch stamp["image"] {
        case nil:
            image = .absent
        case .string(let text)?:
            imageText = text
            do {
                image = .url(try ImageURL(validating: text))
            } catch {
                image = .rejected(error)
            }
        case let other?:
            image = .rejected(Outcome(.invalidURL, "carillon.image is \(other.typeName), not a string"))
        }
    }
}
