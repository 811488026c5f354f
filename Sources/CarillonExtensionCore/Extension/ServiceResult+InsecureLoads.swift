extension ServiceResult {
    /// This result with what the extension's App Transport Security exceptions say of its download, as
    /// `policy` (the configuration the download ran under, live or replayed) has them: an exception
    /// allowing insecure HTTP loads for the host of the image URL, a hop or a `Location` changes nothing
    /// (``TransportSecurityPolicy/insecureHTTPLoadsNote(urls:)``), said once among its warnings.
    func notingInsecureHTTPLoads(_ policy: TransportSecurityPolicy) -> ServiceResult {
        let hops = trace?.hops ?? []
        let urls = [imageURL].compactMap { $0 } + hops.map(\.url) + hops.compactMap(\.location)
        guard let note = policy.insecureHTTPLoadsNote(urls: urls) else { return self }
        var noted = self
        noted.warnings.append(note)
        return noted
    }
}
