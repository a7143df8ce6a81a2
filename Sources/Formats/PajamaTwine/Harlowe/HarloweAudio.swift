import FoundationEssentials
import Glibc
import PajamaBasics

/// The Harlowe Audio Library's convention (HAL v2, docs/twine.md, "Sound"), where it is simple: tracks named in
/// a passage `hal.tracks` (`name: source, source`) or by `(newtrack: name, source...)`; `(track: name, command,
/// ...)` plays one as a page sound, or as the background loop once `(track: name, 'loop', true)` has said it
/// loops; `stop`/`pause` end the loop; `(masteraudio: 'stopall')` ends it too. Volume, mute and seeking are the
/// reader's own (ignored); a command HAL does not have, or one Pajama does not play, is a notice in place.
public enum HarloweAudio {
    /// The passage that names the tracks.
    public static let tracksPassage = "hal.tracks"

    /// `(track:)`'s commands Pajama plays or reads past; any other is a notice and a `validate` warning.
    static let trackCommands: Set<String> = [
        "play", "playwhenpossible", "stop", "pause", "loop", "toggleloop", "isplaying", "islooping", "volume", "getvolume",
        "mute", "togglemute", "ismuted", "seek", "fadein", "fadeout", "fadeto", "fade", "delay", "unloop",
    ]
    /// `(masteraudio:)`'s commands: `stopall` ends the loop; the others are the reader's own settings (ignored).
    static let masterCommands: Set<String> = [
        "stopall", "preload", "mute", "unmute", "togglemute", "ismuted", "volume", "getvolume", "hidecontrols",
        "showcontrols", "togglecontrols", "loadscreen", "closepanel", "openpanel", "muteonblur", "clearprefs",
    ]

    /// The tracks a `hal.tracks` passage names, `name: source, source` a line: each track's sources Pajama may
    /// play, in order (`sources(of:)`).
    public static func trackSources(in text: String) -> [(name: String, sources: [String])] {
        var tracks: [(name: String, sources: [String])] = []
        for line in text.split(whereSeparator: \.isNewline) {
            guard let colon = line.firstIndex(of: ":") else { continue }
            let name = line[..<colon].trimmingSpaces
            let sources = sources(of: line[line.index(after: colon)...].split(separator: ",").map { $0.trimmingSpaces })
            guard !name.isEmpty, !sources.isEmpty else { continue }
            tracks.append((name, sources))
        }
        return tracks
    }

    /// The tracks a `hal.tracks` passage names, each by its first source (the one a page names: the story
    /// source reads the next when it is not there, docs/twine.md, "Sound").
    public static func tracks(in text: String) -> [String: String] {
        var tracks: [String: String] = [:]
        for track in trackSources(in: text) { tracks[track.name] = track.sources[0] }
        return tracks
    }

    /// Whether `story` may loop a background sound (a `(track:)` or `<audio>` near the word `loop`): its pages
    /// then each say which loop they have, so a page reached by going back or resuming plays what it did.
    /// Cheap: a substring search, no parsing.
    public static func usesLoops(_ story: TwineStory) -> Bool {
        story.passages.contains { passage in
            ASCIISearch.contains(passage.text, "loop")
                && (ASCIISearch.contains(passage.text, "(track:") || ASCIISearch.contains(passage.text, "<audio"))
        }
    }

    /// Of a sound's sources (a track's, or an `<audio>`'s `<source>`s), in their order, those a package may
    /// hold in a format the reader decodes (`./` taken off; no web address); the first source when none is.
    /// A page names the first; reading it, the story source falls back on the others in turn when it is not
    /// there, as a browser plays the first it can.
    public static func sources(of sources: [String]) -> [String] {
        let cleaned = sources.filter { !$0.isEmpty }.map { $0.hasPrefix("./") ? String($0.dropFirst(2)) : $0 }
        let playable = cleaned.filter { source in
            !source.contains("://") && decodable.contains { source.lowercased().hasSuffix("." + $0) }
        }
        return playable.isEmpty ? Array(cleaned.prefix(1)) : playable
    }

    /// The sound formats the reader decodes, by their files' extensions.
    static let decodable = ["ogg", "oga", "opus", "wav", "flac", "mp3", "aif", "aiff"]
}

/// What a line does to the background loop: a track starts looping, or the loop stops.
public enum HarloweLoop: Sendable, Equatable {
    case play(String)
    case stop
}
