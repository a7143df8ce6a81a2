import PajamaLoading
import PajamaModel

/// What each load of one reader's story was doing, from its loading events: asked (a load left
/// memory), the bytes seen so far, ended. Events arrive a little after the fact (a subscriber's
/// stream), so a load that had only just begun may still read as never asked.
final class LoadLog: Sendable {
    enum Status: Sendable, Equatable {
        case neverAsked
        /// Asked at `askedAt` (`now()`, seconds), `received` bytes in so far.
        case inFlight(received: Int, askedAt: Double)
        case ended
    }

    private let statuses = Locked<[LoadSubject: Status]>([:])
    private let listener: Task<Void, Never>

    init(_ events: AsyncStream<LoadingEvent>) {
        let statuses = self.statuses
        listener = Task {
            for await event in events {
                statuses.withLock { statuses in
                    switch event {
                    case .started(let subject): statuses[subject] = .inFlight(received: 0, askedAt: now())
                    case .progress(let subject, let progress):
                        if case .inFlight(_, let askedAt) = statuses[subject] {
                            statuses[subject] = .inFlight(received: progress.received, askedAt: askedAt)
                        }
                    case .finished(let subject, _, _), .failed(let subject, _): statuses[subject] = .ended
                    case .preloadWindowChanged: break
                    }
                }
            }
        }
    }

    func status(_ subject: LoadSubject) -> Status { statuses.withLock { $0[subject] ?? .neverAsked } }

    func stop() { listener.cancel() }
}

/// The stalls of one reader counted by cause: what was missing (the beat, else the first critical
/// asset of the page not in memory), how far past the last choice the turn was (0: the chosen
/// target itself), the missing asset's size, and whether its load had been asked for at all.
struct StallCauses: Sendable {
    enum Missing: String, Sendable, CaseIterable {
        case beat, picture, sound
    }

    struct Stall: Sendable {
        var missing: Missing
        var stepsPastChoice: Int
        var size: Int?
        var status: LoadLog.Status
        /// When the turn came (`now()`).
        var at: Double
    }

    private(set) var stalls: [Stall] = []

    mutating func add(_ stall: Stall) { stalls.append(stall) }

    /// One line for the row's note, e.g. "picture 30 (never asked 4, in flight 26 with 41% of its bytes
    /// on average; 50-200 KB 3, 200-350 KB 10, 350-500 KB 17); past the choice: target 12, +1 15, +2 3".
    var summary: String {
        guard !stalls.isEmpty else { return "no stalls" }
        var parts: [String] = []
        for missing in Missing.allCases {
            let these = stalls.filter { $0.missing == missing }
            guard !these.isEmpty else { continue }
            var inFlight = 0, never = 0, ended = 0
            var shares: [Double] = []
            var leads: [Double] = []
            var rates: [Double] = []
            for stall in these {
                switch stall.status {
                case .neverAsked: never += 1
                case .ended: ended += 1
                case .inFlight(let received, let askedAt):
                    inFlight += 1
                    leads.append(stall.at - askedAt)
                    if stall.size != nil { rates.append(Double(received) / max(0.001, stall.at - askedAt)) }
                    if let size = stall.size, size > 0 { shares.append(Double(received) / Double(size)) }
                }
            }
            var detail = ["never asked \(never)", "in flight \(inFlight)"
                + (shares.isEmpty ? "" : " with \(Int(100 * shares.reduce(0, +) / Double(shares.count)))% of its bytes on average")
                + (leads.isEmpty ? "" : ", asked a median \(Int(1000 * leads.sorted()[leads.count / 2])) ms before the turn")
                + (rates.isEmpty ? "" : " (\(Int(rates.sorted()[rates.count / 2] / 1000)) KB/s since asked, median)")]
            if ended > 0 { detail.append("loaded and dropped \(ended)") }
            if missing == .picture {
                let bands = [(0, 200_000, "50-200 KB"), (200_000, 350_000, "200-350 KB"), (350_000, Int.max, "350-500 KB")]
                detail.append(bands.map { low, high, name in
                    "\(name) \(these.filter { ($0.size ?? 0) >= low && ($0.size ?? 0) < high }.count)"
                }.joined(separator: ", "))
            }
            parts.append("\(missing.rawValue) \(these.count) (\(detail.joined(separator: ", ")))")
        }
        let steps = Dictionary(grouping: stalls) { min($0.stepsPastChoice, 3) }
        let past = steps.keys.sorted().map { step in
            "\(step == 0 ? "target" : step == 3 ? "+3 or more" : "+\(step)") \(steps[step]!.count)"
        }
        return parts.joined(separator: "; ") + "; past the choice: " + past.joined(separator: ", ")
    }
}
