import Foundation

/// A test's own look at a queue directory's files, without the tool: the (type, delivery id) of every
/// event in them, format-1 `<type>-<delivery-id>.event` files and format-2 `*.events` JSON Lines alike
/// (a file being written is still a `.tmp-*` name, so what is here is whole). In a quarantine, a
/// second file set aside under one name is `<name>.<n>`: read too.
enum QueueFiles {
    static func events(in directory: String) -> [(type: String, deliveryID: String)] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        var events: [(type: String, deliveryID: String)] = []
        for fullName in names where !fullName.hasPrefix(".") && !fullName.hasSuffix(".reason") {
            var name = fullName
            if let dot = name.lastIndex(of: "."), !name[name.index(after: dot)...].isEmpty,
                name[name.index(after: dot)...].allSatisfy(\.isNumber)
            {
                name = String(name[..<dot])
            }
            if name.hasSuffix(".event"), let dash = name.firstIndex(of: "-") {
                events.append((String(name[..<dash]), String(name[name.index(after: dash)...].dropLast(".event".count))))
            } else if name.hasSuffix(".events"), let data = FileManager.default.contents(atPath: directory + "/" + fullName) {
                for line in data.split(separator: UInt8(ascii: "\n")) {
                    guard let object = try? JSONSerialization.jsonObject(with: Data(line)) as? [String: Any],
                        let type = object["type"] as? String, let id = object["delivery_id"] as? String
                    else { continue }
                    events.append((type, id))
                }
            }
        }
        return events
    }

    /// The delivery ids of the `received` events in the queue.
    static func receivedIDs(in directory: String) -> Set<String> {
        Set(events(in: directory).filter { $0.type == "received" }.map(\.deliveryID))
    }
}
