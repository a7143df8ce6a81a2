import Foundation
import PajamaAudio
import PajamaModel
import PajamaTestSupport

/// The ways the sound scenario plays a tap.
enum TapPath: Hashable {
    /// Pajama's normal mode: the sound uploaded once, `pa_context_play_sample` per tap.
    case sampleCache
    /// Pajama on a server without a sample cache: a voice added to its one running stream.
    case stream
    /// Decode the file and open a new playback stream on every tap, in process.
    case baseline
    /// A new paplay process per tap.
    case paplay
    /// Read aloud: a line spoken (measured with the sample-cache engine).
    case speech

    /// The row label.
    var label: String {
        switch self {
        case .sampleCache: "sample cache"
        case .stream: "fallback stream"
        case .baseline: "decode + new stream"
        case .paplay: "paplay"
        case .speech: "read aloud"
        }
    }

    /// True when every tap makes a new sink input on the server (which the server announces).
    var makesSinkInputs: Bool { self == .sampleCache || self == .baseline || self == .paplay }
}

/// The tapped sound, as bytes and as a file (for paplay).
struct TapSound {
    var bytes: [UInt8]
    var file: String
    var name: String
}

/// One way of playing a tap, ready: `play` taps once, `settle` waits for what a run of taps left behind
/// (paplay processes, which are reaped so their CPU time is counted), `engine` is Pajama's engine when the
/// path is one of its modes.
struct TapPlayer {
    var path: TapPath
    var play: () throws -> Void
    var settle: () async -> Void = {}
    var engine: PulseSoundEngine?
}

/// Opens each way of playing the tap in turn on the private server, and closes it after use.
struct TapPlayers {
    var server: String
    var settingsFile: URL
    var sound: TapSound

    /// Calls `body` with each path's player, one at a time (one engine open at a time): the two engine
    /// modes, the decode-per-play baseline, and paplay when it is installed.
    func forEach(_ body: (TapPlayer) async throws -> Void) async throws {
        let key = SoundKey(storyId: "bench", storyVersion: "1", path: try AssetPath(validating: "assets/" + sound.name))
        for mode in [SoundMode.sampleCache, .stream] {
            let engine = PulseSoundEngine.start(server: server, mode: mode, settingsFile: settingsFile)
            guard engine.mode == mode else {
                await engine.shutdown()
                throw Skip(reason: "the \(mode.rawValue) mode is not available: \(engine.state)")
            }
            let client = SoundClient.live(engine)
            client.volume = 100
            client.isMuted = false
            do {
                let loaded = try await client.load(key, sound.bytes)
                try await body(TapPlayer(path: mode == .sampleCache ? .sampleCache : .stream, play: { _ = client.play(loaded) }, engine: engine))
            } catch {
                await engine.shutdown()
                throw error
            }
            await engine.shutdown()
        }
        let player = try StreamPerPlayPlayer(server: server)
        defer { player.close() }
        let sound = sound
        try await body(TapPlayer(path: .baseline, play: { try player.play(sound.bytes, name: sound.name) }))
        guard (try? ChildProcess.run("paplay", ["--version"]))?.status == 0 else { return }
        final class Children { var pids: [pid_t] = [] }
        let children = Children()
        defer { children.pids.forEach(ChildProcess.terminate) }
        try await body(TapPlayer(
            path: .paplay,
            play: { children.pids.append(try ChildProcess.spawn("paplay", ["-s", server, sound.file], outputFile: "/dev/null")) },
            settle: {
                await TapCost.reap(children.pids)
                children.pids = []
            }))
    }
}
