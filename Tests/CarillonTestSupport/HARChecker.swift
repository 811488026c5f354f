import Foundation

/// HAR 1.2's required fields (http://www.softwareishard.com/blog/har-12-spec/), checked on a parsed
/// document: the problems found, empty for a valid file.
public enum HARChecker {
    public static func problems(_ document: Any) -> [String] {
        var problems: [String] = []
        func require(_ object: [String: Any], _ keys: [String], _ place: String) {
            for key in keys where object[key] == nil { problems.append("\(place).\(key) is missing") }
        }
        guard let root = document as? [String: Any], let log = root["log"] as? [String: Any] else { return ["no log object"] }
        require(log, ["version", "creator", "entries"], "log")
        if log["version"] as? String != "1.2" { problems.append("log.version is not 1.2") }
        if let creator = log["creator"] as? [String: Any] { require(creator, ["name", "version"], "log.creator") }
        for (index, item) in ((log["entries"] as? [Any]) ?? []).enumerated() {
            let at = "entries[\(index)]"
            guard let entry = item as? [String: Any] else {
                problems.append("\(at) is not an object")
                continue
            }
            require(entry, ["startedDateTime", "time", "request", "response", "cache", "timings"], at)
            if let request = entry["request"] as? [String: Any] {
                require(
                    request, ["method", "url", "httpVersion", "cookies", "headers", "queryString", "headersSize", "bodySize"],
                    "\(at).request")
            }
            if let response = entry["response"] as? [String: Any] {
                require(
                    response,
                    ["status", "statusText", "httpVersion", "cookies", "headers", "content", "redirectURL", "headersSize", "bodySize"],
                    "\(at).response")
                if let content = response["content"] as? [String: Any] { require(content, ["size", "mimeType"], "\(at).response.content") }
            }
            if let timings = entry["timings"] as? [String: Any] {
                for key in ["send", "wait", "receive"] {
                    if let value = timings[key] as? Double, value >= 0 { continue }
                    problems.append("\(at).timings.\(key) is missing or negative")
                }
            }
        }
        return problems
    }
}
