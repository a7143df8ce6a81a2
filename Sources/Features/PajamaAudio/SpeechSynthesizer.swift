import CEspeakNG
import FoundationEssentials
import Glibc
import PajamaBasics
import PajamaModel

/// espeak-ng in this process: text to PCM (mono, at the voice's rate: 22,050 Hz), never a child process.
/// espeak-ng keeps global state, so there is one synthesizer per process (`shared(voice:)`) and every call
/// holds the lock of `instance`; `cancel()` (from any thread) ends the synthesis under way at its next block
/// of samples.
public final class SpeechSynthesizer: Sendable {
    /// The synthesizer started, if any; its lock is held around every espeak-ng call.
    private static let instance = Locked<Result<SpeechSynthesizer, SpeechError>?>(nil)
    /// Safe: only touched with `instance`'s lock held: by `synthesize` and by espeak-ng's callback, which runs
    /// inside `espeak_Synth` there (so it cannot take the lock itself).
    nonisolated(unsafe) private static var collected: [Int16] = []
    private static let cancelled = Locked(false)

    /// The voice speaking (an espeak-ng voice name, e.g. "en", "en-gb", "fr").
    public let voice: String
    public let sampleRate: Int

    private init(voice: String, sampleRate: Int) {
        self.voice = voice
        self.sampleRate = sampleRate
    }

    /// The process's synthesizer with `voice` (nil: "en"), started on first use; a voice espeak-ng does not
    /// have, or espeak-ng's data missing, is an error naming it. Later calls with another voice switch to it.
    public static func shared(voice: String?) -> Result<SpeechSynthesizer, SpeechError> {
        instance.withLock { instance in start(voice: voice ?? "en", &instance) }
    }

    private static func start(voice name: String, _ instance: inout Result<SpeechSynthesizer, SpeechError>?) -> Result<SpeechSynthesizer, SpeechError> {
        if case .success(let synthesizer)? = instance, synthesizer.voice == name { return .success(synthesizer) }
        if instance == nil {
            let rate = espeak_Initialize(AUDIO_OUTPUT_SYNCHRONOUS, 0, nil, 0)
            guard rate > 0 else {
                let failure = SpeechError(reason: "espeak-ng could not start (its data folder is missing?)")
                instance = .failure(failure)
                return .failure(failure)
            }
            espeak_SetSynthCallback { samples, count, _ in
                // Called on the synthesizing thread, inside espeak_Synth, with `instance`'s lock held.
                if let samples, count > 0 { SpeechSynthesizer.collected.append(contentsOf: UnsafeBufferPointer(start: samples, count: Int(count))) }
                return SpeechSynthesizer.isCancelled ? 1 : 0
            }
            instance = .success(SpeechSynthesizer(voice: "", sampleRate: Int(rate)))
        }
        guard case .success(let started)? = instance else { return instance ?? .failure(SpeechError(reason: "espeak-ng is not available")) }
        guard espeak_SetVoiceByName(name) == EE_OK else {
            return .failure(SpeechError(reason: "espeak-ng has no voice \"\(name)\" (espeak-ng --voices lists them)"))
        }
        let synthesizer = SpeechSynthesizer(voice: name, sampleRate: started.sampleRate)
        instance = .success(synthesizer)
        return .success(synthesizer)
    }

    /// espeak-ng's version, as the library reports it.
    public static var libraryVersion: String {
        var path: UnsafePointer<CChar>?
        return espeak_Info(&path).map { String(cString: $0) } ?? "unknown"
    }

    private static var isCancelled: Bool { cancelled.withLock { $0 } }

    /// Ends the synthesis under way (it returns what it has so far).
    public func cancel() { Self.cancelled.withLock { $0 = true } }

    /// The speech of `text` as mono float PCM (no frames for text with nothing to say); nil when `cancel()`
    /// ended it (a `cancel()` before the call ends only a synthesis already under way).
    public func synthesize(_ text: String) -> PCMBuffer? {
        Self.instance.withLock { _ in synthesizeLocked(text) }
    }

    /// `synthesize`, with `instance`'s lock held.
    private func synthesizeLocked(_ text: String) -> PCMBuffer? {
        Self.cancelled.withLock { $0 = false }
        if espeak_SetVoiceByName(voice) != EE_OK { return PCMBuffer(sampleRate: sampleRate, channels: 1, frames: 0, samples: []) }
        Self.collected.removeAll(keepingCapacity: true)
        let bytes = Array(text.utf8) + [0]
        _ = bytes.withUnsafeBytes { buffer in
            espeak_Synth(buffer.baseAddress, buffer.count, 0, POS_CHARACTER, 0, UInt32(espeakCHARS_UTF8), nil, nil)
        }
        let samples = Self.collected.map { Float($0) / 32768 }
        Self.collected.removeAll(keepingCapacity: true)
        if Self.isCancelled { return nil }
        return PCMBuffer(sampleRate: sampleRate, channels: 1, frames: samples.count, samples: samples)
    }
}

/// Why speech is not available.
public struct SpeechError: Error, Sendable, Equatable, CustomStringConvertible {
    public var reason: String
    public var description: String { reason }
}
