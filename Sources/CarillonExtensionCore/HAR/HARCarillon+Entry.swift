extension HARCarillon {
    /// An entry's `_carillon`: what carillon-nse knew of one request beyond HAR, read and written here.
    package struct Entry: Sendable, Equatable {
        /// A body kept beside the decoded one: inline in base64, in a file beside the HAR, or not kept.
        package enum Place: Sendable, Equatable {
            case inline(base64: String)
            case file(String)
            case notKept
        }

        /// The body exactly as received (`wire`): its size and SHA-256, and where its bytes are.
        package struct Wire: Sendable, Equatable {
            package var bytes: Int
            package var sha256: String
            package var place: Place
        }

        /// The decoded body's size, SHA-256 and the size of its last piece as delivered (`decoded`).
        package struct Decoded: Sendable, Equatable {
            package var bytes: Int
            package var sha256: String
            package var lastPiece: Int?
        }

        /// The request's number in the chain, from 1.
        package var hop: Int?
        /// The peer's exact `ip:port`, kept when the handshake failed too.
        package var remote: String?
        /// The head's exact text in base64 (redacted), and whether libcurl synthesised it (HTTP/2, HTTP/3).
        package var headRaw: (base64: String, synthesized: Bool)?
        package var wire: Wire?
        /// libcurl's count of the body's bytes as received (chunk framing left out).
        package var wireBytes: Int?
        package var decoded: Decoded?
        /// At most 64 `(milliseconds from the download's start, cumulative decoded bytes)` samples.
        package var arrival: [(milliseconds: Double, bytes: Int)] = []
        /// How the request ended (libcurl's code and words, a cancellation).
        package var end: RecordedHop.End?
        /// The trace's cumulative timings of the request.
        package var timings: DownloadTrace.Timings?
        /// The request was asked again with relaxed TLS rules after the live one was refused.
        package var relaxedTLS = false

        /// Nothing known.
        package init() {}

        package static func == (left: Entry, right: Entry) -> Bool {
            left.json == right.json
        }

        /// An entry's `_carillon` as read, every member's type checked; nil when it is not an object.
        package init?(_ value: JSONValue?) {
            guard let value, value.isObject else { return nil }
            hop = HARCarillon.count(value["hop"])
            remote = value["remote"]?.stringValue.flatMap { $0.isEmpty ? nil : $0 }
            if let text = value["head_raw"]?["text"]?.stringValue {
                headRaw = (text, value["head_raw"]?["synthesized"] == .bool(true))
            }
            wire = Self.wire(value["wire"])
            wireBytes = HARCarillon.count(value["wire_bytes"])
            if let decoded = value["decoded"], let bytes = HARCarillon.count(decoded["bytes"]) {
                self.decoded = Decoded(
                    bytes: bytes, sha256: decoded["sha256"]?.stringValue ?? "", lastPiece: HARCarillon.count(decoded["last_piece"]))
            }
            if case .array(let samples)? = value["arrival"] {
                arrival = samples.compactMap { sample in
                    guard case .array(let pair) = sample, pair.count == 2, let milliseconds = Self.milliseconds(pair[0]),
                        let bytes = HARCarillon.count(pair[1])
                    else { return nil }
                    return (milliseconds, bytes)
                }
            }
            if let end = value["end"], let code = end["curl_code"]?.doubleValue, let curlCode = Int32(exactly: code) {
                self.end = RecordedHop.End(
                    curlCode: curlCode, message: end["curl_message"]?.stringValue ?? "", cancelled: end["cancelled"] == .bool(true))
            }
            timings = Self.timings(value["timings_ms"])
            relaxedTLS = value["relaxed_tls"] == .bool(true)
        }

        /// The entry's `_carillon` as written.
        package var json: JSONValue {
            var members: [(key: String, value: JSONValue)] = [
                ("hop", HARCarillon.number(hop)),
                ("remote", remote.map { .string($0) } ?? .null),
                (
                    "head_raw",
                    headRaw.map { ["encoding": "base64", "text": .string($0.base64), "synthesized": .bool($0.synthesized)] } ?? .null
                ),
                ("wire", wire.map(Self.json) ?? .null),
                ("wire_bytes", HARCarillon.number(wireBytes)),
                (
                    "decoded",
                    decoded.map { decoded in
                        [
                            "bytes": .number(String(decoded.bytes)), "sha256": .string(decoded.sha256),
                            "last_piece": HARCarillon.number(decoded.lastPiece),
                        ]
                    } ?? .null
                ),
                ("arrival", .array(arrival.map { [HARCarillon.milliseconds($0.milliseconds), .number(String($0.bytes))] })),
                (
                    "end",
                    end.map { end in
                        [
                            "curl_code": .number(String(end.curlCode)), "curl_message": .string(end.message),
                            "cancelled": .bool(end.cancelled),
                        ]
                    } ?? .null
                ),
                ("timings_ms", timings.map(Self.json) ?? .null),
            ]
            if relaxedTLS { members.append(("relaxed_tls", true)) }
            return .object(members)
        }

        /// The cumulative timings in microseconds, as libcurl counts them: 0 for a step not reached
        /// (HAR's durations cannot say that a first byte never came).
        package var microseconds: [Int64]? {
            guard let timings else { return nil }
            return [timings.dns, timings.connect, timings.tls, timings.firstByte, timings.total].map { milliseconds in
                Int64(((milliseconds ?? 0) * 1000).rounded())
            }
        }

        private static func wire(_ value: JSONValue?) -> Wire? {
            guard let value, let bytes = HARCarillon.count(value["bytes"]), let sha256 = value["sha256"]?.stringValue else { return nil }
            let place: Place
            if let file = value["_file"]?.stringValue, !file.isEmpty {
                place = .file(file)
            } else if let text = value["text"]?.stringValue, value["encoding"]?.stringValue?.lowercased() == "base64" {
                place = .inline(base64: text)
            } else {
                place = .notKept
            }
            return Wire(bytes: bytes, sha256: sha256, place: place)
        }

        private static func json(_ wire: Wire) -> JSONValue {
            var members: [(key: String, value: JSONValue)] = [("bytes", .number(String(wire.bytes))), ("sha256", .string(wire.sha256))]
            switch wire.place {
            case .notKept: members.append(("comment", "not kept"))
            case .inline(let text): members += [("encoding", "base64"), ("text", .string(text))]
            case .file(let path): members.append(("_file", .string(path)))
            }
            return .object(members)
        }

        private static func timings(_ value: JSONValue?) -> DownloadTrace.Timings? {
            guard let value, value.isObject else { return nil }
            func step(_ key: String) -> Double? { milliseconds(value[key]) }
            return DownloadTrace.Timings(
                dns: step("dns"), connect: step("connect"), tls: step("tls"), firstByte: step("first_byte"), total: step("total") ?? 0)
        }

        private static func json(_ timings: DownloadTrace.Timings) -> JSONValue {
            func step(_ value: Double?) -> JSONValue { value.map(HARCarillon.milliseconds) ?? .null }
            return [
                "dns": step(timings.dns), "connect": step(timings.connect), "tls": step(timings.tls),
                "first_byte": step(timings.firstByte), "total": HARCarillon.milliseconds(timings.total),
            ]
        }

        /// A finite number of milliseconds from 0 up to 10^12.
        private static func milliseconds(_ value: JSONValue?) -> Double? {
            guard let number = value?.doubleValue, number.isFinite, number >= 0, number < 1e12 else { return nil }
            return number
        }
    }
}
