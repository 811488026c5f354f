extension CarillonStamp {
    /// Why a payload counts as no Carillon notification on the app's side (`didOpen`, `willPresent`, the
    /// Notification Center scan): "not a Carillon notification: <cause>"; nil when it has a delivery id.
    ///
    /// The stamp's warnings are worded for the extension ("...; no receipt"); only the cause is kept.
    var absenceReason: String? {
        guard deliveryID == nil else { return nil }
        var why = warnings.first ?? "no 'carillon' key"
        for suffix in ["; no receipt", "; ignored"] where why.hasSuffix(suffix) { why.removeLast(suffix.count) }
        return "not a Carillon notification: \(why)"
    }
}
