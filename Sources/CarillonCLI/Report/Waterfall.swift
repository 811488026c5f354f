@_spi(Tooling) import CarillonExtensionCore

/// The transfer trace as a waterfall: one bar per hop, split into dns / connect / tls / waiting / body,
/// on a time axis from the start of the download that also marks the budget (`--budget`) and
/// time-will-expire (`--expire-after`).
enum Waterfall {
    enum Phase: String, CaseIterable, Sendable {
        case dns, connect, tls, waiting, body
    }

    /// One stretch of a hop, in milliseconds from the start of that hop.
    struct Segment: Equatable, Sendable {
        var phase: Phase
        var start: Double
        var end: Double
    }

    /// A hop's stretches from libcurl's cumulative timings. Steps up to the first one not reached are
    /// the time between one mark and the next; the rest of the hop, up to `total`, belongs to the phase
    /// it was in when it ended (a stall before the head is all `waiting`); zero-length stretches are
    /// dropped.
    static func segments(_ timings: DownloadTrace.Timings) -> [Segment] {
        let marks = [timings.dns, timings.connect, timings.tls, timings.firstByte]
        var segments: [Segment] = []
        var previous = 0.0
        var phaseIndex = 0
        for mark in marks {
            guard let mark else { break }
            let end = max(previous, mark)
            if end > previous { segments.append(Segment(phase: Phase.allCases[phaseIndex], start: previous, end: end)) }
            previous = end
            phaseIndex += 1
        }
        if timings.total > previous {
            segments.append(Segment(phase: Phase.allCases[phaseIndex], start: previous, end: timings.total))
        }
        return segments
    }

    /// The axis's length: time-will-expire and the budget, or the trace itself if it ran longer, plus a
    /// margin so that the marks are not on the edge.
    static func scale(trace: DownloadTrace, budgetMilliseconds: Double, expireMilliseconds: Double) -> Double {
        let total = trace.hops.reduce(0) { $0 + $1.timings.total }
        return max(budgetMilliseconds, expireMilliseconds, total, 1) * 1.05
    }

    /// "12.5%": a share of the axis as a CSS length.
    static func percent(_ milliseconds: Double, of scale: Double) -> String {
        let value = max(0, min(100, milliseconds / scale * 100))
        let hundredths = Int((value * 100).rounded())
        let fraction = hundredths % 100
        return "\(hundredths / 100).\(fraction < 10 ? "0" : "")\(fraction)%"
    }

    /// The waterfall's HTML: a row per hop (the hops one after another, as the tool follows them) on
    /// the axis with the two marks, the same row zoomed to the whole transfer, and each hop's figures.
    static func html(_ trace: DownloadTrace, budgetMilliseconds: Double, expireMilliseconds: Double) -> String {
        let scale = scale(trace: trace, budgetMilliseconds: budgetMilliseconds, expireMilliseconds: expireMilliseconds)
        let transfer = max(trace.hops.reduce(0) { $0 + $1.timings.total }, 0.001)
        var html = "<div class=\"waterfall\">"
        var offset = 0.0
        for (index, hop) in trace.hops.enumerated() {
            let status = hop.status.map(String.init) ?? "no response"
            html +=
                "<div class=\"hop\"><div class=\"hop-label\">\(index + 1). \(status) "
                + "<span class=\"url\">\(HTMLEscaping.isolated(hop.url))</span></div><div class=\"track\">"
            html += bars(hop.timings, offset: offset, scale: scale)
            html += mark("budget", budgetMilliseconds, scale) + mark("expire", expireMilliseconds, scale)
            // The same hop again on the transfer's own scale: against 30 s, milliseconds are a sliver.
            html +=
                "</div><div class=\"track zoom\" title=\"zoomed to the transfer (\(ResultLine.milliseconds(transfer)) ms)\">"
                + bars(hop.timings, offset: offset, scale: transfer)
            html += "</div><div class=\"hop-times\">" + HTMLEscaping.escape(figures(hop.timings)) + "</div></div>"
            offset += hop.timings.total
        }
        html +=
            "<div class=\"axis\">0 ms · budget \(seconds(budgetMilliseconds))"
            + " · time-will-expire \(seconds(expireMilliseconds)) · phase \(trace.phase.rawValue)"
            + " · \(trace.bodyBytes) body bytes</div></div>"
        return html
    }

    /// A hop's stretches as positioned spans, `offset` milliseconds into an axis `scale` long.
    private static func bars(_ timings: DownloadTrace.Timings, offset: Double, scale: Double) -> String {
        var html = ""
        for segment in segments(timings) {
            let length = segment.end - segment.start
            html +=
                "<span class=\"seg \(segment.phase.rawValue)\" style=\"left:\(percent(offset + segment.start, of: scale));"
                + "width:\(percent(length, of: scale))\" title=\"\(segment.phase.rawValue) \(ResultLine.milliseconds(length)) ms\"></span>"
        }
        return html
    }

    private static func mark(_ kind: String, _ milliseconds: Double, _ scale: Double) -> String {
        "<span class=\"mark \(kind)\" style=\"left:\(percent(milliseconds, of: scale))\"></span>"
    }

    /// "20 s", "0.5 s", "1.25 s": milliseconds as the options' seconds.
    static func seconds(_ milliseconds: Double) -> String {
        let thousandths = Int(milliseconds.rounded())
        var fraction = String(thousandths % 1000)
        fraction = String(repeating: "0", count: 3 - fraction.count) + fraction
        while fraction.hasSuffix("0") { fraction.removeLast() }
        return "\(thousandths / 1000)\(fraction.isEmpty ? "" : "." + fraction) s"
    }

    /// "dns 0.049 · connect 0.285 · tls 5.806 · waiting 1.309 · body 0.825 = 7.940 ms"
    static func figures(_ timings: DownloadTrace.Timings) -> String {
        let parts = segments(timings).map { "\($0.phase.rawValue) \(ResultLine.milliseconds($0.end - $0.start))" }
        return (parts.isEmpty ? "" : parts.joined(separator: " · ") + " = ") + "\(ResultLine.milliseconds(timings.total)) ms"
    }
}
