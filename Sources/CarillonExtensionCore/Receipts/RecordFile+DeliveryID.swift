extension RecordFile {
    /// A required delivery id member (the receipts' and the events' key).
    func deliveryID(_ key: String) throws(RecordError) -> DeliveryID {
        let text = try string(key)
        guard let id = DeliveryID(text) else { throw RecordError("\"\(key)\" \(RecordFile.quote(text)) is not a UUID") }
        return id
    }
}
