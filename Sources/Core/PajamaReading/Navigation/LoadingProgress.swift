import PajamaLoading
import PajamaModel

/// What the Loading screen says: which load the reader waits for and how far it has come
/// ("Loading picture… 340 KB of 1.5 MB"), folded from the story's loading events.
public struct LoadingProgress: Sendable {
    /// Loads in flight and what they received so far (nil: started, nothing received yet).
    private var inFlight: [LoadSubject: TransferProgress?] = [:]

    public init() {}

    /// Folds one loading event in.
    public mutating func handle(_ event: LoadingEvent) {
        switch event {
        case .started(let subject): inFlight[subject] = .some(nil)
        case .progress(let subject, let progress): inFlight[subject] = progress
        case .finished(let subject, _, _), .failed(let subject, _): inFlight[subject] = nil
        case .preloadWindowChanged: break
        }
    }

    /// How far the load of `subject` has come, if it is in flight and has received something.
    public func progress(of subject: LoadSubject) -> TransferProgress? {
        inFlight[subject] ?? nil
    }

    /// The line for a reader waiting for `subjects` (a beat, or a page's assets): names the first one
    /// still loading (else the first one) and, once bytes arrive, how many of how many.
    public func text(waitingFor subjects: [LoadSubject]) -> String {
        let loading = subjects.filter { inFlight[$0] != nil }
        let subject = loading.first { progress(of: $0) != nil } ?? loading.first ?? subjects.first
        guard let subject else { return "Loading…" }
        var text = "Loading \(Self.name(subject))…"
        if let progress = progress(of: subject), progress.received > 0 || progress.expected != nil {
            text += " " + Self.bytes(progress.received)
            if let expected = progress.expected { text += " of " + Self.bytes(expected) }
        }
        return text
    }

    static func name(_ subject: LoadSubject) -> String {
        switch subject {
        case .beat: "the next page"  // what the reader knows: a beat's id is the story's own
        case .image: "picture"
        case .sound: "sound"
        }
    }

    /// Decimal units: "512 bytes", "340 KB", "1.5 MB".
    public static func bytes(_ count: Int) -> String {
        if count < 1000 { return "\(count) bytes" }
        if count < 1_000_000 { return "\(count / 1000) KB" }
        let tenths = (count + 50_000) / 100_000
        return tenths % 10 == 0 ? "\(tenths / 10) MB" : "\(tenths / 10).\(tenths % 10) MB"
    }
}
