/// One target of a built app, as read: the app itself or an extension embedded in its `PlugIns/`, with
/// its Info.plist, its executable's code signature and its provisioning profile.
package struct AppTarget: Sendable, Equatable {
    /// What the target is.
    package enum Role: String, Sendable, Equatable {
        case app
        /// `NSExtensionPointIdentifier` `com.apple.usernotifications.service`.
        case serviceExtension = "service-extension"
        /// `NSExtensionPointIdentifier` `com.apple.usernotifications.content-extension`.
        case contentExtension = "content-extension"
        /// Any other extension.
        case other
    }

    package var role: Role
    /// The bundle's path inside the input (`Payload/Carillon.app/PlugIns/NotificationService.appex`).
    package var path: String
    /// The bundle as the app names it, the same whatever form the app came in: the app's directory name
    /// (`Carillon.app`), an extension's path in it (`PlugIns/NotificationService.appex`).
    package var bundleName: String
    /// Info.plist, a dict.
    package var info: PropertyListValue
    /// The form Info.plist was in.
    package var infoForm: PropertyListReader.Form
    /// The executable `CFBundleExecutable` names, read; nil when it is missing from the bundle.
    package var binary: MachOFile?
    /// The signed entitlements (from the first architecture that has a code signature); nil when unsigned
    /// or the signature holds none.
    package var entitlements: PropertyListValue?
    /// The form the entitlements were read from: `xml`, or `der` when the DER blob is the only one.
    package var entitlementsForm: EntitlementsForm?
    /// `embedded.mobileprovision`, read; nil when the bundle has none.
    package var profile: ProvisioningProfile?

    /// Where signed entitlements came from.
    package enum EntitlementsForm: String, Sendable, Equatable {
        case xml
        case der
    }

    package init(
        role: Role, path: String, bundleName: String? = nil, info: PropertyListValue, infoForm: PropertyListReader.Form = .xml,
        binary: MachOFile? = nil,
        entitlements: PropertyListValue? = nil, entitlementsForm: EntitlementsForm? = nil, profile: ProvisioningProfile? = nil
    ) {
        self.role = role
        self.path = path
        self.bundleName = bundleName ?? path
        self.info = info
        self.infoForm = infoForm
        self.binary = binary
        self.entitlements = entitlements
        self.entitlementsForm = entitlementsForm
        self.profile = profile
    }

    /// The role an Info.plist's `NSExtension.NSExtensionPointIdentifier` gives an extension.
    package static func role(extensionPoint: String?) -> Role {
        switch extensionPoint {
        case "com.apple.usernotifications.service": return .serviceExtension
        case "com.apple.usernotifications.content-extension": return .contentExtension
        default: return .other
        }
    }

    /// Signed: an `LC_CODE_SIGNATURE` that leads to a superblob holding a CodeDirectory (hashes and the
    /// CMS signature unchecked).
    package var signed: Bool { binary?.slices.contains { $0.codeSignature?.hasCodeDirectory == true } ?? false }

    /// Encrypted by the App Store: an `LC_ENCRYPTION_INFO(_64)` whose `cryptid` is not 0.
    package var encrypted: Bool { binary?.slices.contains { ($0.cryptID ?? 0) != 0 } ?? false }
}
