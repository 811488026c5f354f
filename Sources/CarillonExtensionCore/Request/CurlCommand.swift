/// A curl command's arguments, read the way curl reads them (curl(1)): long options, short-option
/// clusters (`-sSv`, `-XPOST`, `-d@file`), the URL, and what makes the request — `-X`, `-H`, the
/// data options with each one's own rule, `json`, `-G`, `-I`, `http1.1`/`http2`, `-A`,
/// `oauth2-bearer`, `-u`. What would make it something other than one JSON body (`-F`, `-T`,
/// `data-urlencode`, `-K`) is refused, naming the option; so is an option curl does not know.
package struct CurlCommand: Sendable, Equatable {
    /// One `-d`-family argument, with the option that gave it.
    package struct Data: Sendable, Equatable {
        package enum Kind: String, Sendable, Equatable {
            /// `-d`, `data`, `data-ascii`: `@file` read with CR and LF removed.
            case data
            /// `data-binary`: `@file` read exactly.
            case binary
            /// `data-raw`: no `@` rule at all.
            case raw
            /// `json`: `@file` read exactly; pieces joined with nothing between them.
            case json
        }

        package var kind: Kind
        package var value: ShellExpansion.Word
    }

    /// `-X`/`request`.
    package var method: ShellExpansion.Word?
    /// Every URL, in order (`url` or a bare argument).
    package var urls: [ShellExpansion.Word] = []
    /// Every `-H`/`header` argument, in order.
    package var headers: [ShellExpansion.Word] = []
    package var data: [Data] = []
    /// `-G`/`get`: the data goes in the URL's query and the method is GET.
    package var get = false
    /// `-I`/`head`.
    package var head = false
    /// The HTTP version asked for (`1.0`, `1.1`, `2`, `3`), or nil for curl's default (HTTP/2 over
    /// https by ALPN, as curl has done since 7.62).
    package var httpVersion: String?
    /// `-A`, `oauth2-bearer`, `-u`: fields curl adds.
    package var userAgent: ShellExpansion.Word?
    package var bearer: ShellExpansion.Word?
    package var user: ShellExpansion.Word?
    /// `-E`/`cert` (or `key`): a client certificate, APNs' other way to authenticate.
    package var clientCertificate = false
    /// `-:`/`next`: what follows is another transfer, not this one.
    package var hasNext = false
    /// The here-document the command reads as standard input: what `@-` reads.
    package var standardInput: ShellScript.HereDocument?

    /// Reads curl's arguments (the words after `curl`).
    ///
    /// - Throws: ``RequestProblem`` for an option curl does not know, one that needs an argument at the
    ///   end, or one that makes the body something other than data (`-F`, `-T`, `data-urlencode`, `-K`).
    package static func parse(_ words: [ShellExpansion.Word]) throws(RequestProblem) -> CurlCommand {
        var command = CurlCommand()
        var index = 0
        while index < words.count {
            let word = words[index]
            index += 1
            let bytes = word.bytes
            if bytes == [UInt8(ascii: "-"), UInt8(ascii: "-")] {
                // curl ends its options at `--`: every word after it is a URL.
                command.urls += words[index...]
                break
            }
            if bytes.count >= 2 && bytes[0] == UInt8(ascii: "-") && bytes[1] == UInt8(ascii: "-") {
                let name = String(decoding: bytes.dropFirst(2), as: UTF8.self)
                guard let takes = CurlOptions.takesArgument(name) else {
                    throw RequestProblem("curl has no option '--\(Quoting.display(name))' (read as curl 7.88's options)")
                }
                if name == "next" {
                    command.hasNext = true
                    break
                }
                var argument: ShellExpansion.Word?
                if takes {
                    guard index < words.count else { throw RequestProblem("curl's option '--\(name)' needs an argument") }
                    argument = words[index]
                    index += 1
                }
                try command.apply(name, argument)
            } else if bytes.count >= 2 && bytes[0] == UInt8(ascii: "-") {
                if try command.applyCluster(word, words: words, index: &index) { break }
            } else {
                command.urls.append(word)
            }
        }
        return command
    }

    /// A short-option cluster (`-sSv`, `-XPOST`, `-d@file`); true when it held `-:` (`next`).
    private mutating func applyCluster(_ word: ShellExpansion.Word, words: [ShellExpansion.Word], index: inout Int) throws(RequestProblem)
        -> Bool
    {
        var position = 1
        while position < word.bytes.count {
            let letter = word.bytes[position]
            guard let name = CurlOptions.short[letter] else {
                throw RequestProblem("curl has no option '-\(Quoting.display(String(decoding: [letter], as: UTF8.self)))'")
            }
            if name == "next" {
                hasNext = true
                return true
            }
            guard CurlOptions.takesArgument(name) == true else {
                try apply(name, nil)
                position += 1
                continue
            }
            var argument: ShellExpansion.Word
            if position + 1 < word.bytes.count {
                argument = word
                argument.bytes = Array(word.bytes[(position + 1)...])
            } else {
                guard index < words.count else {
                    throw RequestProblem("curl's option '-\(name.first.map(String.init) ?? "")' needs an argument")
                }
                argument = words[index]
                index += 1
            }
            try apply(name, argument)
            return false
        }
        return false
    }

    /// One option, by its long name.
    private mutating func apply(_ name: String, _ argument: ShellExpansion.Word?) throws(RequestProblem) {
        switch name {
        case "request": method = argument
        case "url": if let argument { urls.append(argument) }
        case "header": if let argument { headers.append(argument) }
        case "data", "data-ascii": data.append(Data(kind: .data, value: argument!))
        case "data-binary": data.append(Data(kind: .binary, value: argument!))
        case "data-raw": data.append(Data(kind: .raw, value: argument!))
        case "json": data.append(Data(kind: .json, value: argument!))
        case "get": get = true
        case "head": head = true
        case "http1.0": httpVersion = "1.0"
        case "http1.1": httpVersion = "1.1"
        case "http2", "http2-prior-knowledge": httpVersion = nil
        case "http3", "http3-only": httpVersion = "3"
        case "user-agent": userAgent = argument
        case "oauth2-bearer": bearer = argument
        case "user": user = argument
        case "cert", "key": clientCertificate = true
        case "form", "form-string":
            throw RequestProblem("curl's \(name) option sends a multipart form, not a JSON payload")
        case "upload-file":
            throw RequestProblem("curl's upload-file option (-T) sends a file with PUT, not a notification request")
        case "data-urlencode":
            throw RequestProblem("curl's data-urlencode option sends URL-encoded form data, not a JSON payload")
        case "config":
            throw RequestProblem("curl's config option (-K) reads more options from a file, which are not followed")
        default: break
        }
    }
}
