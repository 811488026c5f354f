extension RecordedTransferSource.Gap {
    /// The detail of the `undetermined` outcome a download with this gap ends with: what is missing,
    /// in the recording's own words where it has them; `called` names the recording ("the HAR").
    package func detail(calling called: String) -> String {
        switch self {
        case .hop(let url): "redirect target not in \(called): \(Quoting.single(url))"
        case .body(_, let why): why
        case .response(let url, let why): "no response for \(Quoting.single(url)) in \(called): \(why)"
        }
    }
}
