@_spi(Tooling) import CarillonExtensionCore

/// The progress line of a campaign a person watches on a terminal (SPEC §6c), as a pure function of
/// what the run has done: which shard, how far through the input (bytes of its files, or payloads when
/// their number is known), how many payloads and how fast, the distinct images fetched, the payloads
/// that fell back, and an estimate of the time left.
///
///     progress: shard 1/4, 38% of 12.3 MB read, 1140 payloads at 2100/s, 8 images fetched, 31 fell back, about 12 s left
enum ProgressLine {
    /// What a run has done so far.
    struct Snapshot: Equatable {
        var shard: Shard?
        var input: InputProgress
        /// How much input there is, when it is known before the end.
        var total: InputTotal?
        /// Payloads done (printed).
        var done: Int
        var images: Int
        /// Payloads that named an image and were delivered without it.
        var fellBack: Int
        var elapsed: Duration
    }

    /// How much input a run has, measured before it starts.
    enum InputTotal: Equatable {
        /// Payload positions: every input is one payload file (or a URL of `check`).
        case payloads(Int)
        /// Bytes of the files, when some are JSON Lines.
        case bytes(Int)
    }

    /// How often the line is redrawn at most: a few times a second, never per payload.
    static let interval = Duration.milliseconds(250)
    /// How long a run goes before the line first shows: a quick run shows none.
    static let delay = Duration.seconds(1)

    static func text(_ snapshot: Snapshot) -> String {
        var parts: [String] = []
        if let shard = snapshot.shard { parts.append("shard \(shard)") }
        let fraction = self.fraction(snapshot)
        switch snapshot.total {
        case .payloads(let count)?: parts.append("\(percent(fraction)) of \(count) payloads read")
        case .bytes(let count)?: parts.append("\(percent(fraction)) of \(size(count)) read")
        case nil: break
        }
        let seconds = max(Double(snapshot.elapsed.inMilliseconds) / 1000, 0.001)
        parts.append("\(snapshot.done) payload\(snapshot.done == 1 ? "" : "s") at \(Int((Double(snapshot.done) / seconds).rounded()))/s")
        parts.append("\(snapshot.images) image\(snapshot.images == 1 ? "" : "s") fetched")
        parts.append("\(snapshot.fellBack) fell back")
        if let fraction, fraction > 0, fraction < 1, !snapshot.input.ended {
            parts.append("about \(duration(seconds * (1 - fraction) / fraction)) left")
        }
        return "progress: " + parts.joined(separator: ", ")
    }

    /// The share of the input read, from 0 to 1; nil when the total is not known.
    static func fraction(_ snapshot: Snapshot) -> Double? {
        if snapshot.input.ended { return snapshot.total == nil ? nil : 1 }
        switch snapshot.total {
        case .payloads(let count)?: return count == 0 ? 1 : min(1, Double(snapshot.input.positions) / Double(count))
        case .bytes(let count)?: return count == 0 ? 1 : min(1, Double(snapshot.input.bytesRead) / Double(count))
        case nil: return nil
        }
    }

    static func percent(_ fraction: Double?) -> String { "\(Int(((fraction ?? 0) * 100).rounded(.down)))%" }

    /// "512 bytes", "12.3 kB", "12.3 MB", "1.2 GB".
    static func size(_ bytes: Int) -> String {
        if bytes < 1000 { return "\(bytes) bytes" }
        let units = ["kB", "MB", "GB", "TB"]
        var value = Double(bytes) / 1000
        var unit = 0
        while value >= 1000 && unit < units.count - 1 {
            value /= 1000
            unit += 1
        }
        return "\(Double(Int(value * 10)) / 10) \(units[unit])"
    }

    /// "12 s", "3 min 5 s", "2 h 4 min".
    static func duration(_ seconds: Double) -> String {
        let whole = Int(seconds.rounded(.up))
        if whole < 60 { return "\(whole) s" }
        if whole < 3600 { return "\(whole / 60) min \(whole % 60) s" }
        return "\(whole / 3600) h \(whole % 3600 / 60) min"
    }
}
