/// The version of this package, one string (what a tool built on it reports as its version).
@_spi(Tooling) public enum CarillonVersion {
    public static let current = "0.1.0"
}
