/// The files of a built app's input, whatever holds them (a directory, a zip archive), by paths relative
/// to the input with `/` between components.
package protocol AppFiles {
    /// The names of the directories directly in `directory` ("" is the input itself), sorted.
    func subdirectories(of directory: String) throws(AppReadError) -> [String]
    /// Whether `path` is a regular file.
    func isFile(_ path: String) -> Bool
    /// Whether `path`, or a directory on the way to it, is a symbolic link (never followed).
    func isSymbolicLink(_ path: String) -> Bool
    /// The size of the regular file at `path`; nil when there is none.
    func size(of path: String) -> Int?
    /// The whole file at `path`, at most `maximumBytes`.
    func read(_ path: String, maximumBytes: Int) throws(AppReadError) -> [UInt8]
    /// The bytes of each of `ranges` of the file at `path` (each within its size).
    func read(_ path: String, ranges: [Range<Int>]) throws(AppReadError) -> [[UInt8]]
}

extension AppFiles {
    /// `directory/name`, or `name` in the input itself.
    package static func join(_ directory: String, _ name: String) -> String { directory.isEmpty ? name : directory + "/" + name }
}
