/// A built app as read from an .ipa, an .xcarchive, a .app or a zip of one: its targets, the app first,
/// then the extensions of its `PlugIns/` in name order.
package struct AppBundle: Sendable, Equatable {
    /// What the input was.
    package enum Form: String, Sendable, Equatable {
        /// A zip with `Payload/NAME.app/` (or that directory unzipped).
        case ipa
        case app
        /// `Products/Applications/NAME.app/` of an archive Xcode made.
        case xcarchive
        /// A zip of an .app or an .xcarchive.
        case zip
    }

    /// The input, as given.
    package var input: String
    package var form: Form
    /// The app, then its extensions.
    package var targets: [AppTarget]

    package init(input: String, form: Form, targets: [AppTarget]) {
        self.input = input
        self.form = form
        self.targets = targets
    }

    /// The app itself.
    package var app: AppTarget { targets[0] }

    /// The embedded notification service extensions.
    package var serviceExtensions: [AppTarget] { targets.filter { $0.role == .serviceExtension } }

    /// The embedded notification content extensions.
    package var contentExtensions: [AppTarget] { targets.filter { $0.role == .contentExtension } }

    /// The embedded extensions, whatever their kind.
    package var extensions: [AppTarget] { Array(targets.dropFirst()) }
}
