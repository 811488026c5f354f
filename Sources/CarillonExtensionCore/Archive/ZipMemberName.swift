/// The rule for a member's name, decided before anything is read: a name that would land outside the
/// directory it is unpacked into — absolute, a drive letter, a `..` component (with `/` or `\` as the
/// separator, as some zip tools write on Windows) — or that holds a NUL is refused, wherever it is in
/// the archive.
package enum ZipMemberName {
    /// Why `name` is refused; nil when it stays inside.
    package static func problem(_ name: [UInt8]) -> String? {
        guard !name.isEmpty else { return "an empty name" }
        if name.contains(0) { return "a name with a NUL byte" }
        if name[0] == UInt8(ascii: "/") || name[0] == UInt8(ascii: "\\") { return "an absolute name" }
        if name.count >= 2, name[1] == UInt8(ascii: ":"), (name[0] | 0x20) >= UInt8(ascii: "a"), (name[0] | 0x20) <= UInt8(ascii: "z") {
            return "a name with a drive letter"
        }
        let components = name.split(omittingEmptySubsequences: false) { $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "\\") }
        if components.contains(where: { $0.elementsEqual([UInt8(ascii: "."), UInt8(ascii: ".")]) }) {
            return "a name that climbs out of the archive ('..')"
        }
        return nil
    }
}
