/// A built app that cannot be read, or is not an app: the member at fault (a path inside the input),
/// where one is, and what is wrong (``ReaderError``).
package typealias AppReadError = ReaderError<AppReading>

/// The built app's reader (``AppBundleReader``), as ``ReaderError`` tells it apart.
package enum AppReading: ReaderKind {
    package static let code = ReaderCode.app
}
