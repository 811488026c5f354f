import CarillonExtensionCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// One payload to process: a file or standard input, named as the output's `payload` field.
enum PayloadInput: Equatable {
    case file(String)
    case standardInput

    /// The `payload` field: the path as given, or `-`.
    var name: String {
        switch self {
        case .file(let path): return path
        case .standardInput: return "-"
        }
    }

    /// A command-line argument as payloads: `-`, a file, or a directory's `*.json` files, sorted.
    /// A path that does not exist is kept as a file, so that it gets its own line saying so.
    static func expand(_ argument: String) -> Result<[PayloadInput], ExpansionError> {
        if argument == "-" { return .success([.standardInput]) }
        guard FileSystem.isDirectory(argument) else { return .success([.file(argument)]) }
        do {
            let names = try FileSystem.contentsOfDirectory(argument).filter { $0.hasSuffix(".json") && !$0.hasPrefix(".") }
            let files = names.map { FileSystem.join(argument, $0) }.filter { !FileSystem.isDirectory($0) }
            return .success(files.map { .file($0) })
        } catch {
            return .failure(ExpansionError(message: "\(argument): cannot read directory: \(error.reason)"))
        }
    }

    struct ExpansionError: Error {
        var message: String
    }

    /// Reads the payload's bytes.
    func read(io: ToolIO, limit: Int) -> Result<[UInt8], ReadError> {
        switch self {
        case .standardInput:
            do {
                return .success(try io.readStandardInput(limit))
            } catch let error as FileSystemError {
                return .failure(ReadError(message: error.errno == EFBIG ? "larger than \(limit) bytes; not a push payload" : "cannot read: \(error.reason)"))
            } catch {
                return .failure(ReadError(message: "cannot read: \(error)"))
            }
        case .file(let path):
            do {
                return .success(try FileSystem.readFile(path, limit: limit))
            } catch {
                if error.errno == EFBIG {
                    let size = FileSystem.size(path).map { "\($0) bytes" } ?? "too large"
                    return .failure(ReadError(message: "file is \(size), over the \(limit)-byte limit for a payload file; not read"))
                }
                return .failure(ReadError(message: "cannot read: \(error.reason)"))
            }
        }
    }

    struct ReadError: Error {
        var message: String
    }

    /// Reads and parses the payload; the failure is the message for standard error and the output.
    func readPayload(io: ToolIO) -> Result<Payload, ReadError> {
        switch read(io: io, limit: ProcessCommand.maximumPayloadFileBytes) {
        case .failure(let error): return .failure(error)
        case .success(let bytes):
            do {
                return .success(try Payload(bytes: bytes))
            } catch {
                return .failure(ReadError(message: error.message))
            }
        }
    }

    /// Expands every argument, reporting directories that cannot be read (and setting `status` to 1).
    static func expandAll(_ arguments: [String], io: ToolIO, status: inout Int32) -> [PayloadInput] {
        var inputs: [PayloadInput] = []
        for argument in arguments {
            switch expand(argument) {
            case .success(let expanded): inputs += expanded
            case .failure(let error):
                io.standardError.write("\(CarillonTool.name): \(error.message)\n")
                status = CarillonTool.exitDataError
            }
        }
        return inputs
    }
}
