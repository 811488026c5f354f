@_spi(Tooling) import CarillonExtensionCore

extension FuzzChecks {
    // MARK: - FuzzProvisioningProfile

    /// The CMS envelope and the BER beneath it (`FuzzProvisioningProfile`): the envelope is walked once,
    /// as `ProvisioningProfile` walks it, to its content or a refusal with a message; the content is within
    /// the bound (a smaller bound, where the content is larger, refuses it); the profile is read from the
    /// content or refused with a message; the same bytes as DER entitlements decode to a dictionary or are
    /// refused; every element the BER reader walks from the start lies inside the input, its children
    /// inside it.
    public static func provisioningProfile(_ bytes: [UInt8]) throws(FuzzFailure) {
        let limit = ProvisioningProfile.maximumBytes
        switch Result(catching: { () throws(BERError) in try CMSSignedData.content(of: bytes, limit: limit) }) {
        case .success(let content):
            try check(content.count <= limit, "a content of \(content.count) bytes past its bound")
            if content.count > 4096 {
                try check(
                    (try? CMSSignedData.content(of: bytes, limit: 4096)) == nil, "a content of \(content.count) bytes past a bound of 4096")
            }
            switch Result(catching: { () throws(ProvisioningError) in try ProvisioningProfile(signedContent: content) }) {
            case .success(let profile): if let expiry = profile.expirationDate { try timestamp(expiry) }
            case .failure(let error): try check(!error.message.isEmpty, "a profile refused without a message")
            }
        case .failure(let error): try check(!error.message.isEmpty, "an envelope refused without a message")
        }
        switch Result(catching: { () throws(BERError) in try DEREntitlements.decode(bytes) }) {
        case .success(let entitlements): try check(entitlements.members != nil, "DER entitlements that are a \(entitlements.typeName)")
        case .failure(let error): try check(!error.message.isEmpty, "DER entitlements refused without a message")
        }
        try berWalk(BERReader(bytes), at: 0, end: bytes.count, depth: 0)
    }

    private static func berWalk(_ reader: BERReader, at offset: Int, end: Int, depth: Int) throws(FuzzFailure) {
        guard depth < 8, offset < end, let element = try? reader.element(at: offset, limit: end) else { return }
        try check(element.contentStart <= element.contentEnd && element.contentEnd <= element.end, "an element's bounds out of order")
        try check(offset < element.contentStart && element.end <= end, "an element outside its parent")
        guard element.constructed else { return }
        var position = element.contentStart
        for _ in 0..<16 where position < element.contentEnd {
            guard let child = try? reader.element(at: position, limit: element.contentEnd) else { return }
            try check(child.end <= element.contentEnd && child.end > position, "a child outside its element")
            try berWalk(reader, at: position, end: element.contentEnd, depth: depth + 1)
            position = child.end
        }
    }
}
