import PajamaModel
import PajamaStorage

/// Writes the transcript of a reading as it happens: it observes a view model's events (`follow`), each
/// written at once on the thread that publishes it, in order, until the view model is closed. No task of its
/// own: a reading that never waits (`pajama play`, whose moves stay on the main actor) loses no event and wakes
/// no thread for it.
public final class TranscriptRecorder: Sendable {
    private enum State {
        /// Writing; `transcript` knows what was written of the page shown.
        case writing(Transcript)
        /// A write failed: nothing more is written, and `finish()` says why.
        case failed(TranscriptFileError)
    }

    private let file: TranscriptFile
    private let state = Locked(State.writing(Transcript()))

    public init(file: TranscriptFile) { self.file = file }

    /// Writes what `viewModel`'s events show was read, from now until it is closed. Called once per reading.
    @MainActor
    public func follow(_ viewModel: ReaderViewModel) {
        viewModel.observe { [self] event in record(event) }
    }

    private func record(_ event: NavigatorEvent) {
        state.withLock { state in
            guard case .writing(var transcript) = state else { return }
            let text = transcript.record(event)
            if !text.isEmpty, let problem = file.append(text) {
                state = .failed(problem)
                return
            }
            state = .writing(transcript)
        }
    }

    /// The first write problem, if any (nothing more is written after one). Everything published has been
    /// written by the time the view model's `close()` returns.
    public func finish() -> TranscriptFileError? {
        state.withLock { state in
            if case .failed(let problem) = state { return problem }
            return nil
        }
    }
}
