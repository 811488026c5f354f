@_spi(Tooling) import CarillonExtensionCore

/// Reads N campaign summaries (the shards of one campaign, `--summary` of `--shard K/N` runs) as one:
/// images by URL with their payload counts and reasons added up, the first decided verdict kept (with
/// its detail, bytes, type, size and trace), first payloads up to five, reasons and totals summed.
enum SummaryMerge {
    struct Failure: Error {
        var message: String
    }

    /// Merges the parsed documents, in the order given.
    static func merge(_ documents: [(name: String, value: JSONValue)]) throws(Failure) -> JSONValue {
        var order: [String] = []
        var images: [String: [(key: String, value: JSONValue)]] = [:]
        var reasons: [String: Int] = [:]
        var shards: [JSONValue] = []
        var payloads = 0
        var requests: JSONValue?
        for (name, document) in documents {
            guard document["format"] == .string(CampaignSummary.format), case .array(let list)? = document["images"] else {
                throw Failure(message: "\(name): not a carillon-nse campaign summary")
            }
            if case .array(let named)? = document["shards"] { shards += named }
            payloads += integer(document["totals"]?["payloads"])
            add(document["reasons"], to: &reasons)
            if let counts = document["requests"] { requests = requests.map { summed($0, counts) } ?? counts }
            for image in list {
                guard case .string(let url)? = image["url"], case .object(let members) = image else {
                    throw Failure(message: "\(name): an image without a url")
                }
                guard var known = images[url] else {
                    order.append(url)
                    images[url] = members
                    continue
                }
                known = merged(known, members)
                images[url] = known
            }
        }
        let entries = order.compactMap { images[$0].map(JSONValue.object) }
        let attached = reasons["attached"] ?? 0
        let failedPayloads = entries.reduce(0) { total, image in
            total + integer(image["payloads"]) - integer(image["reasons"]?["attached"])
        }
        let failedImages = entries.filter { $0["verdict"] == .string("fail") }.count
        let sortedReasons = reasons.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }
        return .object(
            [
                (key: "format", value: .string(CampaignSummary.format)),
                (key: "version", value: .number("1")),
                (key: "shards", value: .array(shards)),
                (
                    key: "totals",
                    value: .object([
                        (key: "payloads", value: .number(String(payloads))),
                        (key: "images", value: .number(String(entries.count))),
                        (key: "images_failed", value: .number(String(failedImages))),
                        (key: "payloads_attached", value: .number(String(attached))),
                        (key: "payloads_failed", value: .number(String(failedPayloads))),
                    ])
                ),
                (key: "reasons", value: .object(sortedReasons.map { (key: $0.key, value: .number(String($0.value))) })),
                (key: "images", value: .array(entries)),
            ] + (requests.map { [(key: "requests", value: $0)] } ?? []))
    }

    /// Two shards' SPEC §12 counts (`requests`, `refused` by reason…) added member by member: numbers
    /// summed, objects merged the same way (a reason only one shard saw kept), in the first's order but
    /// for `refused`, whose reasons are sorted as one run sorts them (``CampaignSummary/requestCounts(_:)``).
    private static func summed(_ first: JSONValue, _ second: JSONValue, sortingKeys: Bool = false) -> JSONValue {
        switch (first, second) {
        case (.number, .number): return .number(String(integer(first) + integer(second)))
        case (.object(var members), .object(let others)):
            for (key, value) in others {
                if let index = members.firstIndex(where: { $0.key == key }) {
                    members[index].value = summed(members[index].value, value, sortingKeys: key == "refused")
                } else {
                    members.append((key: key, value: value))
                }
            }
            if sortingKeys { members.sort { $0.key < $1.key } }
            return .object(members)
        default: return first
        }
    }

    /// One image seen in two summaries: counts added, the first decided verdict kept.
    private static func merged(
        _ first: [(key: String, value: JSONValue)], _ second: [(key: String, value: JSONValue)]
    ) -> [(key: String, value: JSONValue)] {
        let a = JSONValue.object(first)
        let b = JSONValue.object(second)
        var result = a["verdict"] == .string("undecided") && b["verdict"] != .string("undecided") ? second : first
        var reasons: [String: Int] = [:]
        add(a["reasons"], to: &reasons)
        add(b["reasons"], to: &reasons)
        var firstPayloads: [JSONValue] = []
        if case .array(let list)? = a["first_payloads"] { firstPayloads += list }
        if case .array(let list)? = b["first_payloads"] { firstPayloads += list }
        for index in result.indices {
            switch result[index].key {
            case "payloads": result[index].value = .number(String(integer(a["payloads"]) + integer(b["payloads"])))
            case "first_payloads": result[index].value = .array(Array(firstPayloads.prefix(CampaignImages.firstPayloadCount)))
            case "reasons":
                let sorted = reasons.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }
                result[index].value = .object(sorted.map { (key: $0.key, value: .number(String($0.value))) })
            default: break
            }
        }
        return result
    }

    private static func add(_ counts: JSONValue?, to tally: inout [String: Int]) {
        guard case .object(let members)? = counts else { return }
        for (key, value) in members { tally[key, default: 0] += integer(value) }
    }

    private static func integer(_ value: JSONValue?) -> Int {
        guard case .number(let text)? = value else { return 0 }
        return Int(text) ?? 0
    }
}
