/// What a built app makes of a run through the extension: its notification service extension's own App
/// Transport Security (the app's exceptions do not reach an extension), the `User-Agent` its
/// `URLSession` sends, and the presentation facts of SPEC §12.
package struct AppRunSettings: Sendable, Equatable {
    /// The service extension's ATS, host by host.
    package var transportSecurityPolicy: TransportSecurityPolicy
    /// `<CFBundleExecutable>/<CFBundleVersion> CFNetwork/… Darwin/…` of the service extension; nil when
    /// its Info.plist lacks either (the default then stands).
    package var userAgent: String?
    package var presentationFacts: PresentationFacts
    /// The service extension's bundle identifier.
    package var extensionIdentifier: String?
    /// What in its `NSAppTransportSecurity` could not be read as Apple documents it, and a narrower key
    /// that makes its `NSAllowsArbitraryLoads` ignored.
    package var notes: [String]

    /// The settings of `bundle`'s one notification service extension.
    ///
    /// - Throws: ``AppReadError`` when the app embeds none, or more than one (iOS runs one of them).
    package init(_ bundle: AppBundle) throws(AppReadError) {
        let services = bundle.serviceExtensions
        guard let service = services.first else {
            throw AppReadError("the app embeds no notification service extension: images are never attached")
        }
        guard services.count == 1 else {
            throw AppReadError(
                "the app embeds \(services.count) notification service extensions (\(services.map { Quoting.single($0.bundleName) }.joined(separator: ", "))): iOS runs one of them"
            )
        }
        let transportSecurity = service.transportSecurity
        transportSecurityPolicy = transportSecurity.policy
        if let executable = service.executable, let version = service.version {
            userAgent = RequestHeaders.userAgent(executable: executable, bundleVersion: version)
        }
        presentationFacts = bundle.presentationFacts
        extensionIdentifier = service.bundleIdentifier
        notes = transportSecurity.problems
        if transportSecurity.arbitraryLoadsIgnored {
            notes.append(
                "NSAllowsArbitraryLoads is ignored: NSAllowsArbitraryLoadsForMedia, NSAllowsArbitraryLoadsInWebContent or NSAllowsLocalNetworking is present (iOS 10 and later)"
            )
        }
    }
}
