// Shared by every mode: the clock, failing, options, summaries, payloads.

@_spi(Tooling) import CarillonCLI
@_spi(Tooling) import CarillonExtensionCore
import Dispatch
import Synchronization

// MARK: - Small helpers

/// Monotonic nanoseconds.
@inline(__always)
func now() -> UInt64 {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return UInt64(ts.tv_sec) * 1_000_000_000 + UInt64(ts.tv_nsec)
}

func fail(_ message: String) -> Never {
    let line = Array("carillon-bench: \(message)\n".utf8)
    _ = line.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
    exit(2)
}

struct Options {
    var values: [String: String] = [:]
    var positionals: [String] = []

    init(_ arguments: ArraySlice<String>) {
        var iterator = arguments.makeIterator()
        while let argument = iterator.next() {
            if argument.hasPrefix("--") {
                guard let value = iterator.next() else { fail("\(argument) needs a value") }
                values[argument] = value
            } else {
                positionals.append(argument)
            }
        }
    }

    func string(_ name: String) -> String {
        guard let value = values[name] else { fail("missing \(name)") }
        return value
    }

    func int(_ name: String, default fallback: Int) -> Int {
        guard let text = values[name] else { return fallback }
        guard let value = Int(text), value > 0 else { fail("\(name) must be a positive integer") }
        return value
    }

    func double(_ name: String, default fallback: Double) -> Double {
        guard let text = values[name] else { return fallback }
        guard let value = Double(text), value >= 0 else { fail("\(name) must be a number") }
        return value
    }
}

/// Median, minimum, maximum and 90th percentile of samples in nanoseconds, as microseconds.
func summary(_ samples: [UInt64]) -> String {
    let sorted = samples.sorted()
    guard !sorted.isEmpty else { return "null" }
    func us(_ ns: UInt64) -> String {
        let value = Double(ns) / 1000
        return String((value * 10).rounded() / 10)
    }
    let median =
        sorted.count % 2 == 1
        ? sorted[sorted.count / 2]
        : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
    let p90 = sorted[min(sorted.count - 1, (sorted.count * 9) / 10)]
    return
        "{\"median_us\":\(us(median)),\"min_us\":\(us(sorted.first!)),\"max_us\":\(us(sorted.last!)),\"p90_us\":\(us(p90)),\"n\":\(sorted.count)}"
}

func deliveryID(_ counter: Int) -> String {
    var hex = String(counter, radix: 16)
    while hex.count < 12 { hex = "0" + hex }
    return "01937b21-0000-7000-8000-" + hex
}

/// A routed, stamped payload asking for the image at `url`.
func imagePayload(_ number: Int, url: String) -> Payload {
    let text = """
        {"aps":{"alert":"x","mutable-content":1},"carillon":{"delivery_id":"\(deliveryID(number))","image":"\(url)"}}
        """
    do {
        return try Payload(bytes: Array(text.utf8))
    } catch {
        fail("\(error)")
    }
}

func readWhole(_ path: String) -> [UInt8] {
    do {
        return try FileSystem.readFile(path, limit: 64 << 20)
    } catch {
        fail("cannot read \(path): \(error)")
    }
}
