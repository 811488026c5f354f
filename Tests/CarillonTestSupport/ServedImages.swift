import Foundation

/// What the test server's image routes serve (`TestAssets/Server/server.py`): the fixtures of
/// `TestAssets/Images/`, read from disk at its start-up, so the sizes here are read from the same files.
public enum ServedImages {
    /// `/img/jpeg` (and `/size/n` without a size): `sample.jpg` as it is.
    public static let jpegBytes = fixtureBytes("sample.jpg")
    /// `/img/gif`: `static.gif` as it is.
    public static let gifBytes = fixtureBytes("static.gif")
    /// `/img/gif-animated`: `animated.gif` as it is.
    public static let animatedGIFBytes = fixtureBytes("animated.gif")

    /// The size of `TestAssets/Images/<name>`; 0 when it cannot be read (the tests comparing with it fail).
    public static func fixtureBytes(_ name: String) -> Int {
        let attributes = try? FileManager.default.attributesOfItem(atPath: Paths.testAssets("Images/" + name))
        return (attributes?[.size] as? NSNumber)?.intValue ?? 0
    }
}
