/// What a replay of one capture is asked about: the payload the device received, an image URL, an
/// entry by its place in the file, or, with none of them, what the capture itself says (a carillon
/// recording's own payload, or every distinct image URL of another exporter's file).
package enum ReplayTarget: Sendable {
    /// The payload, routed as a live run routes it: one that is not routed or names no image is its
    /// own line, with no entry looked for.
    case payload(Payload)
    /// The image of the payload Carillon's server sends (an alert, `mutable-content` 1, this image).
    case url(String)
    /// Entry `index` of the file (from 0, in file order), as the image of such a payload.
    case entry(Int)
    /// The recording's own payload, or every distinct image URL.
    case capture
}
