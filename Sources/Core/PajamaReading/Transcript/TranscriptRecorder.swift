import PajamaStorage

/// Writes the transcript of a reading as it happens: it follows a view model's events (`follow`) until their
/// stream ends, when the view model is closed. Owns the task that does it; `finish()` waits for everything
/// to be written.
@MainActor
public final class TranscriptRecorder {
    private let file: TranscriptFile
    private var task: Task<TranscriptFileError?, Never>?

    public init(file: TranscriptFile) { self.file = file }

    /// Writes what `events` (one view model's, from `events()`) show was read, until the stream ends.
    /// Called once per reading.
    public func follow(_ events: AsyncStream<NavigatorEvent>) {
        task?.cancel()
        task = Task { [file] in
            var transcript = Transcript()
            var problem: TranscriptFileError?
            for await event in events {
                let text = transcript.record(event)
                if !text.isEmpty, problem == nil { problem = file.append(text) }
            }
            return problem
        }
    }

    /// Waits until the events have ended (close the view model first) and all is written; the first write
    /// problem, if any (nothing more is written after one).
    public func finish() async -> TranscriptFileError? { await task?.value }

    isolated deinit { task?.cancel() }
}
