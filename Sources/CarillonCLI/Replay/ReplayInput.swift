@_spi(Tooling) import CarillonExtensionCore

/// The RECORDING arguments of `replay`: files, directories of `.har`/`.zhar` files, or `-`, each read
/// into a ``HARArchive`` under the reader's cap.
struct ReplayInput {
    /// The path as given ("-" for standard input).
    var path: String

    /// The directory `content._file` names are relative to.
    var directory: String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return String(path[..<slash])
    }

    /// Each argument, a directory's `.har`, `.zhar` and `.json` files in sorted order; a directory that
    /// cannot be listed is said on standard error and sets `status` to 1.
    static func expand(_ arguments: [String], io: ToolIO, status: inout Int32) -> [ReplayInput] {
        var inputs: [ReplayInput] = []
        for argument in arguments {
            guard argument != "-", FileSystem.isDirectory(argument) else {
                inputs.append(ReplayInput(path: argument))
                continue
            }
            do throws(FileSystemError) {
                let names = try DirectoryListing.entries(argument).filter { entry in
                    entry.kind == .regularFile && [".har", ".zhar"].contains { entry.name.hasSuffix($0) }
                }
                inputs += names.map(\.name).sorted().map { ReplayInput(path: FileSystem.join(argument, $0)) }
            } catch {
                io.standardError.line("\(CarillonTool.name): \(argument): cannot list: \(error.reason)")
                status = CarillonTool.exitDataError
            }
        }
        return inputs
    }

    /// The archive, or nil after one stderr line naming the file and what is wrong.
    static func read(_ input: ReplayInput, io: ToolIO) -> HARArchive? {
        let limit = HARReader.defaultMaximumBytes
        let bytes: [UInt8]
        do {
            bytes =
                input.path == "-"
                ? try io.readStandardInput(limit + 1) : try FileSystem.readFile(input.path, limit: limit + 1, policy: .namedByUser)
        } catch let error as FileSystemError {
            io.standardError.line("\(CarillonTool.name): \(input.path): cannot read: \(error.reason)")
            return nil
        } catch {
            io.standardError.line("\(CarillonTool.name): \(input.path): cannot read: \(error)")
            return nil
        }
        do {
            return try HARReader().read(bytes)
        } catch {
            io.standardError.line("\(CarillonTool.name): \(input.path): \(error.message)")
            return nil
        }
    }

    /// The archive of `input`, a shared download's recording with the entries of the first payload's
    /// file it names (``HARArchive/sharedWithFile``) lent to it; nil after a stderr line when either
    /// cannot be read.
    ///
    /// The name comes from the recording, a file from a stranger: only a bare name in its own directory
    /// (``HARFileName/isBare(_:)``), read as a record is (a regular file, never through a link, under
    /// the reader's cap), so that a name cannot make replay read another file or wait on a pipe. Errors
    /// name the recording given, then the name it holds.
    static func archive(_ input: ReplayInput, io: ToolIO) -> HARArchive? {
        guard let archive = read(input, io: io) else { return nil }
        guard let name = archive.sharedWithFile else { return archive }
        let said = "\(CarillonTool.name): \(input.path): its shared download's first recording '\(Quoting.display(name))'"
        guard HARFileName.isBare(name) else {
            io.standardError.line("\(said) is not a file name in the recording's own directory")
            return nil
        }
        let bytes: [UInt8]
        do throws(FileSystemError) {
            bytes = try FileSystem.readFile(
                FileSystem.join(input.directory, name), limit: HARReader.defaultMaximumBytes + 1, policy: .regularFileNoFollow)
        } catch {
            io.standardError.line("\(said): cannot read: \(error.reason)")
            return nil
        }
        do throws(HARReadError) {
            return archive.lending(from: try HARReader().read(bytes))
        } catch {
            io.standardError.line("\(said): \(error.message)")
            return nil
        }
    }

    /// What every recording is asked about: `--payload` (read now, once), `--url`, `--entry`, or the
    /// capture itself. A `--payload` file that is not a payload (unreadable, not JSON, not an object) is
    /// routed as `process` routes it: its `invalid-payload` line (or text block) and one stderr line,
    /// then nil, a data error.
    static func target(_ plan: ReplayCommand.Plan, io: ToolIO) -> ReplayTarget? {
        if let path = plan.payloadPath {
            let input = PayloadInput.file(path, named: true)
            switch input.readPayload(io: io) {
            case .success(let payload): return .payload(payload)
            case .failure(let error):
                io.standardError.line("\(CarillonTool.name): \(input.name): \(error.message)")
                io.standardOutput.write(
                    plan.format == .text ? TextBlock.invalid(input, error.message) : ResultLine.invalid(input, error.message) + "\n")
                return nil
            }
        }
        if let url = plan.url { return .url(url) }
        if let index = plan.entry { return .entry(index) }
        return .capture
    }
}
