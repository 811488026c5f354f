@_spi(Tooling) import CarillonExtensionCore

extension PayloadInput {
    /// A payload, and the request that carries it when the input is one (SPEC §12).
    struct Notification {
        var payload: Payload
        var request: APNsRequest?
    }

    /// Reads the input as ``RequestReader`` recognises it: a curl command, an APNs request text or an FCM
    /// message gives its request and the payload it carries; anything else is a payload as before. A
    /// JSON Lines line is always a payload. The `@file`s a request names are read beside its file.
    func readNotification(io: ToolIO) -> Result<Notification, ReadError> {
        let bytes: [UInt8]
        switch read(io: io, limit: ProcessCommand.maximumPayloadFileBytes) {
        case .failure(let error): return .failure(error)
        case .success(let read): bytes = read
        }
        var request: APNsRequest?
        if case .line = self {
        } else {
            do {
                if case .request(let read) = try RequestReader.read(bytes, files: requestFiles) {
                    request = read
                }
            } catch {
                return .failure(ReadError(message: error.message))
            }
        }
        guard let request else {
            do {
                return .success(Notification(payload: try Payload(bytes: bytes), request: nil))
            } catch {
                return .failure(ReadError(message: error.message))
            }
        }
        do {
            return .success(Notification(payload: try Payload(bytes: request.body, measuresSize: false), request: request))
        } catch {
            // Still a request: its line judges it (APNs' PayloadEmpty for no body), worded for what it is.
            return .failure(ReadError(message: Self.bodyProblem(request.body, error.message), request: request))
        }
    }

    /// What is wrong with a request's body that is not a payload: none at all, or not a JSON object.
    static func bodyProblem(_ body: [UInt8], _ message: String) -> String {
        if body.isEmpty { return "the request has no body" }
        return message.hasPrefix("not valid JSON") ? "the request's body is \(message)" : "the request's body: \(message)"
    }

    /// Where a request's `@file`s are read: beside its file, else in the current directory.
    var requestFiles: RequestFiles {
        guard case .file(let path, _) = self else { return RequestFiles(directory: ".") }
        return RequestFiles(besideFile: path)
    }

    /// Whether a directory's entry named `name` is a request file candidate: `*.http`, `*.curl`, `*.sh`
    /// and `*.txt`, taken only when ``RequestReader/isRequest(_:)`` recognises their content, so that a
    /// stray note or script beside the payloads is skipped as it always was.
    static func mayBeRequestFile(_ name: String) -> Bool {
        name.hasSuffix(".http") || name.hasSuffix(".curl") || name.hasSuffix(".sh") || name.hasSuffix(".txt")
    }

    /// Whether the file at `path` holds a request (read up to the payload file limit; unreadable: no).
    static func holdsRequest(_ path: String) -> Bool {
        guard let bytes = try? FileSystem.readFile(path, limit: ProcessCommand.maximumPayloadFileBytes, policy: .regularFile) else {
            return false
        }
        return RequestReader.isRequest(bytes)
    }
}
