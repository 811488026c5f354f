/// Payload JSON for tests.
public enum Payloads {
    /// A routed payload with a Carillon stamp and, optionally, an image URL.
    public static func routed(image: String?, deliveryID: String = "01937b21-0000-7000-8000-000000000000", extra: String = "") -> String {
        let imagePart = image.map { #","image":"\#($0)""# } ?? ""
        return
            #"{"aps":{"alert":{"title":"Hello","body":"World"},"mutable-content":1\#(extra)},"carillon":{"delivery_id":"\#(deliveryID)"\#(imagePart)}}"#
    }
}
