import Dispatch
import Logging
import PajamaModel
import PajamaStorage

extension SpeechClient {
    /// Read aloud through `engine`: `synthesizer` (espeak-ng, in process) makes the PCM off the caller's
    /// thread, and the engine's speech stream says it. `stop` cancels the synthesis and silences the stream.
    public static func live(_ engine: PulseSoundEngine, synthesizer: SpeechSynthesizer) -> SpeechClient {
        let queue = DispatchQueue(label: "pajama.speech")
        return SpeechClient(
            say: { text, interrupting in
                let pcm: PCMBuffer? = await withCheckedContinuation { continuation in
                    queue.async { continuation.resume(returning: synthesizer.synthesize(text)) }
                }
                guard let pcm, pcm.frames > 0 else { return false }
                return engine.speak(pcm, interrupting: interrupting)
            },
            stop: {
                synthesizer.cancel()
                engine.stopSpeaking()
            })
    }

    /// Read aloud through `engine` with espeak-ng started on the first line said (`voice`, nil: "en"), not
    /// before: starting espeak-ng opens (and closes) an "eSpeak" stream on the sound server, which a reading
    /// with read aloud off should never do. A voice that cannot start says nothing (logged once).
    public static func live(_ engine: PulseSoundEngine, voice: String?) -> SpeechClient {
        let started = Locked<Result<SpeechSynthesizer, SpeechError>?>(nil)
        let synthesizer: @Sendable () -> SpeechSynthesizer? = {
            started.withLock { state in
                if state == nil {
                    state = SpeechSynthesizer.shared(voice: voice)
                    if case .failure(let problem)? = state { PajamaLog.sound.warning("read aloud is not available: \(problem)") }
                }
                return try? state?.get()
            }
        }
        let queue = DispatchQueue(label: "pajama.speech")
        return SpeechClient(
            say: { text, interrupting in
                let pcm: PCMBuffer? = await withCheckedContinuation { continuation in
                    queue.async { continuation.resume(returning: synthesizer()?.synthesize(text)) }
                }
                guard let pcm, pcm.frames > 0 else { return false }
                return engine.speak(pcm, interrupting: interrupting)
            },
            stop: {
                (try? started.withLock { $0 }?.get())?.cancel()
                engine.stopSpeaking()
            })
    }
}
