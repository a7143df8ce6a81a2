import PajamaModel

/// Read aloud: each line as it is revealed, spoken (`SpeechClient`); a page's title, text, prompt and
/// choices when it is entered; speaking stops when the page changes. Follows a view model's events
/// (`follow`), as the transcript does, with the same idea of what is new on the screen (`Transcript`).
///
/// Owns two tasks: the follower (events to utterances, and an immediate `stop` when the page changes) and
/// the speaker (one utterance at a time, so lines are said in order; an utterance of a page already left
/// is dropped). Both end when the events end (the view model closed) or `finish()`.
@MainActor
public final class ReadAloud {
    /// Whether lines are spoken now (`v`); turning it off stops what is being said.
    public var isOn: Bool {
        didSet {
            guard isOn != oldValue else { return }
            if !isOn {
                generation += 1
                speech.stop()
            }
        }
    }

    private let speech: SpeechClient
    private var follower: Task<Void, Never>?
    private var speaker: Task<Void, Never>?
    /// Counts page changes (and turning off): an utterance of an earlier generation is not said.
    private var generation = 0
    private let utterances: AsyncStream<Utterance>.Continuation
    private let queue: AsyncStream<Utterance>

    private struct Utterance {
        var text: String
        var generation: Int
        var interrupting: Bool
        /// Asked for (`say`): said even while read aloud is off.
        var onDemand = false
    }

    public init(speech: SpeechClient, on: Bool) {
        self.speech = speech
        isOn = on
        (queue, utterances) = AsyncStream<Utterance>.makeStream()
    }

    /// Speaks what `events` (one view model's) reveal, from now until the stream ends.
    public func follow(_ events: AsyncStream<NavigatorEvent>) {
        follower?.cancel()
        speaker?.cancel()
        follower = Task { [weak self] in
            var transcript = Transcript()
            for await event in events {
                guard let self else { return }
                self.handle(event, &transcript)
            }
            self?.utterances.finish()
        }
        speaker = Task { [queue, weak self] in
            for await utterance in queue {
                guard let self, utterance.generation == self.generation, self.isOn || utterance.onDemand else { continue }
                _ = await self.speech.say(utterance.text, utterance.interrupting)
            }
        }
    }

    private func handle(_ event: NavigatorEvent, _ transcript: inout Transcript) {
        let state: PageState
        switch event {
        case .stateChanged(.page(let page)), .stateChanged(.finished(let page, _)): state = page
        case .stateChanged(.failed), .stateChanged(.loading): return
        default: return
        }
        let (isNewPage, lines) = transcript.newLines(of: state)
        if isNewPage {
            generation += 1
            speech.stop()
        }
        guard isOn, !lines.isEmpty else { return }
        utterances.yield(Utterance(text: lines.joined(separator: "\n"), generation: generation, interrupting: isNewPage))
    }

    /// Says `text` now, whether or not read aloud is on (`v` saying the page, `V` the current line): what is
    /// being said stops first. Turning the page stops it, as it stops every line.
    public func say(_ text: String) {
        guard !text.isEmpty else { return }
        generation += 1
        speech.stop()
        utterances.yield(Utterance(text: text, generation: generation, interrupting: true, onDemand: true))
    }

    /// Stops speaking and ends the tasks (the reader quits).
    public func finish() {
        generation += 1
        speech.stop()
        utterances.finish()
        follower?.cancel()
        speaker?.cancel()
    }

    isolated deinit {
        follower?.cancel()
        speaker?.cancel()
    }
}
