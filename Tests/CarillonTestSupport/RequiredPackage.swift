import Foundation

/// A command a test needs and the Debian package that installs it. A test without it fails, naming the
/// package, and never skips: `TestAssets/test.sh` (the README's test command) and `.ci/run` install
/// every one.
public enum RequiredPackage {
    /// What a test throws when a command it needs is not installed.
    public struct Missing: Error, CustomStringConvertible {
        public var description: String
    }

    static let directories = ["/usr/local/bin", "/usr/bin", "/bin", "/usr/local/sbin", "/usr/sbin", "/sbin"]

    /// The path of the first of `commands` found, or ``Missing`` naming `package`.
    @discardableResult
    public static func command(_ commands: String..., package: String) throws -> String {
        for command in commands {
            for directory in directories where FileManager.default.isExecutableFile(atPath: directory + "/" + command) {
                return directory + "/" + command
            }
        }
        throw Missing(
            description: "\(commands.joined(separator: " or ")) is not installed: this test needs the Debian package "
                + "'\(package)' (TestAssets/test.sh installs what the tests need, as root: apt-get install -y \(package))")
    }
}
