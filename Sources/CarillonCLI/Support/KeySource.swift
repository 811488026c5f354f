@_spi(Tooling) import CarillonExtensionCore

/// Where a command's key comes from, never printed: the first line of `--key-file FILE`, or else of an
/// environment variable. One rule for `upload`'s mobile key and `readback`'s secret key.
enum KeySource {
    /// The largest key file read: a key is one line.
    static let fileLimit = 64 * 1024

    /// What is wrong with a key's text, in words that never quote it.
    struct Problem: Error {
        var message: String
    }

    /// The key from `keyFile`, or else from `$variable`; `kind` names it when neither is there ("mobile
    /// key"), and `parse` checks the text.
    ///
    /// - Throws: a usage error naming the file or the variable and what is wrong.
    static func read<Key>(
        keyFile: String?, variable: String, kind: String, parse: (String) -> Result<Key, Problem>
    ) throws(UsageError) -> Key {
        let source: String
        let text: String
        if let keyFile {
            source = "--key-file '\(Quoting.display(keyFile))'"
            guard FileSystem.exists(keyFile) else { throw UsageError(message: "\(source): no such file") }
            if FileSystem.isDirectory(keyFile) { throw UsageError(message: "\(source): a directory, not a key file") }
            do {
                text = String(decoding: try FileSystem.readFile(keyFile, limit: fileLimit, policy: .namedByUser), as: UTF8.self)
            } catch {
                throw UsageError(message: "\(source): cannot read: \(error.reason)")
            }
        } else {
            guard let value = Environment.value(variable), !value.isEmpty else {
                throw UsageError(message: "no \(kind): give --key-file FILE or set \(variable)")
            }
            source = variable
            text = value
        }
        switch parse(text) {
        case .success(let key): return key
        case .failure(let problem): throw UsageError(message: "\(source): \(problem.message)")
        }
    }
}
