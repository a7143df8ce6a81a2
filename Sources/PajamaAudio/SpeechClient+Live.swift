import Dispatch
import PajamaCore

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
}
