import Foundation
import PajamaAudio
import PajamaStorage
import PajamaTestSupport

/// A fresh private server, a config folder of its own (so volume and mute start at 100% and unmuted,
/// and the reader's own settings are never touched) and an engine connected in `mode`. The caller
/// stops the server and removes the folder.
func startSoundEngine(_ mode: SoundMode = .auto) throws -> (server: PrivatePulseServer, config: TemporaryDirectory, engine: PulseSoundEngine) {
    let server = try PrivatePulseServer()
    let config = try TemporaryDirectory(prefix: "pajama-cfg")
    let engine = PulseSoundEngine.start(server: server.serverAddress, mode: mode, settingsFile: Paths(home: config.url).soundSettings)
    engine.volume = 100
    engine.isMuted = false
    return (server, config, engine)
}
