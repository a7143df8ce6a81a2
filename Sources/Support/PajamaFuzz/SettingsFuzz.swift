import Foundation
import PajamaStorage
import PajamaAudio
import PajamaTerminal

/// The settings files as the reader reads them at start: the reader's (theme) and the sound's (volume,
/// mute) from the same bytes.
public enum SettingsFuzz {
    /// Both settings as loaded.
    @discardableResult
    public static func fuzzOne(_ bytes: [UInt8]) -> (ReaderSettings, SoundSettings) {
        let file = ScratchFolder.write(bytes, as: "settings.json", for: "settings")
        let reader = ReaderSettings.load(from: file)
        let sound = SoundSettings.load(from: file)
        precondition((0...100).contains(sound.volume), "a loaded volume of \(sound.volume) is outside 0...100")
        return (reader, sound)
    }
}
