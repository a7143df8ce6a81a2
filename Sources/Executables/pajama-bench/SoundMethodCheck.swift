/// One way of playing a tap, measured over many taps: when each was heard at the sink (the recorder) and,
/// for paths that make a sink input per play, when the server announced it (`SinkInputEvents`).
struct TapSeries {
    /// Trigger to the first sample at the sink, per tap heard (seconds).
    var heard: [Double] = []
    /// Trigger to the server's announcement of the tap's sink input, per tap announced.
    var announced: [Double] = []
    /// Onset minus announcement, per tap with both: the recorder's dating against the server's.
    var agreement: [Double] = []
    /// Taps not heard within 2 s.
    var missed = 0

    var note: String { "\(heard.count) taps heard" + (missed > 0 ? ", \(missed) not heard within 2 s" : "") }
}

extension SoundScenario {
    /// How far an onset may come before its sink input's announcement and still count as consistent: the
    /// announcement is dated when it reaches the bench, one socket hop and a thread wake-up after the
    /// server sent it, and on a busy machine that wake-up can come late.
    static let announcementSlack = 0.002

    /// The check of the recorder's method on one path (issue 14): when the server announced each tap's sink
    /// input, and how the recorder's onset compares. A recorder that dated sound early (a null sink's monitor
    /// renders ahead) would put onsets before their sink input existed; one that dated it late would put
    /// them far after. The announcement is an upper bound of the sink input's creation (it is dated on
    /// arrival), so a few onsets "before" it on a loaded machine are the announcement's own delay; the
    /// method holds when the median onset is within 0-5 ms after the announcement (the sink's latency) and
    /// at most 5% of onsets come before it by more than the slack.
    func methodRows(_ path: String, _ series: TapSeries) -> [BenchRow] {
        guard !series.agreement.isEmpty else {
            return [BenchRow(scenario: name, name: "\(path): method check", unit: .count, stats: Statistics([]),
                             note: "no sink-input announcement seen (\(series.announced.count) of \(series.heard.count + series.missed) taps)")]
        }
        let early = series.agreement.filter { $0 < -Self.announcementSlack }.count
        let agreement = Statistics(series.agreement)
        return [
            BenchRow(scenario: name, name: "\(path): tap to sink input announced", unit: .seconds, stats: Statistics(series.announced),
                     note: "the server's event, dated on arrival; \(series.announced.count) taps"),
            BenchRow(scenario: name, name: "\(path): onset minus announcement", unit: .seconds, stats: agreement,
                     target: "median 0-5 ms, <= 5% of onsets > \(Int(Self.announcementSlack * 1000)) ms before",
                     met: agreement.median >= 0 && agreement.median <= 0.005 && Double(early) <= 0.05 * Double(series.agreement.count),
                     note: "\(early) of \(series.agreement.count) onsets dated before their sink input's announcement"),
        ]
    }
}
