/// Whether N bundles are the whole of one campaign (SPEC §6c), decided before a merge writes anything:
/// the same N, rule, input, tool version, verdict-changing options and report's app name in each, every
/// shard K of N exactly once, and every payload position in exactly one of them.
package enum ShardCoverage {
    /// One bundle as the decision sees it.
    package struct Bundle: Sendable {
        /// The file, as messages name it.
        package var name: String
        package var header: ResultBundle.Header
        package var input: ResultBundle.Input

        package init(name: String, header: ResultBundle.Header, input: ResultBundle.Input) {
            self.name = name
            self.header = header
            self.input = input
        }
    }

    /// Why the bundles are not one campaign; the first found, in the order the checks run.
    package enum Problem: Error, Sendable, Equatable {
        case differentCount(name: String, shard: Shard, first: String, firstShard: Shard)
        case differentRule(name: String, rule: ShardRule, first: String, firstRule: ShardRule)
        case differentInput(name: String, input: ResultBundle.Input, first: String, firstInput: ResultBundle.Input)
        /// The same number of payloads read under other names: the paths given differ.
        case differentNames(name: String, input: ResultBundle.Input, first: String, firstInput: ResultBundle.Input)
        case differentTool(name: String, tool: String, first: String, firstTool: String)
        case differentOption(name: String, option: String, value: String?, first: String, firstValue: String?)
        case differentAppName(name: String, value: String?, first: String, firstValue: String?)
        case duplicate(name: String, other: String, shard: Shard)
        /// The shards no bundle is, and the runners the bundles were found by (their own words for a shard).
        case missing([Shard], runners: [String] = [])
        /// A position two bundles both hold, or one that none holds.
        case position(Int, names: [String])

        /// The sentence a merge prints.
        package var message: String {
            switch self {
            case .differentCount(let name, let shard, let first, let firstShard):
                return "\(name) is shard \(shard) of \(shard.count), and \(first) is \(firstShard) of \(firstShard.count):"
                    + " bundles of runs split differently"
            case .differentRule(let name, let rule, let first, let firstRule):
                return "\(name) was sharded by \(rule.rawValue), and \(first) by \(firstRule.rawValue): bundles of runs split differently"
            case .differentInput(let name, let input, let first, let firstInput):
                return "\(name) read another input than \(first): \(input.payloads) payloads of SHA-256 \(input.sha256),"
                    + " against \(firstInput.payloads) of \(firstInput.sha256)"
            case .differentNames(let name, let input, let first, let firstInput):
                let firsts =
                    input.firstName == firstInput.firstName
                    ? "the first ones agree" : "its first is \(quoted(input.firstName)), against \(quoted(firstInput.firstName))"
                return "\(name) named its \(input.payloads) payloads otherwise than \(first) did (\(firsts)): a payload is named by the"
                    + " path its shard was given, so give every shard the same paths"
            case .differentTool(let name, let tool, let first, let firstTool):
                return "\(name) was written by carillon-nse \(tool), and \(first) by \(firstTool): bundles of versions whose verdicts"
                    + " may differ"
            case .differentOption(let name, let option, let value, let first, let firstValue):
                return "\(name) ran with \(option) \(value ?? "not given"), and \(first) with \(option) \(firstValue ?? "not given"):"
                    + " bundles of runs whose verdicts are not comparable"
            case .differentAppName(let name, let value, let first, let firstValue):
                return "\(name) names the app \(quoted(value)) in its report, and \(first) \(quoted(firstValue)): bundles of runs"
                    + " whose reports differ"
            case .duplicate(let name, let other, let shard):
                return "\(name) and \(other) are both shard \(shard)"
            case .missing(let shards, let runners):
                let list = shards.map(\.description).joined(separator: ", ")
                let said = ShardCoverage.runnerValues(shards, runners: runners).map { " (\($0))" } ?? ""
                return (shards.count == 1 ? "shard \(list) is missing" : "shards \(list) are missing") + said
            case .position(let position, let names):
                switch names.count {
                case 0: return "no bundle holds the payload at position \(position)"
                case 1: return "\(names[0]) holds a payload at position \(position), past the end of the input"
                default: return "\(names.joined(separator: " and ")) both hold the payload at position \(position)"
                }
            }
        }

        private func quoted(_ text: String?) -> String { text.map { "'\($0)'" } ?? "none" }
    }

    /// The missing shards as the runners' own variables say them ("CI_NODE_INDEX=1, 3" for GitLab, which
    /// counts from 1); nil when the bundles name no runner.
    static func runnerValues(_ shards: [Shard], runners: [String]) -> String? {
        let said = runners.compactMap { name in RunnerShard.runners.first { $0.name == name } }.map { runner in
            runner.index + "=" + shards.map { String($0.index + (runner.oneBased ? 1 : 0)) }.joined(separator: ", ")
        }
        return said.isEmpty ? nil : said.joined(separator: "; ")
    }

    /// The bundles' headers and inputs checked against the first one's, then each shard counted once.
    package static func check(_ bundles: [Bundle]) -> Problem? {
        guard let first = bundles.first else { return nil }
        for bundle in bundles.dropFirst() {
            if let problem = differentRun(bundle, first) { return problem }
        }
        var seen: [Int: String] = [:]
        for bundle in bundles {
            if let other = seen[bundle.header.shard.index] {
                return .duplicate(name: bundle.name, other: other, shard: bundle.header.shard)
            }
            seen[bundle.header.shard.index] = bundle.name
        }
        let count = first.header.shard.count
        let missing = (0..<count).filter { seen[$0] == nil }.compactMap { Shard(index: $0, count: count) }
        guard !missing.isEmpty else { return nil }
        var runners: [String] = []
        for bundle in bundles { for runner in bundle.header.runners where !runners.contains(runner) { runners.append(runner) } }
        return .missing(missing, runners: runners)
    }

    /// How `bundle`'s run differs from `first`'s: N, the rule, the input, the tool, an option, the app name.
    private static func differentRun(_ bundle: Bundle, _ first: Bundle) -> Problem? {
        if bundle.header.shard.count != first.header.shard.count {
            return .differentCount(name: bundle.name, shard: bundle.header.shard, first: first.name, firstShard: first.header.shard)
        }
        if bundle.header.rule != first.header.rule {
            return .differentRule(name: bundle.name, rule: bundle.header.rule, first: first.name, firstRule: first.header.rule)
        }
        if bundle.input != first.input {
            let named = bundle.input.payloads == first.input.payloads && bundle.input.namesSHA256 != first.input.namesSHA256
            return named
                ? .differentNames(name: bundle.name, input: bundle.input, first: first.name, firstInput: first.input)
                : .differentInput(name: bundle.name, input: bundle.input, first: first.name, firstInput: first.input)
        }
        if bundle.header.tool != first.header.tool {
            return .differentTool(name: bundle.name, tool: bundle.header.tool, first: first.name, firstTool: first.header.tool)
        }
        if let problem = differentOption(bundle, first) { return problem }
        if bundle.header.appName != first.header.appName {
            return .differentAppName(name: bundle.name, value: bundle.header.appName, first: first.name, firstValue: first.header.appName)
        }
        return nil
    }

    /// The first option whose value differs, in the first bundle's order, then any the first lacks.
    private static func differentOption(_ bundle: Bundle, _ first: Bundle) -> Problem? {
        let names = first.header.options.map(\.name) + bundle.header.options.map(\.name)
        let value = { (bundle: Bundle, name: String) in bundle.header.options.first { $0.name == name }?.value }
        for name in names where value(bundle, name) != value(first, name) {
            return .differentOption(
                name: bundle.name, option: name, value: value(bundle, name), first: first.name, firstValue: value(first, name))
        }
        return nil
    }

    /// Every position from 0 to `payloads` − 1 held by exactly one bundle (each bundle's positions are
    /// increasing, as its file holds them).
    package static func checkPositions(_ positions: [(name: String, positions: [Int])], payloads: Int) -> Problem? {
        var holder = [Int32](repeating: -1, count: payloads)
        for (index, bundle) in positions.enumerated() {
            for position in bundle.positions {
                guard position >= 0 && position < payloads else { return .position(position, names: [bundle.name]) }
                if holder[position] >= 0 { return .position(position, names: [positions[Int(holder[position])].name, bundle.name]) }
                holder[position] = Int32(index)
            }
        }
        if let gap = holder.firstIndex(of: -1) { return .position(gap, names: []) }
        return nil
    }
}
