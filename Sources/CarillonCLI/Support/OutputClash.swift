@_spi(Tooling) import CarillonExtensionCore

/// An output file that would overwrite an input, or another output: a usage error (64), said before
/// anything is read or written. Two names are the same file when they reach the same device and inode
/// once links are resolved, or, for a file that does not exist yet, the same resolved path.
enum OutputClash {
    /// One file named on the command line: the option that names it (or what the argument is), and its path.
    struct Named {
        var what: String
        var path: String

        init(_ what: String, _ path: String) {
            self.what = what
            self.path = path
        }
    }

    /// The first output that is an input or an earlier output, in the tool's words; nil when none is.
    /// Standard input and output (`-`) are no file.
    static func problem(outputs: [Named], inputs: [Named]) -> String? {
        var seen: [(named: Named, identity: String)] = []
        for input in inputs where input.path != "-" { seen.append((input, identity(input.path))) }
        let inputCount = seen.count
        for output in outputs where output.path != "-" {
            let key = identity(output.path)
            if let index = seen.firstIndex(where: { $0.identity == key }) {
                let other = seen[index].named
                let kind = index < inputCount ? "which is also \(other.what)" : "which \(other.what) also writes"
                return "\(output.what) '\(Quoting.display(output.path))' is the same file as '\(Quoting.display(other.path))', \(kind):"
                    + " give the output a name of its own"
            }
            seen.append((output, key))
        }
        return nil
    }

    /// What tells one file from another: its device and inode, else (nothing there yet) its resolved path.
    static func identity(_ path: String) -> String {
        let resolved = PathRelation.resolved(path)
        if let file = FileIdentity(resolved) { return "inode \(file.device):\(file.inode)" }
        return "path " + resolved
    }
}
