/// An `embedded.mobileprovision`: the property list inside its CMS envelope (``CMSSignedData``), and the
/// fields the app's checks read. Apple's signature on it is not verified.
package struct ProvisioningProfile: Sendable, Equatable {
    /// `Name`.
    package var name: String?
    /// `TeamIdentifier[0]`: the team, not the App ID prefix.
    package var teamIdentifier: String?
    /// `ApplicationIdentifierPrefix[0]`, or the team where there is none.
    package var applicationIdentifierPrefix: String?
    /// `Entitlements.application-identifier`: `PREFIX.bundle-id`, or a wildcard (`PREFIX.*`,
    /// `PREFIX.com.example.*`).
    package var applicationIdentifier: String?
    /// `ExpirationDate`.
    package var expirationDate: Timestamp?
    /// `Entitlements.aps-environment`: `development` or `production`.
    package var apsEnvironment: String?
    /// `Entitlements.com.apple.security.application-groups`.
    package var appGroups: [String]
    /// `Entitlements`, whole.
    package var entitlements: PropertyListValue?

    /// The largest profile read, and the largest plist inside it (real ones are a few KiB to a few
    /// hundred KiB, with their device lists).
    package static let maximumBytes = 4 << 20

    /// The profile in `bytes`: the CMS envelope walked to its content, read as a property list.
    ///
    /// - Throws: ``ProvisioningError`` saying which layer is broken.
    package init(_ bytes: [UInt8]) throws(ProvisioningError) {
        let content: [UInt8]
        do {
            content = try CMSSignedData.content(of: bytes, limit: Self.maximumBytes)
        } catch {
            throw ProvisioningError("its CMS envelope: \(error.message)")
        }
        try self.init(signedContent: content)
    }

    /// The profile whose CMS envelope holds `content` (``CMSSignedData/content(of:limit:)``): read as a
    /// property list.
    ///
    /// - Throws: ``ProvisioningError`` when it is not a property list holding a dict.
    package init(signedContent content: [UInt8]) throws(ProvisioningError) {
        let plist: PropertyListValue
        do {
            plist = try PropertyListReader.standard.read(content)
        } catch {
            throw ProvisioningError("the property list it signs: \(error.message)")
        }
        guard plist.members != nil else { throw ProvisioningError("the property list it signs is a \(plist.typeName), not a dict") }
        self.init(plist: plist)
    }

    /// The fields of a profile's property list.
    package init(plist: PropertyListValue) {
        name = plist["Name"]?.string
        teamIdentifier = plist["TeamIdentifier"]?.array?.first?.string
        applicationIdentifierPrefix = plist["ApplicationIdentifierPrefix"]?.array?.first?.string ?? teamIdentifier
        entitlements = plist["Entitlements"]
        applicationIdentifier = entitlements?["application-identifier"]?.string
        expirationDate = plist["ExpirationDate"]?.date
        apsEnvironment = entitlements?["aps-environment"]?.string
        appGroups = entitlements?["com.apple.security.application-groups"]?.strings ?? []
    }

    /// Whether application identifier `pattern` (a profile's, wildcards allowed) covers `identifier`
    /// (`PREFIX.bundle-id`): equal, or `pattern` ends in `*` and `identifier` starts with what precedes it.
    package static func covers(_ pattern: String, _ identifier: String) -> Bool {
        guard pattern.hasSuffix("*") else { return pattern == identifier }
        return identifier.hasPrefix(pattern.dropLast())
    }
}
