import PajamaLoading
import PajamaModel

/// What `HeldContent` saw: loads started and cancelled, recorded from any thread (a cancellation handler
/// runs synchronously in whoever cancels), so a test reads it as soon as the cancelling call returns.
package final class LoadRecord: Sendable {
    private let state = Locked<(started: [String], cancelled: [String])>(([], []))
    private let startedStream: AsyncStream<String>
    private let startedInput: AsyncStream<String>.Continuation

    package init() { (startedStream, startedInput) = AsyncStream.makeStream() }

    package var started: [String] { state.withLock { $0.started } }
    package var cancelled: [String] { state.withLock { $0.cancelled } }

    package func start(_ name: String) {
        state.withLock { $0.started.append(name) }
        startedInput.yield(name)
    }

    package func cancel(_ name: String) { state.withLock { $0.cancelled.append(name) } }

    /// Waits (suspended, no polling) until a load of `name` is held (started and waiting).
    package func waitUntilHeld(_ name: String) async {
        if started.contains(name) { return }
        for await held in startedStream where held == name { return }
    }
}

/// Story content whose beats listed in `heldBeats` and every sound load are held: a held load waits,
/// without guessing how long, until the test releases it (`release`) or its task is cancelled (then it
/// throws `.cancelled`, like the live loads). Everything else answers from memory at once.
package actor HeldContent: StoryContent {
    package nonisolated let manifest: StoryManifest
    package nonisolated let record = LoadRecord()
    /// Every beat not held or failing, and the sounds released: answered at once (pictures never hold a page).
    private nonisolated let memory: ResidentMemory
    package nonisolated var resident: any ResidentContent { memory }
    private let beats: [String: Beat]
    private var heldBeats: Set<String>
    private var failingBeats: Set<String> = []
    private var waiting: [String: [Hold]] = [:]
    private var released: Set<String> = []

    package init(manifest: StoryManifest, beats: [Beat], heldBeats: Set<String> = []) {
        self.manifest = manifest
        self.beats = Dictionary(uniqueKeysWithValues: beats.map { ($0.id, $0) })
        self.heldBeats = heldBeats
        memory = ResidentMemory(manifest: manifest, picturesGateEntry: false)
        for beat in beats where !heldBeats.contains(beat.id) { memory.keep(beat) }
    }

    package func loadBeat(_ id: String) async throws(AssetLoadError) -> Beat {
        if heldBeats.contains(id) { try await hold("beat \(id)") }
        if failingBeats.contains(id) { throw AssetLoadError(.network, subject: "beat \(id)") }
        guard let beat = beats[id] else { throw AssetLoadError(.notFound, subject: "beat \(id)") }
        memory.keep(beat)
        return beat
    }

    package func loadCriticalAssets(for location: StoryLocation, in beat: Beat) async throws(AssetLoadError) {}
    package func loadImage(_ path: AssetPath) async throws(AssetLoadError) -> StoryImage { .textArt(lines: ["*"]) }

    package func loadSound(_ path: AssetPath) async throws(AssetLoadError) -> LoadedSound {
        try await hold(path.value)
        let sound = LoadedSound(key: SoundKey(storyId: manifest.id, storyVersion: nil, path: path), frames: 1, sampleRate: 8000,
                                channels: 1, byteCount: 4)
        memory.keep(sound, at: path)
        return sound
    }

    package func readerMoved(to location: StoryLocation) {}

    /// A beat load fails with a network error until `heal`.
    package func fail(_ id: String) {
        failingBeats.insert(id)
        memory.forgetBeat(id)
    }
    package func heal(_ id: String) {
        failingBeats.remove(id)
        if !heldBeats.contains(id), let beat = beats[id] { memory.keep(beat) }
    }

    /// Lets the held loads of `name` (a sound's path, or "beat ID") finish, and every later one.
    package func release(_ name: String) {
        released.insert(name)
        let id = name.hasPrefix("beat ") ? String(name.dropFirst(5)) : name
        heldBeats.remove(id)
        if !failingBeats.contains(id), let beat = beats[id] { memory.keep(beat) }
        for hold in waiting.removeValue(forKey: name) ?? [] { hold.end(cancelled: false) }
    }

    /// Waits until `name` is released; throws `.cancelled` as soon as the caller's task is cancelled.
    private func hold(_ name: String) async throws(AssetLoadError) {
        guard !released.contains(name) else { return }
        let parked = Hold()
        let record = self.record
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                if parked.wait(continuation) {
                    waiting[name, default: []].append(parked)
                    record.start(name)
                }
            }
        } onCancel: {
            if parked.end(cancelled: true) { record.cancel(name) }
        }
        if parked.wasCancelled { throw AssetLoadError(.cancelled, subject: name) }
    }
}

/// One held load: resumed exactly once, by a release or by its task's cancellation.
package final class Hold: Sendable {
    private let state = Locked<(continuation: CheckedContinuation<Void, Never>?, ended: Bool, cancelled: Bool)>((nil, false, false))

    package init() {}

    package var wasCancelled: Bool { state.withLock { $0.cancelled } }

    /// Parks `continuation`; returns false (resuming it at once) when the hold has already ended.
    package func wait(_ continuation: CheckedContinuation<Void, Never>) -> Bool {
        let parked = state.withLock { state in
            if state.ended { return false }
            state.continuation = continuation
            return true
        }
        if !parked { continuation.resume() }
        return parked
    }

    /// Ends the hold (resuming its load); returns whether this call ended it.
    @discardableResult
    package func end(cancelled: Bool) -> Bool {
        let (ended, continuation) = state.withLock { state -> (Bool, CheckedContinuation<Void, Never>?) in
            if state.ended { return (false, nil) }
            state.ended = true
            state.cancelled = cancelled
            defer { state.continuation = nil }
            return (true, state.continuation)
        }
        continuation?.resume()
        return ended
    }
}
